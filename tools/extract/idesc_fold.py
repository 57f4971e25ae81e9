"""TVM's compile-time instruction descriptor fold, modelled from its arguments.

A kernel may build the 32-bit tcgen05.mma instruction descriptor on the host with
`encode_instr_descriptor_dense_uint32(M, N, K, d_dtype, a_dtype, b_dtype, trans_a, trans_b,
cta_group=1, neg_a=False, neg_b=False, sat_d=False, is_sparse=False)` imported from
`tvm.backend.cuda.cpp.descriptors` (sparse_atten_fwd 51a6c01 lines 214-222), and pass the number as
a literal (`T.uint32(...)`).  The helper is TVM's, not the kernel repository's, so the extraction
does not read it; its result is modelled here when every argument is static.

What each argument means is TVM's (apache/tvm python/tvm/backend/cuda/cpp/descriptors.py,
`encode_instr_descriptor_dense_uint32`, "Compile-time fold of
codegen_cuda_tcgen05_encode_instr_descriptor"): M, N, K the MMA shape, d/a/b the accumulator and
operand dtypes (TVM dtype names), trans_a / trans_b the operands' transpose (MN-major) flags,
cta_group the CTA group (it validates the shape only; the number has no field for it), neg_a /
neg_b / sat_d / is_sparse the negate, saturate and sparsity flags.  Where each lands is the
hardware's bit layout, PTX ISA 9.1 §9.7.16.4.2 ("Instruction descriptor", the dense table for
.kind::tf32 / f16 / f8f6f4 / i8; idesc.py decodes the same table):

    bit 2      sparsity            <- is_sparse
    bit 3      saturate            <- sat_d
    bits 4-5   D type              <- d_dtype (0 F16, 1 F32, 2 S32)
    bits 7-9   A type              <- a_dtype (code of the kind's table, idesc.AB_TYPE)
    bits 10-12 B type              <- b_dtype
    bit 13/14  negate A / B        <- neg_a / neg_b
    bit 15/16  transpose A / B     <- trans_a / trans_b
    bits 17-22 N >> 3              <- N
    bits 24-28 M >> 4              <- M
    bits 0-1, 6, 23, 29-31         0 (the helper writes nothing there: dense, no .ws shift)

The kind (which A/B type table applies) follows from the dtypes as the instruction's kinds are
defined (PTX ISA §9.7.16.10 "tcgen05.mma": kind::f16 f16/bf16 operands, f16/f32 D; tf32 tf32
operands, f32 D; f8f6f4 e4m3/e5m2/e2m3/e3m2/e2m1 operands, f16/f32 D; i8 u8/s8 operands, s32 D).
K is not in the number: it must be the kind's K (idesc.MMA_K), and M/N must be a shape of the
cta_group (PTX ISA §9.7.16.10.1 matrix shapes), as TVM's helper checks and raises otherwise; a
combination that would raise is refused here, never encoded.  A value the source does not fix, or
a dtype name outside these tables (e.g. float8_e4m3fnuz, which PTX has no type for), is refused
with the reason.  The number goes on as an integer: idesc.decode reads it at the MMA, which also
refuses the fields the model format has no room for (negate, saturate, sparsity).

The block-scaled fold `encode_instr_descriptor_block_scaled_uint32(M, N, K, d_dtype, a_dtype, b_dtype,
sf_dtype, trans_a, trans_b, cta_group=1, neg_a=False, neg_b=False, is_sparse=False)` (descriptors.py
at 5d4dc87, lines 698-751; sm100_fp8_fp4_gemm_1d1d 92240d6 kernel.py:342-353) is modelled the same
way: the kind is the first of TVM's rules (`_TCGEN05_MMA_RULES`, descriptors.py:118-184, with scale
factors) that the dtypes match -- mxf4 (E2M1 operands, E8M0 scales), mxf4nvf4 (E2M1, E4M3 scales),
mxf8f6f4 (the FP8/FP6/FP4 family, E8M0 scales), D float32 in each; the shape is checked by TVM's
table (descriptors.py:209-216, 244-279: cta_group 1 M 128 N a multiple of 8, cta_group 2 M 128 / 256
N a multiple of 16, N <= 256, K 32 for mxf8f6f4 and 64 for mxf4 / mxf4nvf4), a transposed operand
must be FP8 (`_check_instr_desc_trans`, descriptors.py:230-241 and 614-619); mxf8f6f4 takes the A/B
codes of the dtypes, mxf4 / mxf4nvf4 write 1 for both (descriptors.py:738-743); the bits are the
shared ones above (sparsity 2, A 7-9, B 10-12, negate 13/14, transpose 15/16, N >> 3 at 17-22,
M >> 4 at 24-28: `_instr_desc_common_bits`, descriptors.py:622-641) plus the scale type at bit 23
(0 E4M3, 1 E8M0: `_INSTR_DESC_SF_FORMAT_MAP`, descriptors.py:600-604); the SF ids stay 0.  The
number is read at the MMA by idesc.decode's block-scaled table (PTX ISA 9.1 §9.7.16.4.2).
"""
from __future__ import annotations

from corpus_notation import ConvertError
import idesc

MODULE = "tvm.backend.cuda.cpp.descriptors"
DENSE = "encode_instr_descriptor_dense_uint32"
PARAMS = ("M", "N", "K", "d_dtype", "a_dtype", "b_dtype", "trans_a", "trans_b", "cta_group", "neg_a", "neg_b",
          "sat_d", "is_sparse")
DEFAULTS = {"cta_group": 1, "neg_a": False, "neg_b": False, "sat_d": False, "is_sparse": False}

D_CODE = {"float16": 0, "float32": 1, "int32": 2}
# operand dtype names (TVM's) -> (kind, A/B type code); tf32 is spelled tensor_float32 or tf32
OPERAND = {"float16": ("f16", 0), "bfloat16": ("f16", 1), "tensor_float32": ("tf32", 2), "tf32": ("tf32", 2),
           "float8_e4m3fn": ("f8f6f4", 0), "float8_e5m2": ("f8f6f4", 1), "float6_e2m3fn": ("f8f6f4", 3),
           "float6_e3m2fn": ("f8f6f4", 4), "float4_e2m1fn": ("f8f6f4", 5), "uint8": ("i8", 0), "int8": ("i8", 1)}
KIND_D = {"f16": ("float16", "float32"), "tf32": ("float32",), "f8f6f4": ("float16", "float32"), "i8": ("int32",)}


BLOCK = "encode_instr_descriptor_block_scaled_uint32"
BLOCK_PARAMS = ("M", "N", "K", "d_dtype", "a_dtype", "b_dtype", "sf_dtype", "trans_a", "trans_b", "cta_group",
                "neg_a", "neg_b", "is_sparse")
BLOCK_DEFAULTS = {"cta_group": 1, "neg_a": False, "neg_b": False, "is_sparse": False}
FP8_FAMILY = ("float8_e4m3fn", "float8_e5m2", "float6_e2m3fn", "float6_e3m2fn", "float4_e2m1fn")
# (kind, operand dtypes, scale dtypes), in TVM's rule order (descriptors.py:164-183)
BLOCK_RULES = (("mxf4", ("float4_e2m1fn",), ("float8_e8m0fnu",)),
               ("mxf4nvf4", ("float4_e2m1fn",), ("float8_e4m3fn",)),
               ("mxf8f6f4", FP8_FAMILY, ("float8_e8m0fnu",)))
SF_CODE = {"float8_e4m3fn": 0, "float8_e8m0fnu": 1}
TRANS_OK = ("float8_e4m3fn", "float8_e5m2", "int8", "uint8", "float16", "bfloat16", "tensor_float32", "tf32")


def handles(imported) -> bool:
    return imported.module == MODULE and imported.name in (DENSE, BLOCK)


def bind_args(args: list, kwargs: dict, name=DENSE, params=PARAMS, defaults=DEFAULTS) -> dict:
    """A folded TVM helper's call arguments by parameter name, its defaults filled in (refused:
    too many, unknown or repeated)."""
    if len(args) > len(params):
        raise ConvertError(f"{name} takes at most {len(params)} arguments")
    vals = dict(zip(params, args))
    for k, v in kwargs.items():
        if k not in params or k in vals:
            raise ConvertError(f"{name}: argument {k!r} is not one of its parameters (or given twice)")
        vals[k] = v
    for k, v in defaults.items():
        vals.setdefault(k, v)
    missing = [k for k in params if k not in vals]
    if missing:
        raise ConvertError(f"{name} without {', '.join(missing)}")
    return vals


def _int(vals, k) -> int:
    v = vals[k]
    if isinstance(v, bool) or not isinstance(v, int):
        raise ConvertError(f"{DENSE}: {k} = {v!r} is not an integer the source fixes")
    return v


def _flag(vals, k) -> int:
    v = vals[k]
    if not isinstance(v, (bool, int)) or v not in (0, 1):
        raise ConvertError(f"{DENSE}: {k} = {v!r} is not a flag the source fixes")
    return int(v)


def _dtype(vals, k) -> str:
    v = vals[k]
    v = getattr(v, "dtype", v)  # TVM's _dtype_name: a DataType or an object holding one reads as its name
    if not isinstance(v, str):
        raise ConvertError(f"{DENSE}: {k} = {v!r} is not a dtype name the source fixes")
    return v


def _check_shape(kind: str, cta_group: int, m: int, n: int, k: int) -> None:
    if k != idesc.MMA_K[kind]:
        raise ConvertError(f"{DENSE}: K = {k}, but a dense .kind::{kind} MMA has K = {idesc.MMA_K[kind]} "
                           "(TVM's helper raises)")
    ms = {1: (64, 128), 2: (128, 256)}.get(cta_group)
    if ms is None:
        raise ConvertError(f"{DENSE}: cta_group = {cta_group} (1 or 2)")
    step = 8 if (cta_group, m) == (1, 64) else 16
    lo = 8 if cta_group == 1 else 32
    if m not in ms or not (lo <= n <= 256 and n % step == 0):
        raise ConvertError(f"{DENSE}: M = {m}, N = {n} is not a cta_group::{cta_group} shape (M in {ms}, N a "
                           f"multiple of {step} in {lo}..256; TVM's helper raises)")


def dense(args: list, kwargs: dict, line: int) -> int:
    """The descriptor number encode_instr_descriptor_dense_uint32(*args, **kwargs) returns."""
    vals = bind_args(args, kwargs)
    m, n, k, cg = (_int(vals, x) for x in ("M", "N", "K", "cta_group"))
    d, a, b = (_dtype(vals, x) for x in ("d_dtype", "a_dtype", "b_dtype"))
    if a not in OPERAND or b not in OPERAND:
        bad = a if a not in OPERAND else b
        raise ConvertError(f"{DENSE}: operand dtype {bad!r} has no A/B type code of a dense kind here")
    kind, a_code = OPERAND[a]
    kind_b, b_code = OPERAND[b]
    if kind_b != kind:
        raise ConvertError(f"{DENSE}: A {a} and B {b} are of different kinds ({kind}, {kind_b})")
    if d not in KIND_D[kind]:
        raise ConvertError(f"{DENSE}: D {d} is not a .kind::{kind} accumulator type ({', '.join(KIND_D[kind])})")
    _check_shape(kind, cg, m, n, k)
    desc = (_flag(vals, "is_sparse") << 2) | (_flag(vals, "sat_d") << 3) | (D_CODE[d] << 4)
    desc |= (a_code << 7) | (b_code << 10)
    desc |= (_flag(vals, "neg_a") << 13) | (_flag(vals, "neg_b") << 14)
    desc |= (_flag(vals, "trans_a") << 15) | (_flag(vals, "trans_b") << 16)
    desc |= ((n >> 3) << 17) | ((m >> 4) << 24)
    return desc


def fold(name: str, args: list, kwargs: dict, line: int) -> int:
    """The number TVM's fold `name` (dense or block-scaled) returns for these arguments."""
    return block_scaled(args, kwargs, line) if name == BLOCK else dense(args, kwargs, line)


def block_scaled(args: list, kwargs: dict, line: int) -> int:
    """The descriptor number encode_instr_descriptor_block_scaled_uint32(*args, **kwargs) returns."""
    vals = bind_args(args, kwargs, BLOCK, BLOCK_PARAMS, BLOCK_DEFAULTS)
    m, n, k, cg = (_int(vals, x) for x in ("M", "N", "K", "cta_group"))
    d, a, b, sf = (_dtype(vals, x) for x in ("d_dtype", "a_dtype", "b_dtype", "sf_dtype"))
    fnuz = next((x for x in (a, b, sf) if x == "float8_e4m3fnuz"), None)
    if fnuz:  # TVM encodes it as E4M3 (descriptors.py:588, 602); PTX has no such type, the model none
        raise ConvertError(f"{BLOCK}: {fnuz} (TVM encodes it as E4M3; PTX has no such type, so the model "
                           "has no dtype to decode it as)")
    kind = next((kd for kd, ops, sfs in BLOCK_RULES if d == "float32" and a in ops and b in ops and sf in sfs),
                None)
    if kind is None:
        raise ConvertError(f"{BLOCK}: d {d}, a {a}, b {b}, sf {sf} match no block-scaled kind (mxf4, mxf4nvf4, "
                           "mxf8f6f4; TVM's helper raises)")
    is_sparse = _flag(vals, "is_sparse")
    if is_sparse:
        raise ConvertError(f"{BLOCK}: is_sparse = True (a sparse MMA is not modelled)")
    steps = {1: {128: 8}, 2: {128: 16, 256: 16}}.get(cg)
    if steps is None or m not in steps or not (steps[m] <= n <= 256 and n % steps[m] == 0):
        raise ConvertError(f"{BLOCK}: M = {m}, N = {n} is not a cta_group::{cg} .kind::{kind} shape (TVM's helper "
                           "raises)")
    if k != idesc.MMA_K[kind]:
        raise ConvertError(f"{BLOCK}: K = {k}, but a .kind::{kind} MMA has K = {idesc.MMA_K[kind]} "
                           "(TVM's helper raises)")
    ta, tb = _flag(vals, "trans_a"), _flag(vals, "trans_b")
    for t, dt, w in ((ta, a, "a"), (tb, b, "b")):
        if t and dt not in TRANS_OK:
            raise ConvertError(f"{BLOCK}: trans_{w} with {w}_dtype {dt} (only FP8 / 16-bit / TF32 / 8-bit integer "
                               "operands may be MN-major; TVM's helper raises)")
    a_code, b_code = (OPERAND[a][1], OPERAND[b][1]) if kind == "mxf8f6f4" else (1, 1)
    desc = (is_sparse << 2) | (a_code << 7) | (b_code << 10)
    desc |= (_flag(vals, "neg_a") << 13) | (_flag(vals, "neg_b") << 14) | (ta << 15) | (tb << 16)
    desc |= (((n >> 3) & 0x3F) << 17) | (((m >> 4) & 0x1F) << 24)
    desc |= (SF_CODE[sf] & 1) << 23
    return desc & 0xFFFFFFFF
