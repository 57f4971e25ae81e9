"""The constant bounds of a region text, as the extraction writes regions (`NAME[0:128, :, 3]`).

One reader for the modules that need a region's numbers back from its text (reg_copy.py: a
register copy's shared region; tma_fields.py: whether a TMA box runs past its tensor).

Python 3 standard library only.
"""
from __future__ import annotations

import re

_UNSIGNED = (re.compile(r"(\d+):(\d+)"), re.compile(r"\d+"))
_SIGNED = (re.compile(r"(-?\d+):(-?\d+)"), re.compile(r"-?\d+"))


def bounds(text: str, shape, signed: bool = False) -> list | None:
    """[(lo, hi)] per dimension of the region text NAME[...] over a buffer of `shape` (elements,
    hi exclusive; `:` is the whole dimension, `i` is i..i+1; NAME alone is the whole buffer); None
    when a dimension is not a constant range or the rank differs.  `signed`: bounds may be negative
    (a TMA box's start before its tensor); else a negative bound is not a range (None)."""
    if "[" not in text:
        return [(0, d) for d in shape]
    parts = [p.strip() for p in text[text.index("[") + 1:-1].split(",")]
    if len(parts) != len(shape):
        return None
    rng, one = _SIGNED if signed else _UNSIGNED
    out = []
    for p, d in zip(parts, shape):
        if p == ":":
            out.append((0, d))
        elif (m := rng.fullmatch(p)) is not None:
            out.append((int(m.group(1)), int(m.group(2))))
        elif one.fullmatch(p):
            out.append((int(p), int(p) + 1))
        else:
            return None
    return out
