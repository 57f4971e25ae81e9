"""tcgen05.cp: a shared-memory matrix copied into TMEM, and the descriptor arithmetic kernels use
to point a shared-memory descriptor at the copy's source.

Descriptor arithmetic.  Kernels re-point one descriptor at each source by replacing its 14-bit
start-address field (bits 13..0, the shared address >> 4; PTX ISA §9.7.16.4.1):

    T.bitwise_or(T.bitwise_and(desc, T.bitwise_not(T.uint64(0x3FFF))),
                 T.cast(T.bitwise_and(T.shift_right(T.cuda.cvta_generic_to_shared(ptr), T.uint32(4)),
                                      T.uint32(0x3FFF)), "uint64"))

(fp8_blockwise_gemm's `_replace_smem_desc_addr`, nvfp4_gemm inline).  Each step is a value here:
`cvta_generic_to_shared(p)` of an element address (`X.ptr_to([...])`, `T.ptr_byte_offset(p, n, dt)`)
is a SharedAddr; `>> 4` and `& 0x3FFF` of it the StartField (the mask keeps the whole field: a
shared address is below 2^18 on sm_100, whose window is at most 228 KiB); `desc & ~0x3FFF` a
descriptor without its start; `|` of the two a descriptor with that start.  The other fields (LBO,
SBO, swizzle) are the descriptor's own (its encode_matrix_descriptor / SmemDescriptor.init
arguments, instr_ops.py).  Anything else (another mask, a shift other than 4) is not one of these
values and stays what the evaluator makes of it.

tcgen05.cp.cta_group::G.SHAPE(taddr, desc) (PTX ISA 9.1 §9.7.16.9.2; operand order as TVM's PTX
table).  The op gets `shape`, `cta_group`, `warps` (the issuing warps; one elected thread issues
it), `taddr` (tmem_ops.py addresses) and `src_desc` (start = the pointer, `offset_bytes` = its byte
offset).  Its `smem` and `tmem` regions are derived only where the source fixes them exactly:

  * .128x256b / .128x128b (source row r -> lane L0 + r; include/tirx_verify/hw/tcgen05_cp.hpp),
    a descriptor without swizzle, K-major: byte b of row r is read from start + (r // 8) SBO +
    (r % 8) 16 + (b // 16) LBO + b % 16 (hw::SmemDescriptor::chunk_address);
  * a shared buffer of 32-bit elements whose layout is a plain strided TileLayout
    `S[(e..):(s..)]` (no thread axes, no swizzle): the bytes read are mapped back to its elements,
    which must be a box in (row, byte) order;
  * a plain 32-bit lane x column TMEM buffer (tmem_ops.py): lanes L0 .. L0 + 127, columns C0 ..
    C0 + W / 32.

Every other source or destination (the scale-factor layouts `sf_smem_layout` / `sf_tmem_layout`,
`.unpack(4).broadcast(4)` views) and the replicating .32x128b.warpx4 / .64x128b.warpx2 shapes:
cp_regions.py (from the layouts' element images).  A swizzled source: cp_swizzle.py (where the
source's alignment fixes the swizzle's phase).  .4x256b leaves the op unresolved naming which part
is not derived.
"""
from __future__ import annotations

import ast
import re

from corpus_notation import dotted
from kernel_env import BufferRef, ConvertError, Evaluator, UnresolvedError

FIELD = 0x3FFF
SHAPES = {"128x256b": (128, 256), "128x128b": (128, 128), "4x256b": (4, 256), "32x128b.warpx4": (32, 128),
          "64x128b.warpx2::02_13": (64, 128), "64x128b.warpx2::01_23": (64, 128)}
_STRIDED = re.compile(r"^S\[\(([\d,]+)\):\(([\d,]+)\)\]$")
_STRIDED1 = re.compile(r"^S\[(\d+):(\d+)\]$")
MAX_BYTES = 1 << 16


class SmemPtr:
    """An element address plus a byte offset (`T.ptr_byte_offset(p, n, dtype)`)."""

    def __init__(self, ptr, nbytes: int):
        self.ptr, self.nbytes = ptr, nbytes


class SharedAddr(SmemPtr):
    """`cvta_generic_to_shared(p)`: the shared-window address of p (+ nbytes)."""

    def __rshift__(self, k):
        if k != 4:
            raise ConvertError(f"a shared address >> {k}: only >> 4 (the descriptor's 16-byte units) is modelled")
        return StartField(self.ptr, self.nbytes)


def _units(k, what: str) -> int:
    if not _int(k):
        raise ConvertError(f"{what} + {k!r}: only a number of 16-byte units is modelled")
    return 16 * k


class StartField(SmemPtr):
    """(address >> 4) & 0x3FFF: the descriptor's start-address field for that address.

    `field + k` (k 16-byte units; flash_attention_backward's `anchor_start + byte_delta // 16`) is
    the field of the address 16 k bytes on: address >> 4 + k = (address + 16 k) >> 4, and with no
    carry out of the 14 bits as long as that address is below 2^18, which every shared address is
    (the sm_100 window is at most 228 KiB).  The new address must still name an element of a
    shared buffer when the descriptor is used (instr_ops.offset_ptr / byte_addr.py refuse
    anything else), so an address past shared memory is never taken."""

    def __and__(self, k):
        if k != FIELD:
            raise ConvertError(f"the start field & {k:#x}: only & 0x3FFF (the whole field) is modelled")
        return self

    __rand__ = __and__

    def __add__(self, k):
        import named_offset
        f = StartField(self.ptr, self.nbytes + _units(k, "a start field"))
        f.toward = named_offset.toward(k) or getattr(self, "toward", None)
        return f

    __radd__ = __add__


class DescNoStart:
    """desc & ~0x3FFF: a descriptor whose start field is cleared."""

    def __init__(self, desc):
        self.desc = desc

    def __or__(self, f):
        if not isinstance(f, StartField):
            raise ConvertError("a descriptor without its start field | something that is not a start field")
        d = DescWithStart(self.desc, f.ptr, f.nbytes)
        d.toward = getattr(f, "toward", None)
        return d

    __ror__ = __or__


class RawDesc:
    """A descriptor given as a number whose start field (bits 13..0) is zero: its other fields decoded
    (PTX ISA 9.1 §9.7.16.4.1 Table 40, Blackwell: LBO bits 29..16, SBO 45..32 in 16-byte units,
    the fixed version 0b001 in 48..46, base offset 51..49, LBO mode 52, swizzle 63..61: 0 none,
    1 128B with 32-byte atoms, 2 128B, 4 64B, 6 32B).  Kernels build it as
    `T.bitwise_or(T.shift_left(T.uint64(HI), T.uint64(32)), start)` (mqa_logits_fp4's
    recompute_fp4_smem_desc)."""

    SWIZZLE = {0: "none", 1: "128B_base32B", 2: "128B", 4: "64B", 6: "32B"}

    def __init__(self, v: int):
        if v & FIELD or v >> 64:
            raise ConvertError(f"the descriptor bits {v:#x} have a start field or are wider than 64 bits")
        bad = v & ((0x3 << 14) | (0x3 << 30) | (0xFF << 53))
        if bad:
            raise ConvertError(f"the descriptor {v:#x} sets reserved bits {bad:#x}")
        if (v >> 46) & 7 != 1:
            raise ConvertError(f"the descriptor {v:#x}: bits 48..46 are {(v >> 46) & 7}, not the fixed 0b001 of a "
                               "tcgen05 descriptor")
        if (v >> 52) & 1:
            raise ConvertError(f"the descriptor {v:#x}: LBO mode 1 (an absolute address) is not modelled")
        swz = (v >> 61) & 7
        if swz not in self.SWIZZLE:
            raise ConvertError(f"the descriptor {v:#x}: swizzle code {swz} is invalid")
        self.v = v
        self.fields = {"lbo_bytes": ((v >> 16) & FIELD) * 16, "sbo_bytes": ((v >> 32) & FIELD) * 16,
                       "swizzle": self.SWIZZLE[swz], "base_offset": (v >> 49) & 7, "major": "K"}


class DescWithStart:
    """A descriptor re-pointed at ptr + nbytes; the other fields are desc's.  `desc + k` adds k to
    the start field (bits 13..0, 16-byte units: the descriptor 16 k bytes on), for the same reason
    as StartField + k: no carry reaches bit 14 while the address stays in shared memory."""

    def __init__(self, desc, ptr, nbytes: int):
        self.desc, self.ptr, self.nbytes = desc, ptr, nbytes

    def __add__(self, k):
        d = DescWithStart(self.desc, self.ptr, self.nbytes + _units(k, "a descriptor"))
        d.toward = getattr(self, "toward", None)
        return d

    __radd__ = __add__

    def key(self):
        return ("desc", id(self.desc), self.ptr.buf.name, self.ptr.coords, self.nbytes)


def _is_desc(v) -> bool:
    import instr_ops
    import tvm_classes
    return isinstance(v, (instr_ops.SmemDescDeferred, tvm_classes.SmemDescObj))


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def eval_call(ev, node: ast.Call, short: str, not_handled):
    """The steps of the descriptor arithmetic (module docstring); not_handled otherwise."""
    from fragments import Ptr
    if short not in ("ptr_byte_offset", "cvta_generic_to_shared", "shift_right", "bitwise_and", "bitwise_or",
                     "bitwise_not", "cast", "reinterpret_cast"):
        return not_handled
    try:
        args = [ev.value(a) for a in node.args]
    except UnresolvedError:
        if short == "ptr_byte_offset":
            raise  # the byte count depends on an unresolved value: that value is the reason
        return not_handled
    except ConvertError:
        return not_handled
    if short == "ptr_byte_offset" and len(args) == 3 and _int(args[1]):
        p = args[0]
        if isinstance(p, Ptr):
            return SmemPtr(p, args[1])
        if type(p) is SmemPtr:
            return SmemPtr(p.ptr, p.nbytes + args[1])
    if short == "cvta_generic_to_shared" and len(args) == 1:
        p = args[0]
        if isinstance(p, Ptr):
            return SharedAddr(p, 0)
        if type(p) is SmemPtr:
            return SharedAddr(p.ptr, p.nbytes)
    if short == "shift_right" and len(args) == 2 and isinstance(args[0], SharedAddr) and _int(args[1]):
        return args[0] >> args[1]
    if short == "bitwise_not" and len(args) == 1 and _int(args[0]):
        # the complement at the operand's width, when the source gives it (T.uint64(0x3FFF))
        a0 = node.args[0]
        width = {"uint64": 64, "uint32": 32}.get((dotted(a0.func) or "").split(".")[-1]) \
            if isinstance(a0, ast.Call) else None
        if width is None:
            return not_handled
        return ~args[0] & ((1 << width) - 1)
    if short == "bitwise_and" and len(args) == 2:
        a, b = args
        if _is_desc(b) and _int(a):
            a, b = b, a
        if _is_desc(a) and _int(b):
            if b & FIELD or (b | FIELD) != 0xFFFFFFFFFFFFFFFF:
                raise ConvertError(f"a descriptor & {b:#x}: only & ~0x3FFF (clearing the start field) is modelled")
            return DescNoStart(a)
        if isinstance(a, StartField) and _int(b):
            return a & b
        if isinstance(b, StartField) and _int(a):
            return b & a
    if short == "bitwise_or" and len(args) == 2:
        a, b = args
        if _int(b) and isinstance(a, StartField):
            a, b = b, a
        if _int(a) and isinstance(b, StartField) and not a & FIELD:
            d = DescWithStart(RawDesc(a), b.ptr, b.nbytes)
            d.toward = getattr(b, "toward", None)
            return d
        if isinstance(a, DescNoStart) and isinstance(b, StartField):
            return a | b
        if isinstance(b, DescNoStart) and isinstance(a, StartField):
            return b | a
    if short in ("cast", "reinterpret_cast") and args and isinstance(args[0], (StartField, DescWithStart)):
        return args[0]
    return not_handled


# -- the op ------------------------------------------------------------------------------------


def _fields(d, what: str) -> dict:
    """LBO / SBO / swizzle of a descriptor object (its encode / init call, evaluated where it was)."""
    import instr_ops
    import tvm_classes
    if isinstance(d, RawDesc):
        return dict(d.fields)
    if isinstance(d, tvm_classes.SmemDescObj):
        if d.encoded is None:
            raise ConvertError(f"the {what} SmemDescriptor (line {d.line}) is used before its init()")
        d = d.encoded
    if not isinstance(d, instr_ops.SmemDescDeferred):
        raise ConvertError(f"the {what} descriptor is not one encode_matrix_descriptor / init built in this file")
    c, f = d.call, d.first
    e = Evaluator(d.env)
    ldo = e.as_int(instr_ops._arg(c, f + 1, "ldo"))
    sdo = e.as_int(instr_ops._arg(c, f + 2, "sdo"))
    swz = e.as_int(instr_ops._arg(c, f + 3, "swizzle"))
    if swz not in instr_ops.DESC_SWIZZLE or swz == 4:
        raise ConvertError(f"descriptor swizzle {swz} is not modelled")
    return {"lbo_bytes": 16 * ldo, "sbo_bytes": 16 * sdo, "swizzle": instr_ops.DESC_SWIZZLE[swz], "base_offset": 0,
            "major": "K"}


def _src(v, what: str):
    """(pointer, byte offset, model descriptor) of the source descriptor value."""
    import instr_ops
    if isinstance(v, DescWithStart):
        fields = _fields(v.desc, what)
        start = {"start": instr_ops.ptr_text(v.ptr)}
        if v.nbytes:
            start["offset_bytes"] = v.nbytes
        return v.ptr, v.nbytes, {**start, **fields}
    d = instr_ops._desc(v, what)
    return d["ptr"], 0, d["desc"]


def _strided(buf: BufferRef):
    """(extents, strides) of a plain strided layout of buf, in elements; else None."""
    lay = buf.layout or ""
    m = _STRIDED.match(lay)
    if m:
        ext = [int(x) for x in m.group(1).split(",")]
        st = [int(x) for x in m.group(2).split(",")]
        return (ext, st) if len(ext) == len(st) else None
    m = _STRIDED1.match(lay)
    return ([int(m.group(1))], [int(m.group(2))]) if m else None


def _element_bytes(buf: BufferRef, esz: int) -> dict:
    """{byte offset of the element's first byte: logical coordinates} over the whole buffer."""
    import math
    es = _strided(buf)
    if es is None:
        raise ConvertError(f"the source buffer {buf.name}'s layout {buf.layout} is not a plain strided layout, so "
                           "which of its elements the copied bytes hold is not derived here")
    ext, st = es
    n = math.prod(buf.shape)
    if math.prod(ext) != n or n > MAX_BYTES:
        raise ConvertError(f"the source buffer {buf.name} has {n} elements, more than the {MAX_BYTES} mapped here"
                           if n > MAX_BYTES else f"{buf.name}'s layout does not match its shape")
    out = {}
    for flat in range(n):
        off, rem = 0, flat
        for e, s in zip(reversed(ext), reversed(st)):
            rem, d = divmod(rem, e)
            off += d * s
        coords, rem = [], flat
        for e in reversed(buf.shape):
            rem, d = divmod(rem, e)
            coords.insert(0, d)
        if off * esz in out:
            raise ConvertError(f"two elements of {buf.name} share byte {off * esz}")
        out[off * esz] = tuple(coords)
    return out


def _box(coords: list, shape) -> str | None:
    """The region text when `coords` (in order) are exactly a box of the buffer in row-major order."""
    import itertools
    lo = [min(c[d] for c in coords) for d in range(len(shape))]
    hi = [max(c[d] for c in coords) + 1 for d in range(len(shape))]
    box = list(itertools.product(*[range(a, b) for a, b in zip(lo, hi)]))
    if box != coords:
        return None
    return ", ".join(":" if (a, b) == (0, n) else (str(a) if b == a + 1 else f"{a}:{b}")
                     for a, b, n in zip(lo, hi, shape))


def cp_ops(call: ast.Call, text: str, env, ex) -> list[dict]:
    import instr_ops
    import tmem_ops
    m = re.match(r"tcgen05\.cp\.cta_group::([12])\.(.+)$", text)
    if not m or m.group(2) not in SHAPES:
        raise ConvertError(f"{text!r}: not a tcgen05.cp form the model has (shapes {', '.join(SHAPES)}; the "
                           "decompressing .b8x16 forms are not modelled)")
    group, shape = int(m.group(1)), m.group(2)
    rows, bits = SHAPES[shape]
    if len(call.args) != 2:
        raise ConvertError("tcgen05.cp takes (taddr, s_desc)")
    ws = ex.executing_warps()
    if ws is None:
        raise ConvertError("tcgen05.cp is issued by a warp's thread, and no thread index fixes the CTA's warps")
    per = instr_ops.per_warp(lambda e: (tmem_ops._taddr(e.value(call.args[0]), "the address"),
                                        e.value(call.args[1])), env, ws)
    out = []
    for warps, (t, dv) in instr_ops.group_warps(per):
        ptr, nbytes, desc = _src(dv, "source")
        op = {"kind": "tcgen05.cp", "warps": warps, "cta_group": group, "shape": shape, "src_desc": desc,
              "taddr": {"lane": t.lane, "col": t.col}}
        import tmem_nesting
        tmem_nesting.begin(ex)
        op["smem"], op["tmem"], why = _regions(ptr, nbytes, desc, shape, rows, bits, t, env, ex, call.lineno)
        tmem_nesting.mark(op, ex)
        op["notes"] = why
        out.append(op)
    return out


def _regions(ptr, nbytes, desc, shape, rows, bits, t, env, ex, line=0):
    """The plain .128x* case here; the replicating shapes and other layouts: cp_regions.py; a
    swizzled descriptor: cp_swizzle.py."""
    import cp_regions
    if desc["swizzle"] != "none":
        import cp_swizzle
        return cp_swizzle.regions(ptr, nbytes, desc, shape, rows, bits, t, env, ex, line)
    if shape not in ("128x256b", "128x128b"):
        return cp_regions.regions(ptr, nbytes, desc, shape, rows, bits, t, env, ex, line)
    try:
        return _plain_regions(ptr, nbytes, desc, shape, rows, bits, t, env, ex)
    except ConvertError as plain:
        try:
            return cp_regions.regions(ptr, nbytes, desc, shape, rows, bits, t, env, ex, line)
        except ConvertError as other:
            raise ConvertError(f"{plain}; from the layouts' images: {other}") from None


def _plain_regions(ptr, nbytes, desc, shape, rows, bits, t, env, ex):
    import tmem_ops
    from instr_ops import DTYPE_BYTES
    if desc["swizzle"] != "none":
        raise ConvertError(f"a {desc['swizzle']}-swizzled source: the bytes it reads depend on the absolute "
                           "address, which the extraction does not place")
    buf = ptr.buf
    esz = DTYPE_BYTES.get(buf.dtype)
    if esz != 4:
        raise ConvertError(f"the source buffer {buf.name} is {buf.dtype}: only 32-bit elements (one per TMEM "
                           "column) are mapped to TMEM cells here")
    where = _element_bytes(buf, esz)
    inv = {c: b for b, c in where.items()}
    base = inv[tuple(ptr.coords)] + nbytes
    coords = []
    for r in range(rows):
        for byte in range(0, bits // 8, esz):
            a = base + (r // 8) * desc["sbo_bytes"] + (r % 8) * 16 + (byte // 16) * desc["lbo_bytes"] + byte % 16
            if a not in where:
                raise ConvertError(f"source row {r} byte {byte} is byte {a} of {buf.name}, which no element starts "
                                   "at (or outside it)")
            coords.append(where[a])
    box = _box(coords, buf.shape)
    if box is None:
        raise ConvertError(f"the elements of {buf.name} the copy reads are not a box in (row, byte) order")
    cols = bits // 32
    tbuf, why = tmem_ops.named_buffer(t, t.col, t.col + cols, env, ex, form="tcgen05.cp")
    tmem = tmem_ops.tmem_box(tbuf, (t.lane, t.lane + rows), (t.col, t.col + cols), "the copy")
    return f"{buf.name}[{box}]", tmem, (f"{why}; source row r byte b at {buf.name} byte start + (r // 8) SBO + "
                                        "(r % 8) 16 + (b // 16) LBO + b % 16 (K-major, no swizzle), to lane "
                                        "taddr.lane + r, column taddr.col + b / 4 (PTX ISA §9.7.16.9.2)")
