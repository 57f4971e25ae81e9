"""A shared buffer whose layout is TVM's mma_shared_layout of its own shape, written another way.

A descriptor offset (instr_ops.offset_ptr) walks the bytes of an operand laid out by
`mma_shared_layout(dtype, SWIZZLE_xB_ATOM, shape)` (its atom order is what the offset arithmetic
follows).  A view derived from such a buffer may have that very layout without its text:
sparse_prefill_head64_phase1's `k_nope.rearrange("b r (dc h ci) -> b (h r) (dc ci)", dc=4, h=2,
ci=64)` of a (3, 64, 512) 128B-swizzled operand is `ComposeLayout(3, 3, 3, S[(3,2,64,4,64):
(32768,4096,64,8192,1)])`, and `mma_shared_layout("bfloat16", SWIZZLE_128B_ATOM, (3, 128, 256))` is
`ComposeLayout(3, 3, 3, S[(3,128,4,64):(32768,64,8192,1)])`: the iters (2, 4096) (64, 64) are the one
iter (128, 64).  `mode(buf)` says which swizzle mode's mma_shared_layout of the buffer's shape and
dtype is the same layout -- the same swizzle and offset, and the same memory offset for every element
(compared element by element, both expanded by `tirx-verify print`) -- or None.  Only layouts on the
memory axis alone, without replicas, of at most MAX_ELEMENTS elements are compared.
"""
from __future__ import annotations

import math

MODES = ("SWIZZLE_128B_ATOM", "SWIZZLE_64B_ATOM", "SWIZZLE_32B_ATOM")
MAX_ELEMENTS = 1 << 20


def _offsets(lay, n: int):
    """The memory offset of every element, row-major, or None (other axes, replicas, another size)."""
    if lay.replica or any(ax != "m" for _e, _s, ax in lay.shard) or set(lay.offset) - {"m"}:
        return None
    if math.prod(e for e, _s, _a in lay.shard) != n:
        return None
    offs = [lay.offset.get("m", 0)]
    for e, s, _a in lay.shard:  # outermost first: each iter is less significant than the ones before
        offs = [o + k * s for o in offs for k in range(e)]
    return offs


def mode(buf) -> str | None:
    import layout_text
    from kernel_env import ConvertError
    n = math.prod(buf.shape)
    if n > MAX_ELEMENTS or not isinstance(buf.layout, str):
        return None
    try:
        mine = layout_text.parse(buf.layout)
    except ConvertError:
        return None
    got = _offsets(mine, n)
    if got is None or mine.swizzle is None:
        return None
    for m in MODES:
        try:
            ref = layout_text.parse(f'mma_shared_layout("{buf.dtype}", SwizzleMode.{m}, {tuple(buf.shape)})')
        except ConvertError:
            continue
        if ref.swizzle == mine.swizzle and _offsets(ref, n) == got:
            return m
    return None
