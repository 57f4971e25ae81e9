"""Replace a bundled model's ops by the ones extracted from its kernel's source.

    compare_models.py --replace KERNEL      (after the comparison of that kernel)

A bundled model (models/kernels/KERNEL.json) is generated from the corpus by
tools/corpus/convert_corpus.py, which keeps every hand-written part of the file (its
merge_existing: `format`, `ops`, buffers without `corpus`, the format-2 fields of corpus
buffers, `source.commit` / `source.notes`).  So the extraction goes in as such parts and the
corpus part stays byte-identical (`convert_corpus.py --check` still holds):

    bundled                        merged file
    -----------------------------  --------------------------------------------------------
    corpus buffer NAME             the same, plus `origin` = the extracted allocation's line
    (no such buffer)               every other extracted buffer (fragments, views, ...)
    ops (none)                     the extracted ops
    source                         + `commit` (the commit read), `notes` (what was extracted)

Only when it is at least as complete and agrees: the extraction is complete, every bundled
buffer has an extracted buffer of the same name with the same scope, shape, dtype and an
equivalent layout (compare_models.compare_buffers), and the bundled model has no ops of its
own.

A bundled model WITH hand-written ops (merged_ops) is replaced only after the op-by-op
comparison (compare_ops.py): every buffer its ops name maps to an extracted buffer of the same
scope, shape, dtype and an equivalent layout, and every one of its ops has an extracted op with
identical fields.  Then:

    bundled                        merged file
    -----------------------------  --------------------------------------------------------
    corpus buffer an op named      kept as is (+ `origin` if it had none); the extracted buffer it
                                   maps to is written under this name when no other bundled
                                   buffer maps to it (`D_smem` -> `D_smem/mma_AB`)
    hand-written buffer an op      dropped: the extracted buffer replaces it (`reg.wg0` and
      named                          `reg.wg1` -> the one extracted `reg`, the ops' warps apart)
    other buffers                  kept
    ops                            the extracted ops, regions renamed as above
"""
from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "corpus"))
from convert_corpus import to_json  # noqa: E402  (the converter's printer: regeneration stays byte-identical)


def why_not(model: dict, got: dict, diffs: list, missing: list) -> str | None:
    """None when the extraction may replace the bundled model's ops, else the reason."""
    if not got["extraction"]["complete"]:
        return "the extraction is not complete"
    if diffs or missing:
        return "some bundled buffers differ from or are missing in the extraction"
    if model.get("ops"):
        return "the bundled model has ops of its own (replaced only through merged_ops, after compare_ops)"
    names = {b["name"] for b in got["buffers"]}
    if any(b["name"] not in names for b in model["buffers"]):
        return "a bundled buffer's model name differs from the extracted one"
    return None


def merged(model: dict, got: dict) -> dict:
    out = dict(model)
    out["format"] = 2
    xb = {b["name"]: b for b in got["buffers"]}
    bufs = []
    for b in model["buffers"]:
        nb = dict(b)
        nb["origin"] = xb[b["name"]]["origin"]
        bufs.append(nb)
    have = {b["name"] for b in model["buffers"]}
    bufs += [b for b in got["buffers"] if b["name"] not in have]
    out["buffers"] = bufs
    out["ops"] = got["ops"]
    src = dict(model.get("source", {}))
    src["commit"] = got["source"]["commit"]
    src["notes"] = (f"Ops and the buffers without a corpus record extracted by tirx-verify extract "
                    f"(tools/extract/compare_models.py --replace) from {got['source']['files'][0]} at "
                    f"{got['source']['commit'][:7]}, default configuration; every buffer and op resolved "
                    "(docs/extract.md).")
    out["source"] = src
    ordered = {"format": 2}
    ordered.update({k: v for k, v in out.items() if k != "format"})
    return ordered


def write(path: str, model: dict) -> None:
    with open(path, "w") as fh:
        fh.write(to_json(model) + "\n")


def why_not_ops(model: dict, got: dict, cmp: dict) -> str | None:
    """None when the extraction may replace a bundled model's hand-written ops (compare_ops.compare
    result `cmp`), else the reason."""
    if not got["extraction"]["complete"]:
        return "the extraction is not complete"
    if cmp["problems"]:
        return "buffers the bundled ops name differ: " + "; ".join(cmp["problems"])
    if cmp["unmatched"]:
        return f"{len(cmp['unmatched'])} bundled op(s) have no identical extracted op: " + \
            ", ".join(cmp["unmatched"][:8])
    return None


def _rename_region(text: str, names: dict) -> str:
    head, sep, rest = text.partition("[")
    return names[head] + sep + rest if head in names else text


def _rename(v, names: dict):
    if isinstance(v, str):
        return _rename_region(v, names)
    if isinstance(v, dict):
        return {k: (x if k in ("name", "kind", "origin", "notes") else _rename(x, names)) for k, x in v.items()}
    if isinstance(v, list):
        return [_rename(x, names) for x in v]
    return v


def merged_ops(model: dict, got: dict, rename: dict, how: str) -> dict:
    """The bundled model with its hand-written ops replaced by the extracted ones (the table in
    the module doc).  `rename` is compare_ops' {bundled buffer: extracted buffer}; `how` says
    which configuration and iterations were extracted (source.notes)."""
    corpus = {b["name"] for b in model["buffers"] if "corpus" in b}
    inv: dict = {}
    for b, x in rename.items():
        inv.setdefault(x, []).append(b)
    to_bundled = {x: bs[0] for x, bs in inv.items() if len(bs) == 1 and bs[0] in corpus}
    dropped = {b for b in rename if b not in corpus}
    xb = {b["name"]: b for b in got["buffers"]}
    bufs = []
    for b in model["buffers"]:
        if b["name"] in dropped:
            continue
        nb = dict(b)
        src = xb.get(rename.get(b["name"], b["name"]))
        if "origin" not in nb and src is not None and b["name"] in rename:
            nb["origin"] = src["origin"]
        bufs.append(nb)
    have = {b["name"]: b for b in bufs}
    for x in got["buffers"]:
        n = to_bundled.get(x["name"], x["name"])
        if n in have:
            kept = have[n]
            if any(kept.get(k) != x.get(k) for k in ("scope", "shape", "dtype")) or \
                    (n not in rename and kept.get("layout") != x.get("layout")):
                raise ValueError(f"extracted buffer {x['name']} would be written as the bundled {n}, which differs")
            continue
        bufs.append(_rename(dict(x, name=n), to_bundled))
    out = dict(model)
    out["format"] = 2
    out["buffers"] = bufs
    out["ops"] = [_rename(o, to_bundled) for o in got["ops"]]
    src = dict(model.get("source", {}))
    src["commit"] = got["source"]["commit"]
    src["notes"] = (f"Ops and the buffers without a corpus record extracted by tirx-verify extract "
                    f"(tools/extract/compare_models.py --replace) from {got['source']['files'][0]} at "
                    f"{got['source']['commit'][:7]}, {how}; every buffer and op resolved; every op of the "
                    "hand-written model this replaces has an identical extracted op (tools/extract/compare_ops.py, "
                    "docs/extract.md).")
    out["source"] = src
    if model.get("notes"):
        out["notes"] = (f"Ops extracted from the kernel source ({how}; source.notes), a superset of those of the "
                        f"hand-written model they replace, which read: {model['notes']}")
    ordered = {"format": 2}
    ordered.update({k: v for k, v in out.items() if k != "format"})
    return ordered
