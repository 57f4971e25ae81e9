"""Op-by-op comparison of a bundled model with an extraction of its kernel (compare_models.py).

A bundled model's hand-written ops name the corpus's buffers (`D_smem/mma_AB`: the corpus name
and the constructor that implied it) or hand-written per-warpgroup copies (`reg.wg0`); the
extraction names a buffer like the kernel does (`D_smem`, one `reg` for both warpgroups, the op's
`warps` telling them apart).  So the comparison first maps every buffer a bundled op names to an
extracted buffer: the bundled name without its `/constructor[/n]` and `.wgN` suffixes, which
must have the same scope, shape and dtype and an equivalent layout (`tirx-verify equiv`, as the
buffer comparison does).  Then each op is normalised -- `name`, `origin`, `notes` dropped; every
region renamed through the map; an index range that is the whole dimension written `:`, a region
that is the whole buffer written as its name; the instruction-level default `accumulate: true`
of `tcgen05.mma` and `trans: false` of ldmatrix / stmatrix filled in -- and the bundled ops must be a sub-multiset of the extracted ones:
every bundled op has an extracted op with identical fields.
"""
from __future__ import annotations

import collections
import json
import re

REGION = re.compile(r"^([A-Za-z_][\w./]*)(?:\[(.*)\])?$")
SKIP = {"name", "origin", "notes"}


def base(name: str) -> str:
    name = name.split("/", 1)[0]
    return re.sub(r"\.wg\d+$", "", name)


def referenced(model: dict) -> set:
    names = {b["name"] for b in model["buffers"]}
    out = set()

    def walk(v):
        if isinstance(v, str):
            m = REGION.match(v)
            if m and m.group(1) in names:
                out.add(m.group(1))
        elif isinstance(v, dict):
            for k, x in v.items():
                if k not in SKIP:
                    walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    for o in model.get("ops", []):
        walk(o)
    return out


def name_map(model: dict, got: dict, equiv) -> tuple[dict, list]:
    """{bundled buffer: extracted buffer} for every buffer a bundled op names, and the problems
    (a bundled buffer with no extracted counterpart of the same scope, shape, dtype and layout)."""
    xb = {b["name"]: b for b in got["buffers"]}
    bb = {b["name"]: b for b in model["buffers"]}
    out, problems = {}, []
    for n in sorted(referenced(model)):
        b, x = bb[n], xb.get(base(n))
        if x is None:
            problems.append(f"{n}: no extracted buffer {base(n)}")
            continue
        d = [f"{k} {b.get(k)} vs {x.get(k)}" for k in ("scope", "shape", "dtype") if b.get(k) != x.get(k)]
        if not d and b["layout"] != x["layout"] and equiv(b["layout"], x["layout"]) is not True:
            d.append(f"layout {b['layout']} vs {x['layout']}")
        if d:
            problems.append(f"{n} vs {x['name']}: " + "; ".join(d))
        else:
            out[n] = x["name"]
    return out, problems


def _region(text: str, rename: dict, shapes: dict) -> str:
    m = REGION.match(text)
    if not m or (m.group(1) not in rename and m.group(1) not in shapes):
        return text
    name = rename.get(m.group(1), m.group(1))
    if m.group(2) is None:
        return name
    shape = shapes.get(name)
    parts = [p.strip() for p in m.group(2).split(",")]
    if shape is not None and len(parts) == len(shape):
        for i, p in enumerate(parts):
            lo, sep, hi = p.partition(":")
            if sep and (lo or "0") == "0" and (hi or str(shape[i])) == str(shape[i]):
                parts[i] = ":"
        if all(p == ":" for p in parts):
            return name
    return f"{name}[{', '.join(parts)}]"


def normalise(op: dict, rename: dict, shapes: dict) -> str:
    def walk(v):
        if isinstance(v, str):
            return _region(v, rename, shapes)
        if isinstance(v, dict):
            return {k: walk(x) for k, x in sorted(v.items()) if k not in SKIP}
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v
    o = walk(op)
    if o.get("kind") == "tcgen05.mma":
        o.setdefault("accumulate", True)
    if o.get("kind") in ("ldmatrix", "stmatrix"):
        o.setdefault("trans", False)  # the format's default (docs/model-format.md)
    return json.dumps(o, sort_keys=True)


def compare(model: dict, got: dict, equiv) -> dict:
    """{map, problems, unmatched: [bundled op names], matched, extra: extracted ops beyond them}."""
    rename, problems = name_map(model, got, equiv)
    shapes = {b["name"]: b["shape"] for b in got["buffers"]}
    have = collections.Counter(normalise(o, {}, shapes) for o in got["ops"])
    unmatched, matched = [], 0
    for o in model.get("ops", []):
        k = normalise(o, rename, shapes)
        if have[k] > 0:
            have[k] -= 1
            matched += 1
        else:
            unmatched.append(o["name"])
    return {"map": rename, "problems": problems, "unmatched": unmatched, "matched": matched,
            "extra": sum(have.values())}
