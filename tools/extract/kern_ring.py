"""kern's `K.RingState`: a (stage, phase) cursor of a software ring, as kern defines it.

The kern DSL (`import tirx_kernels.kern as K`) re-exports `RingState` from its own module
kern/ring.py (mlc-ai/TIRx-kernels 51a6c01, kern/__init__.py `from .ring import RingState`;
ring.py lines 9-39), a `@T.meta_class` class:

    RingState(depth, phase=0, *, stage=0, stride=1)   depth a positive int, 1 <= stride <= depth
                                                      (ValueError otherwise); `stage`, `phase` are
                                                      uint32 local scalars set by init(stage, phase)
    init(stage=0, phase=0)                            stage, phase = stage, phase
    advance()                                         stage += stride; if stage >= depth:
                                                      stage -= depth, phase ^= 1

With stage 0 and stride 1 this is exactly TVM's PipelineState(depth, phase) (tvm_classes.PipeState:
advance() is stage + 1, back to 0 at depth with phase ^ 1; depth 1 flips the phase only, as
`0 + 1 >= 1` does here), so such a ring is a PipeState and shares its per-warp copies, staleness
rules and loop handling.  A ring with another initial stage or stride is refused, and a ring's
`init()` makes it stale (kernel_walk.state_call), with the reason: PipelineState's advance has no
stride and its init() no stage.
"""
from __future__ import annotations

import ast

from corpus_notation import ConvertError

import tvm_classes

PARAMS = ("depth", "phase")
KEYWORD_ONLY = ("stage", "stride")


class RingPipe(tvm_classes.PipeState):
    """A K.RingState with stage 0 and stride 1 (PipelineState's semantics, module docstring)."""
    ring = True


def _int(v, what: str, node) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ConvertError(f"{ast.unparse(node)!r}: RingState {what} {v!r} is not an integer the source fixes")
    return v


def construct(ev, node: ast.Call):
    """The value of `K.RingState(...)` (module docstring); ConvertError for what is not followed."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        raise ConvertError(f"{ast.unparse(node)!r}: RingState arguments through * / **")
    if len(node.args) > len(PARAMS):
        raise ConvertError(f"{ast.unparse(node)!r}: RingState(depth, phase=0, *, stage=0, stride=1) takes at most "
                           "two positional arguments")
    vals = {p: ev.value(a) for p, a in zip(PARAMS, node.args)}
    for k in node.keywords:
        if k.arg not in PARAMS + KEYWORD_ONLY or k.arg in vals:
            raise ConvertError(f"{ast.unparse(node)!r}: RingState has no parameter {k.arg!r} (or it is given twice)")
        vals[k.arg] = ev.value(k.value)
    if "depth" not in vals:
        raise ConvertError(f"{ast.unparse(node)!r}: RingState without a depth")
    depth = _int(vals["depth"], "depth", node)
    stride = _int(vals.get("stride", 1), "stride", node)
    stage = _int(vals.get("stage", 0), "stage", node)
    phase = _int(vals.get("phase", 0), "phase", node)
    if depth < 1:
        raise ConvertError(f"{ast.unparse(node)!r}: ring depth must be a positive integer (kern raises ValueError)")
    if not 1 <= stride <= depth:
        raise ConvertError(f"{ast.unparse(node)!r}: ring stride must be in [1, {depth}] (kern raises ValueError)")
    if stride != 1 or stage != 0:
        raise ConvertError(f"{ast.unparse(node)!r}: a RingState with stride {stride} / initial stage {stage} is not "
                           "followed (only stage 0, stride 1: PipelineState's cursor)")
    # init(stage, phase) casts both to uint32 (ring.py init)
    return RingPipe(depth, phase & 0xFFFFFFFF, node.lineno, "unset")
