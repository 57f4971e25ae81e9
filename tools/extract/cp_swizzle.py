"""A tcgen05.cp from a swizzled shared-memory descriptor: which bytes it reads, where the source's
alignment fixes the swizzle's phase.

tmem_cp.py / cp_regions.py read a tcgen05.cp through a descriptor without swizzle.  With an
S-byte swizzle (S = 32, 64, 128) the copy reads K-major rows of S bytes, 8 rows to an atom:
row r, byte b of the copy is the shared byte

    swz(start + (r // 8) SBO + (r % 8) S + b)         (b < S, K-major; LBO unused)

(PTX ISA 9.1 §9.7.16.3.3 canonical K-major layouts, /work/shared/spec/ptx_semantics.md "LBO /
SBO meaning" and the layout table; the same formula as hw::SmemDescriptor::element_address /
chunk_address, include/tirx_verify/hw/smem_descriptor.hpp, which kernel.mma-descriptor uses),
where swz XORs address bits [4, 4 + B) with bits [7, 7 + B), B = log2(S / 16), of the *absolute*
address (ptx_semantics.md §7.1: 128B `a ^ (((a >> 7) & 7) << 4)`, period 1024 B; 64B period
512 B; 32B period 256 B), with the descriptor's base offset 0 (the pattern starts on a period
boundary: ptx_semantics.md "Base offset").  So the bytes read depend only on the start address
modulo the period P, and they are derived here exactly when the source buffer's address modulo
P is fixed:

  * the source is a buffer (not a view) of a `T.SMEMPool()` that owns its storage (TVM
    alloc_pool.py:409-420: its own `shared.dyn` buffer), and its pool offset is a multiple of
    P: either the offset is known (smem_placement.py) or the buffer was allocated with an
    `align` that P divides -- `alloc` rounds the offset up to align before placing the buffer
    (apache/tvm 5d4dc87 python/tvm/backend/cuda/lang/alloc_pool.py:432-433), and
    `alloc_tcgen05_mma_AB` asks align=1024 (alloc_pool.py:452, 471), so even after a
    `move_base_to` the extraction does not evaluate (sparse_prefill_head64_phase1's q_nope)
    its offset is 0 modulo 1024;
  * the pool's storage starts at shared address 0 modulo P.  That is the model format's
    convention (docs/model-format.md `placement`: the dynamic segment is taken to start at 0),
    not a TVM guarantee: TVM declares the pool `extern __shared__ __align__(A)` with A its
    buffer's data_alignment (codegen_cuda.cc:1666-1674), which is kAllocAlignment = 64 when the
    pool does not ask (buffer.cc:61-62, device_api.h:113).  The assumption is recorded in
    extraction.instance.bindings and in the op's notes.

Then the source buffer's layout (its own swizzle is relative to its first byte, which is now
the hardware's phase) names the element each byte read belongs to (byte_addr.element_bits).
The TMEM side is the elements of the TMEM buffer all of whose cells the copy writes
(cp_regions.py's images); each must come from the bytes of one whole source element of the same
size.  The smem region is then the source buffer itself when the partners, in the TMEM region's
row-major order, are a row-major box of it; otherwise a view `SRC.cp` of the source whose
layout is the source layout's own iters regrouped (the same elements and storage bytes, the iters
reordered; one view per source buffer and source line), in which the partners are a box: the partners'
unswizzled offsets are fitted to strided iters (cp_byte_view.strided_layout), each a sub-range of
one source iter of the same stride (else refused), and the region is checked element by element
against the view.  The region of such a view is fitted to the copy's own pairing, so
kernel.mma-descriptor's pairing check passes it by construction (it still checks the C++
descriptor reading against this module's); what the model gains is the cells (kernel.coverage,
kernel.overlap) and the TMEM buffer the MMA reads.  Whether the pairing is the one the kernel
means (which K column of Q lands in which TMEM column) is not checked.

Refused, each with its reason: the 128B swizzle with 32-byte atoms (its K-major form is invalid:
ptx_semantics.md), a base offset other than 0, a source whose phase is not fixed (a view, a buffer
not from an owning SMEMPool, an offset and alignment that leave it open, a phase other than 0),
bytes that are not whole elements, elements of two sizes.
"""
from __future__ import annotations

import ast
import itertools
import re

from kernel_env import ConvertError

PERIOD = {"32B": 256, "64B": 512, "128B": 1024}
SPAN = {"32B": 32, "64B": 64, "128B": 128}
ASSUMPTION = ("the SMEMPool's storage (the kernel's dynamic shared memory) starts at a shared address that is a "
              "multiple of {p} bytes (the model format's convention: the dynamic segment at address 0; TVM "
              "itself declares it __align__(64) only, codegen_cuda.cc:1666-1674, buffer.cc:61-62), so the "
              "hardware's {s} swizzle of {buf}, which acts on absolute addresses, has the phase of its layout "
              "(cp_swizzle.py; the tcgen05.cp at line {line})")


def hw_swizzle(a: int, swizzle: str) -> int:
    """The S-byte swizzle of a byte address from a period boundary (ptx_semantics.md §7.1)."""
    mask = PERIOD[swizzle] // 128 - 1
    return a ^ (((a >> 7) & mask) << 4)


def phase(buf, period: int, ex) -> tuple[int, str]:
    """(buf's address modulo period, why) under the convention above; refuses when it is not fixed."""
    rec = next((b for b in ex.buffers if b["name"] == buf.name), None)
    if rec is not None and "view_of" in rec:
        raise ConvertError(f"the source {buf.name} is a view of {rec['view_of'].get('buffer')}: where it starts "
                           f"modulo the swizzle period ({period} B) is not derived for views")
    pool = getattr(buf, "smem_pool", None)
    if pool is None or not hasattr(buf, "smem_off"):
        raise ConvertError(f"the source {buf.name} is not allocated from an SMEMPool: its address modulo the "
                           f"swizzle period ({period} B) is not derived")
    if not pool.args.get("_owns"):
        raise ConvertError(f"the source {buf.name} comes from an SMEMPool over a pointer the kernel passes: where "
                           f"that storage starts modulo the swizzle period ({period} B) is not derived")
    off, align = buf.smem_off, getattr(buf, "smem_align", 0)
    if isinstance(off, int):
        return off % period, f"{buf.name} is at byte {off} of the pool"
    if align > 0 and align % period == 0:
        return 0, (f"{buf.name}'s pool offset is not derived ({off}) but is a multiple of its align={align} "
                   "(SMEMPool.alloc rounds up to it, alloc_pool.py:432-433)")
    raise ConvertError(f"the source {buf.name}'s address modulo the swizzle period ({period} B) is not fixed: its "
                       f"pool offset is not derived ({off}) and its align={align} is not a multiple of {period}")


def regions(ptr, nbytes: int, desc: dict, shape: str, rows: int, bits: int, t, env, ex, line: int = 0):
    """(smem REGION, tmem REGION, why) of the copy (module docstring)."""
    import byte_addr
    import cp_regions
    import kernel_env
    import mma_forms
    import tmem_cp
    import tmem_ops
    from corpus_notation import DTYPE_BITS
    swz = desc["swizzle"]
    if swz not in PERIOD:
        raise ConvertError(f"a {swz}-swizzled source: its K-major reading is not modelled (ptx_semantics.md: the "
                           "128B swizzle with 32-byte atoms is invalid for K-major)")
    if desc.get("base_offset", 0):
        raise ConvertError(f"the descriptor's base offset {desc['base_offset']}: only 0 is modelled here")
    cp_regions.row_lanes(shape, 0)
    src = ptr.buf
    if not (src.scope or "").startswith("shared"):
        raise ConvertError(f"the source {src.name} is not a shared-memory buffer ({src.scope})")
    period, span = PERIOD[swz], SPAN[swz]
    ph, where_ph = phase(src, period, ex)
    if ph:
        raise ConvertError(f"the source {src.name} starts {ph} bytes past a {period}-byte boundary ({where_ph}): "
                           f"the hardware's {swz} swizzle (absolute addresses) and its layout's (from its first "
                           "byte) then differ in phase, which is not modelled")
    if bits // 8 > span:
        raise ConvertError(f"a {bits}-bit row is wider than the {swz} swizzle span ({span} B)")
    sbits = DTYPE_BITS.get(src.dtype, 0)
    if sbits < 8 or sbits % 8:
        raise ConvertError(f"the source buffer {src.name} is {src.dtype}: sub-byte elements are not mapped here")
    esz = sbits // 8
    at_bit, back = byte_addr.element_bits(src)   # {storage bit: coords}, the layout's swizzle applied
    inv = {c: b // 8 for c, b in back.items()}
    if tuple(ptr.coords) not in inv:
        raise ConvertError(f"the source pointer {src.name}{list(ptr.coords)} is not an element of the buffer")
    start = inv[tuple(ptr.coords)] + nbytes
    if start % 16:
        raise ConvertError(f"the start address is {start} bytes into {src.name}, not a multiple of 16")

    def read_byte(r: int, b: int) -> int:
        return hw_swizzle(start + (r // 8) * desc["sbo_bytes"] + (r % 8) * span + b, swz)

    tbuf, why = tmem_ops.named_buffer(t, t.col, t.col + bits // 32, env, ex, form="tcgen05.cp")
    tstart = mma_forms.tmem_start(ex, tbuf.name)
    if tstart is None:
        raise ConvertError(f"the TMEM column where {tbuf.name} starts is not in the model")
    tb = DTYPE_BITS.get(tbuf.dtype, 0)
    if tb != sbits:
        raise ConvertError(f"{src.name} is {src.dtype}, {tbuf.name} {tbuf.dtype}: elements of two sizes through a "
                           "swizzled source are not paired here")
    lane_row = {ln: r for r in range(rows) for ln in cp_regions.row_lanes(shape, r)}
    timg = cp_regions._images(tbuf, with_replicas=True)

    def source_of(lane: int, byte: int):
        r = lane_row.get(lane + tstart[0] - t.lane)
        b = byte - (t.col - tstart[1]) * 4
        if r is None or not 0 <= b < bits // 8:
            return None
        return read_byte(r, b)

    T, partners = [], []
    for c, ims in sorted(timg.items()):
        got = None
        for im in ims:
            bs = tuple(source_of(im.get("TLane", 0), im.get("TCol", 0) * esz + k) for k in range(esz))
            if None in bs:
                got = None
                break
            if got is not None and bs != got:
                raise ConvertError(f"element {list(c)} of {tbuf.name}: its images come from different source bytes")
            got = bs
        if got is None:
            continue
        if list(got) != list(range(got[0], got[0] + esz)) or got[0] * 8 not in at_bit:
            raise ConvertError(f"element {list(c)} of {tbuf.name}: its bytes are not one element of {src.name}")
        T.append(c)
        partners.append(at_bit[got[0] * 8])
    if not T:
        raise ConvertError(f"no element of {tbuf.name} lies wholly in the cells the copy writes")
    if len(set(partners)) != len(partners):
        raise ConvertError(f"two elements of {tbuf.name} come from one element of {src.name}")
    read_all = {read_byte(r, b) for r in range(rows) for b in range(bits // 8)}
    if len(read_all) != len(partners) * esz:
        raise ConvertError(f"the copy reads {len(read_all)} bytes of {src.name} but fills {len(partners)} whole "
                           f"elements of {tbuf.name}")
    tbox = tmem_cp._box(T, tbuf.shape)
    if tbox is None:
        raise ConvertError(f"the elements of {tbuf.name} the copy writes are not a box of the buffer")
    assumption = ASSUMPTION.format(p=period, s=swz, buf=src.name, line=line)
    kernel_env.note_convention(assumption, line, 0)
    note = (f"{why}; source row r byte b at {swz}-swizzle(start + (r // 8) SBO + (r % 8) {span} + b) of {src.name} "
            f"(K-major, PTX ISA §9.7.16.3.3; the swizzle's phase: {where_ph}, and {assumption.split(' (cp_')[0]}), "
            f"to lanes {cp_regions._lanes_text(shape)}, column taddr.col + b / 4 (PTX ISA §9.7.16.9.2)")
    sbox = tmem_cp._box(partners, src.shape)
    if sbox is not None:
        return f"{src.name}[{sbox}]", f"{tbuf.name}[{tbox}]", note
    region = _view_region(src, lay_of(src), partners, inv, esz, T, tbuf, line, ex, swz, tbox, assumption)
    return region, f"{tbuf.name}[{tbox}]", (f"{note}; the smem side is {region.split('[')[0]}, a regrouped view "
                                            f"of {src.name} in which the elements read, in the order the copy puts "
                                            f"them in {tbuf.name}, are a box (cp_swizzle.py)")


def lay_of(buf):
    import layout_text
    lay = layout_text.parse(buf.layout)
    if lay.swizzle is None:
        raise ConvertError(f"{buf.name}'s layout is not swizzled, but the descriptor is: not paired here")
    if lay.replica or any(ax != layout_text.MEMORY_AXIS for _e, _s, ax in lay.shard):
        raise ConvertError(f"{buf.name}'s layout has replicas or non-memory axes")
    return lay


def _view_region(src, lay, partners, inv, esz, T, tbuf, line, ex, swz, tbox, assumption) -> str:
    """A REGION of a view of src that is src's own layout iters regrouped (the same elements, the
    same storage bytes: only the order of the iters changes), in which the partners, in order, are
    a box.  The partners' unswizzled offsets (the layout's swizzle is an involution) are fitted
    to strided iters (cp_byte_view.strided_layout); each must be a sub-range of one iter of src's
    layout with the same stride; src's iters no fitted one uses become leading dimensions."""
    import byte_addr
    import cp_byte_view
    from allocators import _emit
    lo = [min(c[d] for c in T) for d in range(len(tbuf.shape))]
    hi = [max(c[d] for c in T) + 1 for d in range(len(tbuf.shape))]
    rshape = tuple(b - a for a, b, n in zip(lo, hi, tbuf.shape) if (a, b) == (0, n) or b != a + 1)
    base = lay.offset.get("m", 0)
    unswz = [byte_addr._swizzle(inv[p] // esz, lay.swizzle) - base for p in partners]
    text = cp_byte_view.strided_layout(rshape, [u - unswz[0] for u in unswz])
    m = re.fullmatch(r"S\[\(([\d,]+)\):\(([\d,]+)\)\]|S\[(\d+):(\d+)\]", text)
    ext = [int(x) for x in (m.group(1) or m.group(3)).split(",")]
    st = [int(x) for x in (m.group(2) or m.group(4)).split(",")]
    src_iters = [(e, s_) for e, s_, _ax in lay.shard if e != 1]
    used, dims = set(), []
    for e, s_ in zip(ext, st):
        k = next((i for i, (E, S) in enumerate(src_iters) if S == s_ and E >= e and i not in used), None)
        if k is None:
            raise ConvertError(f"the elements of {src.name} the copy reads (unswizzled offsets {text}) are not a box "
                               f"of its layout's iters regrouped ({lay.text()})")
        used.add(k)
        dims.append((src_iters[k], e))
    dims = [(it, 1) for i, it in enumerate(src_iters) if i not in used] + dims
    # the first partner's offset in digits of the view's iters (largest stride first)
    digit, rem = {}, unswz[0]
    for i in sorted(range(len(dims)), key=lambda i: -dims[i][0][1]):
        (E, S), e = dims[i]
        digit[i], rem = divmod(rem, S)
        if digit[i] + e > E:
            raise ConvertError(f"the first element the copy reads does not start a box of the regrouped view of "
                               f"{src.name}")
    if rem:
        raise ConvertError(f"the first element the copy reads does not start a box of the regrouped view of {src.name}")
    vshape = tuple(E for (E, _S), _e in dims)
    pe, sb, ss, sinner = lay.swizzle
    inner = "S[(" + ",".join(str(E) for (E, _S), _e in dims) + "):(" + ",".join(str(S) for (_E, S), _e in dims) + ")]"
    if base:
        inner = f"{inner} + {base}"
    vlayout = f"ComposeLayout({pe}, {sb}, {ss}, {inner}" + ("" if sinner else ", swizzle_inner=False") + ")"
    reg = [(digit[i], digit[i] + e) for i, (_it, e) in enumerate(dims)]
    # checked, not assumed: region element j of the view is at partner j's byte
    fwd, back = byte_addr.element_bits(_Buf(vlayout, vshape, src.dtype))
    for j, c in enumerate(itertools.product(*[range(a, b) for a, b in reg])):
        if back[c] // 8 != inv[partners[j]]:
            raise ConvertError(f"the regrouped view {vlayout} of {src.name} does not put region element {list(c)} "
                               f"at byte {inv[partners[j]]}")
    name = f"{src.name}.cp"
    ref = _emit(ex, name, src.scope, vshape, src.dtype, vlayout, line, ast.Constant(name),
                view_of={"buffer": src.name})
    ex.__dict__.setdefault("_cp_views", set()).add(ref.name)  # tmem_nesting.finish drops it with its ops
    b = next(x for x in ex.buffers if x["name"] == ref.name)
    b["origin"] = (f"{ex.current_file()}:{line} a view of {src.name} the kernel does not declare: its layout's iters "
                   f"regrouped so that the elements the tcgen05.cp reads through its {swz}-swizzled descriptor, in "
                   f"the order it puts them in {tbuf.name}, are a box (cp_swizzle.py)")
    b["notes"] = (f"the same elements and storage bytes as {src.name} (its iters {lay.text()}, reordered); the "
                  f"regions of the copies are fitted to the copies' own pairing, so kernel.mma-descriptor passes "
                  f"that pairing by construction; {assumption}")
    return f"{ref.name}[" + ", ".join(str(a) if b_ == a + 1 else (":" if (a, b_) == (0, n) else f"{a}:{b_}")
                                      for (a, b_), n in zip(reg, vshape)) + "]"


class _Buf:
    def __init__(self, layout, shape, dtype):
        self.name, self.layout, self.shape, self.dtype = "view", layout, tuple(shape), dtype


