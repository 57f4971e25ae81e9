"""Bounds on the values the static evaluator (kernel_env.Evaluator) builds.

A kernel file is hostile input: `N = 2**2**2**2**2**2`, `'a' * 10**10` or a string doubled
forty times would make Python compute for minutes and allocate gigabytes before any limit of
the extraction is reached. No kernel needs such values (a model's extents, strides and offsets
are below 2**63, docs/model-format.md), so the evaluator refuses them before computing:

    value                          bound                     past it
    integer                        MAX_INT_BITS bits         ValueTooLarge ("value too large")
    str / tuple / list / bytes     MAX_ITEMS elements        ValueTooLarge
    comprehension items            MAX_STEPS per extraction  ValueTooLarge ("too much work")

`binop` predicts the size of `a OP b` from its operands (for **, <<, * of a sequence) and
raises before computing; `check` bounds any value once it exists. ValueTooLarge is a
ConvertError, so the name being defined becomes Unresolved with the reason (never a guess),
and only what depends on it is blocked. Python 3 standard library only.
"""
from __future__ import annotations

import ast
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus"))

from corpus_notation import ConvertError  # noqa: E402

MAX_INT_BITS = 256
MAX_ITEMS = 1_000_000

OPS = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
       ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b, ast.LShift: lambda a, b: a << b,
       ast.RShift: lambda a, b: a >> b, ast.Pow: lambda a, b: a ** b}
SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%", ast.LShift: "<<",
          ast.RShift: ">>", ast.Pow: "**"}
SEQUENCES = (str, bytes, tuple, list)


MAX_STEPS = 1_000_000  # comprehension items evaluated in one extraction (nested ones multiply)
_steps = [0]


class ValueTooLarge(ConvertError):
    pass


def reset() -> None:
    """Start of an extraction: the step count starts again."""
    _steps[0] = 0


def step() -> None:
    """One comprehension item evaluated; past MAX_STEPS in the extraction, ValueTooLarge."""
    _steps[0] += 1
    if _steps[0] > MAX_STEPS:
        raise ValueTooLarge(f"too much work: more than {MAX_STEPS} comprehension items evaluated statically in "
                            "this file (nested comprehensions multiply)")


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def too_large_int(what: str) -> ValueTooLarge:
    return ValueTooLarge(f"value too large: {what} is an integer of more than {MAX_INT_BITS} bits (no kernel "
                         "extent, stride or offset is that large)")


def check(v):
    """`v` itself, or ValueTooLarge when it is past the bounds."""
    if _int(v) and v.bit_length() > MAX_INT_BITS:
        raise too_large_int("the value")
    if isinstance(v, SEQUENCES) and len(v) > MAX_ITEMS:
        raise ValueTooLarge(f"value too large: a {type(v).__name__} of {len(v)} elements (more than "
                            f"{MAX_ITEMS})")
    return v


def binop(op, a, b):
    """`a OP b` for an arithmetic ast operator, refused (ValueTooLarge) when the result would be
    past the bounds; other errors are Python's own (TypeError, ZeroDivisionError...)."""
    sym = SYMBOL[type(op)]
    if isinstance(op, ast.Pow) and _int(a) and _int(b) and b > 0 and abs(a) > 1:
        if (b.bit_length() > 32) or b * (abs(a).bit_length() - 1) > MAX_INT_BITS:
            raise too_large_int(f"{_short(a)} ** {_short(b)}")
    elif isinstance(op, ast.LShift) and _int(a) and _int(b) and a != 0 and b > 0:
        if a.bit_length() + b > MAX_INT_BITS:
            raise too_large_int(f"{_short(a)} << {_short(b)}")
    elif isinstance(op, ast.Mult):
        seq, n = (a, b) if isinstance(a, SEQUENCES) else (b, a)
        if isinstance(seq, SEQUENCES) and _int(n) and n > 0 and len(seq) * n > MAX_ITEMS:
            raise ValueTooLarge(f"value too large: a {type(seq).__name__} of {len(seq)} elements repeated "
                                f"{_short(n)} times (more than {MAX_ITEMS} elements)")
    elif isinstance(op, ast.Add) and isinstance(a, SEQUENCES) and isinstance(b, SEQUENCES):
        if len(a) + len(b) > MAX_ITEMS:
            raise ValueTooLarge(f"value too large: joining {len(a)} and {len(b)} elements (more than "
                                f"{MAX_ITEMS})")
    r = OPS[type(op)](a, b)
    if _int(r) and r.bit_length() > MAX_INT_BITS:
        raise too_large_int(f"{_short(a)} {sym} {_short(b)}")
    return r


def _short(v) -> str:
    """A number for a message: digits when short, else its size."""
    if _int(v) and v.bit_length() > 64:
        return f"(a {v.bit_length()}-bit integer)"
    if isinstance(v, SEQUENCES):
        return f"(a {type(v).__name__} of {len(v)})"
    return repr(v) if _int(v) else "a value"
