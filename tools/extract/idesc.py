"""The 32-bit tcgen05.mma instruction descriptor given as a number, decoded field by field.

A kernel may pass the instruction descriptor as a literal (`T.uint32(136314896)`), as a name bound
to one, or as an expression of constants.  The number is a fact of the source; its fields are
fixed by PTX ISA 9.1 §9.7.16.4.2 ("Instruction descriptor"), so decoding it guesses nothing.

Dense kinds (.kind::f16 / tf32 / f8f6f4 / i8), Table "Instruction descriptor format for .kind::tf32,
.kind::f16, .kind::f8f6f4 and .kind::i8":

    bits   field                              bits   field
    0-1    sparsity selector                  13     negate A
    2      sparsity (0 dense, 1 sparse)       14     negate B
    3      saturate (i8 only)                 15     transpose A (0 = K-major)
    4-5    D type: 0 F16, 1 F32, 2 S32        16     transpose B (0 = K-major)
    6      reserved                           17-22  N >> 3
    7-9    A type                             23     reserved
    10-12  B type                             24-28  M >> 4
                                              29     reserved
                                              30-31  maximum shift (.ws only)

A/B type by kind: f16 0 F16, 1 BF16; tf32 2 TF32; f8f6f4 0 E4M3, 1 E5M2, 3 E2M3, 4 E3M2, 5 E2M1;
i8 0 unsigned, 1 signed.

Block-scaled kinds (.kind::mxf8f6f4 / mxf4 / mxf4nvf4), Table "Instruction descriptor format for
.kind::mxf8f6f4, .kind::mxf4 and .kind::mxf4nvf4": bits 0-1 reserved, 2 sparsity, 3 reserved,
4-5 SFB_ID, 6 reserved, 7-9 / 10-12 A / B type (mxf8f6f4 as f8f6f4 above; mxf4 and mxf4nvf4:
1 E2M1), 13/14 negate, 15/16 transpose, 17-22 N >> 3, 23 scale type (0 UE4M3, 1 UE8M0), 24-26
reserved, 27-28 M >> 7, 29-30 SFA_ID, 31 reserved.  (M >> 7 in bits 27-28 is M >> 4 in bits 24-28
with bits 24-26 zero, which is how TVM's encoder writes it: apache/tvm 5d4dc87
python/tvm/backend/cuda/cpp/descriptors.py:421-449 `m_dim_ = (M >> 4)`.)

The same module models TVM's `T.cuda.runtime_instr_desc(address_of(desc), sf_id)`, which rewrites
both SF ids of a block-scaled descriptor in place: `desc = (desc & ~0x60000030) | (sf_id << 29) |
(sf_id << 4)` (descriptors.py:550-556).

What the model format has no field for (negate, saturate, sparsity, a maximum shift) is refused
with the field's name, never dropped.
"""
from __future__ import annotations

DENSE_KINDS = ("f16", "tf32", "f8f6f4", "i8")
BLOCK_KINDS = ("mxf8f6f4", "mxf4", "mxf4nvf4")
MMA_K = {"f16": 16, "tf32": 8, "f8f6f4": 32, "i8": 32, "mxf8f6f4": 32, "mxf4": 64, "mxf4nvf4": 64}

D_TYPE = {0: "float16", 1: "float32", 2: "int32"}
# TF32 operands are written "float32" in the model (the loader's dtype set; mma_kind tf32 carries
# the TF32 fact), as the bundled tf32_hc_prenorm_gemm model does.
AB_TYPE = {
    "f16": {0: "float16", 1: "bfloat16"},
    "tf32": {2: "float32"},
    "f8f6f4": {0: "float8_e4m3fn", 1: "float8_e5m2", 3: "float6_e2m3fn", 4: "float6_e3m2fn", 5: "float4_e2m1fn"},
    "i8": {0: "uint8", 1: "int8"},
    "mxf8f6f4": {0: "float8_e4m3fn", 1: "float8_e5m2", 3: "float6_e2m3fn", 4: "float6_e3m2fn", 5: "float4_e2m1fn"},
    "mxf4": {1: "float4_e2m1fn"},
    "mxf4nvf4": {1: "float4_e2m1fn"},
}
SCALE_TYPE = {0: "float8_e4m3fn", 1: "float8_e8m0fnu"}
SF_ID_MASK = 0x60000030


class IdescError(ValueError):
    """The number is not a descriptor the instruction (or the model format) can have."""


def bits(v: int, lo: int, n: int) -> int:
    return (v >> lo) & ((1 << n) - 1)


def decode(value: int, kind: str, line: int) -> dict:
    """The fields of instruction descriptor `value` for `.kind::kind`, as instr_ops' encoder
    bindings hold them: d/a/b dtypes, m, n, k (the kind's K), a_major / b_major, and for the
    block-scaled kinds sfa_id / sfb_id and the scale dtype.  `cta_group` is None: the number does
    not carry it (the instruction's `.cta_group` does).  Raises IdescError naming the field."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < 1 << 32:
        raise IdescError(f"{value!r} is not a 32-bit instruction descriptor")
    if kind not in MMA_K:
        raise IdescError(f".kind::{kind} has no instruction descriptor table here")
    block = kind in BLOCK_KINDS
    out = {"raw": value, "line": line, "cta_group": None, "k": MMA_K[kind], "kind": kind}
    if bits(value, 2, 1):
        raise IdescError(f"descriptor {value:#010x}: bit 2 (sparsity) is set; sparse tcgen05.mma is not modelled")
    for b, name in ((13, "negate A"), (14, "negate B")):
        if bits(value, b, 1):
            raise IdescError(f"descriptor {value:#010x}: bit {b} ({name}) is set, which the model format has no "
                             "field for")
    if block:
        reserved = [(0, 2), (3, 1), (6, 1), (24, 3), (31, 1)]
    else:
        reserved = [(6, 1), (23, 1), (29, 1)]
        if bits(value, 0, 2):
            raise IdescError(f"descriptor {value:#010x}: bits 0-1 (sparsity selector) are {bits(value, 0, 2)} in a "
                             "dense descriptor")
        if bits(value, 3, 1):
            raise IdescError(f"descriptor {value:#010x}: bit 3 (saturate) is set, which the model format has no "
                             "field for")
        if bits(value, 30, 2):
            raise IdescError(f"descriptor {value:#010x}: bits 30-31 (maximum shift, .ws) are {bits(value, 30, 2)}, "
                             "which the model format has no field for")
    for lo, n in reserved:
        if bits(value, lo, n):
            raise IdescError(f"descriptor {value:#010x}: reserved bit(s) {lo}-{lo + n - 1} are set")
    a, b = bits(value, 7, 3), bits(value, 10, 3)
    types = AB_TYPE[kind]
    if a not in types or b not in types:
        raise IdescError(f"descriptor {value:#010x}: A/B type codes {a}/{b} are not .kind::{kind}'s "
                         f"({', '.join(f'{k} {v}' for k, v in types.items())})")
    out["a_dtype"], out["b_dtype"] = types[a], types[b]
    if block:
        out["d_dtype"] = "float32"
        out["sfb_id"], out["sfa_id"] = bits(value, 4, 2), bits(value, 29, 2)
        out["scale_dtype"] = SCALE_TYPE[bits(value, 23, 1)]
    else:
        d = bits(value, 4, 2)
        if d not in D_TYPE:
            raise IdescError(f"descriptor {value:#010x}: D type code {d} is not F16/F32/S32")
        out["d_dtype"] = D_TYPE[d]
    out["a_major"] = "MN" if bits(value, 15, 1) else "K"
    out["b_major"] = "MN" if bits(value, 16, 1) else "K"
    out["n"] = bits(value, 17, 6) << 3
    out["m"] = bits(value, 24, 5) << 4
    if out["n"] == 0 or out["m"] == 0:
        raise IdescError(f"descriptor {value:#010x}: M = {out['m']}, N = {out['n']}")
    return out


def with_sf_id(desc: dict, sf_id: int) -> dict:
    """TVM's runtime_instr_desc on a block-scaled descriptor binding: both SF ids become sf_id
    (descriptors.py:550-556; the value is masked to the 2-bit fields as the C expression does)."""
    if isinstance(sf_id, bool) or not isinstance(sf_id, int):
        raise IdescError(f"the SF id {sf_id!r} is not an integer")
    if not 0 <= sf_id <= 3:
        raise IdescError(f"the SF id {sf_id} does not fit the 2-bit SFA_ID / SFB_ID fields")
    out = dict(desc, sfa_id=sf_id, sfb_id=sf_id)
    if "raw" in out:
        out["raw"] = (out["raw"] & ~SF_ID_MASK & 0xFFFFFFFF) | (sf_id << 29) | (sf_id << 4)
    return out
