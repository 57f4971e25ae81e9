"""TVM's compile-time shared-memory descriptor fold (the descriptor without its address), modelled.

A kernel may build the constant part of a tcgen05 shared-memory (matrix) descriptor on the host with
`encode_smem_descriptor_base_uint64(ldo, sdo, swizzle)` imported from `tvm.backend.cuda.cpp.descriptors`
and OR the address in at run time (sm100_fp8_fp4_gemm_1d1d 92240d6 kernel.py:339-341, then
`_with_smem_addr(_u64_const(BASE), addr)` at 1000-1003).  The helper is TVM's, not the kernel
repository's, so the extraction does not read it; its number is computed here when every argument is
static, as TVM computes it (apache/tvm 5d4dc87 python/tvm/backend/cuda/cpp/descriptors.py:754-771):

    desc  = (int(ldo) & 0x3FFF) << 16          leading dimension byte offset, 16-byte units
    desc |= (int(sdo) & 0x3FFF) << 32          stride dimension byte offset, 16-byte units
    desc |= 1 << 46                            version (the fixed 0b001)
    desc |= _SMEM_DESC_LAYOUT_TYPE[int(swizzle)] << 61   (descriptors.py:608)
    _SMEM_DESC_LAYOUT_TYPE = {0: 0, 1: 6, 2: 4, 3: 2, 4: 1}  swizzle enum 0 none, 1 32B, 2 64B,
                                               3 128B, 4 128B_base32B -> layout type code

Where the fields land is PTX ISA 9.1 §9.7.16.4.1 ("Shared memory descriptor", Table 40 for
tcgen05): bits 13..0 start address >> 4 (left 0 here: the address is the run-time part), 29..16 LBO,
45..32 SBO, 48..46 the fixed constant 0b001, 51..49 base offset (0), 52 LBO mode (0), 63..61 the
swizzle mode (0 none, 1 128B with 32-byte atoms, 2 128B, 4 64B, 6 32B) -- the table
tmem_cp.RawDesc decodes when the number is used with an address ORed in.

TVM masks ldo / sdo to their 14 bits without complaint; that is its number, so it is the number here
too (the model then holds the masked offset, which kernel.mma-descriptor checks against the layout).
A swizzle enum outside TVM's table raises in TVM (a KeyError) and is refused here; an argument the
source does not fix (a runtime value, a non-integer) is refused with its name.
"""
from __future__ import annotations

from corpus_notation import ConvertError

MODULE = "tvm.backend.cuda.cpp.descriptors"
NAME = "encode_smem_descriptor_base_uint64"
PARAMS = ("ldo", "sdo", "swizzle")
FIELD = 0x3FFF
# descriptors.py:608 `_SMEM_DESC_LAYOUT_TYPE`
LAYOUT_TYPE = {0: 0, 1: 6, 2: 4, 3: 2, 4: 1}


def handles(imported) -> bool:
    return imported.module == MODULE and imported.name == NAME


def _int(v, k: str) -> int:
    v = getattr(v, "value", v)  # an IntEnum member (SwizzleMode) reads as int(), as TVM's int(swizzle)
    if isinstance(v, bool) or not isinstance(v, int):
        raise ConvertError(f"{NAME}: {k} = {v!r} is not an integer the source fixes")
    return v


def base(args: list, kwargs: dict, line: int) -> int:
    """The number encode_smem_descriptor_base_uint64(*args, **kwargs) returns."""
    import idesc_fold
    vals = idesc_fold.bind_args(args, kwargs, NAME, PARAMS, {})  # the call's arguments by name
    missing = [k for k in PARAMS if k not in vals]
    if missing:
        raise ConvertError(f"{NAME} without {', '.join(missing)} (line {line})")
    ldo, sdo, swz = (_int(vals[k], k) for k in PARAMS)
    if swz not in LAYOUT_TYPE:
        raise ConvertError(f"{NAME}: swizzle = {swz} is not one of TVM's swizzle enums 0..4 (its helper raises; "
                           "descriptors.py:608, 770)")
    desc = (ldo & FIELD) << 16
    desc |= (sdo & FIELD) << 32
    desc |= 1 << 46
    desc |= (LAYOUT_TYPE[swz] & 0x7) << 61
    return desc & 0xFFFFFFFFFFFFFFFF
