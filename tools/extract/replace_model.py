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
own (replacing hand-written ops would need an op-by-op comparison, which is not made).
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
        return "the bundled model has ops of its own (no op-by-op comparison is made)"
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
