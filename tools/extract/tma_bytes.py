"""Tensor maps whose elements or addressing differ from the buffer's: the box found byte by byte.

Three forms of cuTensorMapEncodeTiled that the row-major, same-dtype path of instr_ops.py refuses:

* a map dtype wider than the buffer's (nvfp4_gemm's SFA/SFB maps: "uint16" over uint8 scale
  factors, lines 400-443 at 92240d6): the map moves the same bytes in 2-byte elements.  The map is
  modelled as written (dtype uint16): kernel.tma-layout compares per piece of the smaller element
  (src/kernel/checks/tma_layout.cpp: "Element sizes may differ ... when one divides the other"),
  so no view of the buffer is invented.  Accepted when the map's element is a whole number (>= 1)
  of the buffer's 8-bit-or-wider elements;
* a global buffer whose layout is not row-major (the same SFA_in / SFB_in, declared with
  layout=sf_smem_layout(...)): the storage the map addresses is the layout's;
* force_cu_dtype 11 = CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 (cuda.h's CUtensorMapDataType, counting
  from UINT8 = 0: TFLOAT32 is the 12th), which TVM sets only for a float32 buffer (apache/tvm 5d4dc87
  python/tvm/backend/cuda/tile_primitive/copy_async/tma.py:405-411): 4-byte elements at the same
  bytes.  The map is modelled with dtype float32 (the placement is exact; the TMA's rounding of
  the values to tf32 is no layout matter and is said in the op's notes).

The box's global elements: every box element's byte sum_d (coords_d + j_d) stride_d (stride_0 =
the map's element size; cuTensorMapEncodeTiled's addressing), split into pieces of the buffer's
element size, each of which must be the first byte of one element of the buffer (its layout's
storage, byte_addr.element_bits).  Those elements must be exactly a box of the buffer: that box
is the op's `global` region.  Box elements outside the map's dims are not moved (zero fill on a
load, clipped on a store: docs/model-format.md "Conventions"): `in_bounds` gives the part inside,
which both regions then name.
"""
from __future__ import annotations

import math

from corpus_notation import DTYPE_BITS
from kernel_env import ConvertError

TFLOAT32 = 11  # CU_TENSOR_MAP_DATA_TYPE_TFLOAT32 (cuda.h CUtensorMapDataType)
MAX_PIECES = 1 << 20


def map_dtype(dtype: str, force_cu_dtype: int | None, buf) -> tuple[str, str | None]:
    """(the map's modelled dtype, a note) or ConvertError when the map's elements do not fit the buffer's."""
    note = None
    if force_cu_dtype is not None and force_cu_dtype != -1:
        if force_cu_dtype != TFLOAT32 or dtype != "float32":
            raise ConvertError(f"force_cu_dtype {force_cu_dtype} over a {dtype} map is not modelled (only 11, "
                               "TFLOAT32, over float32, as TVM sets it)")
        note = ("force_cu_dtype 11 (CU_TENSOR_MAP_DATA_TYPE_TFLOAT32): 4-byte elements at the float32 bytes; the "
                "TMA rounds the values to tf32, which is not modelled")
    if dtype == buf.dtype:
        return dtype, note
    mb, bb = DTYPE_BITS.get(dtype), DTYPE_BITS.get(buf.dtype)
    if mb is None or bb is None or bb < 8 or mb % bb:
        raise ConvertError(f"the map's dtype {dtype} is not its buffer's {buf.dtype} (and not a whole number of "
                           "its elements)")
    return dtype, note


def wholly_outside(tm, coords) -> bool:
    """True when the box at coords has no element inside the map's dims (some dimension starts at
    or past its extent, or ends at or before 0): a load then reads nothing and fills the box."""
    return any(c >= n or c + b <= 0 for c, b, n in zip(coords, tm.box, tm.dims))


def in_bounds(tm, coords) -> list[int]:
    """The box's extent per dimension inside the map's dims (the box starts at coords)."""
    out = []
    for d, (c, b, n) in enumerate(zip(coords, tm.box, tm.dims)):
        if c < 0:
            raise ConvertError(f"the box at {list(coords)} starts before dimension {d} of the map (a negative "
                               "coordinate is not modelled)")
        if c >= n:
            raise ConvertError(f"the box at {list(coords)} lies outside dimension {d} of the map ({n}): it moves "
                               "nothing")
        out.append(min(b, n - c))
    return out


def global_region(tm, coords, box, b) -> str:
    """The buffer box holding the bytes of the map's box elements at coords (extents `box`)."""
    import byte_addr
    mbytes = DTYPE_BITS[tm.dtype] // 8
    bbytes = DTYPE_BITS[b.dtype] // 8
    per = mbytes // bbytes
    count = math.prod(box)
    if count * per > MAX_PIECES:
        raise ConvertError(f"a box of {count * per} {b.dtype} elements, more than the {MAX_PIECES} mapped one by one")
    strides = [mbytes] + list(tm.strides)
    offs = [getattr(tm, "base", 0)]  # the map's globalAddress, bytes into b (base_offset_bytes)
    for d in range(len(box)):
        offs = [o + (coords[d] + j) * strides[d] for j in range(box[d]) for o in offs]
    fwd, _back = byte_addr.element_bits(b)
    got = set()
    for o in offs:
        for k in range(per):
            e = fwd.get(8 * (o + k * bbytes))
            if e is None:
                raise ConvertError(f"byte {o + k * bbytes} of the map's box is the start of no element of {b.name} "
                                   f"(its layout {b.layout})")
            got.add(e)
    if len(got) != count * per:
        raise ConvertError("the map's box names some elements twice (overlapping strides)")
    lo = [min(e[i] for e in got) for i in range(len(b.shape))]
    hi = [max(e[i] for e in got) + 1 for i in range(len(b.shape))]
    if math.prod(h - l for l, h in zip(lo, hi)) != len(got):
        raise ConvertError(f"the box's elements are not a box of {b.name} {tuple(b.shape)} (the map's dims "
                           f"{tm.dims} view it with other strides)")
    idx = [":" if (l, h) == (0, n) else f"{l}:{h}" for l, h, n in zip(lo, hi, b.shape)]
    return f"{b.name}[{', '.join(idx)}]"
