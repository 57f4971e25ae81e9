"""A tcgen05.cp whose shared source has wider elements than its TMEM destination: the source's
bytes as the destination's elements.

kernel.sf-layout compares a copy element by element and byte by byte, so a tcgen05.cp op pairs
elements of one size (docs/checks.md).  mqa_logits_fp4 copies `uint32` words (smem_sf_q_t, each
word four UE8M0 scale factors its transpose packed) into `float8_e8m0fnu` scale-factor buffers
(sfq_tmem, sfkv_tmem) and declares no byte view of the words.

What the source and the hardware fix: tcgen05.cp moves bits unchanged (PTX ISA 9.1 §9.7.16.9.2;
there is no data type on the instruction except the decompressing .b8x16 forms, not modelled):
row r, byte b of the copy is shared byte start + (r // 8) SBO + (r % 8) 16 + (b // 16) LBO +
b % 16 (K-major, no swizzle) and lands in the shape's lanes, column taddr.col + b // 4, byte
b % 4 (cp_regions.py).  The TMEM buffer's declared layout says which of its elements each
byte of a cell is — the scale factor the MMA reads there.  So each element of the TMEM region
(all of whose images, replicas included, the copy writes) has one source byte per byte of it,
the same for every image; else the copy is refused here.

The model then gets a view of the source buffer (`view_of` it at the byte of the region's first
element) in the TMEM buffer's dtype, shaped as the TMEM region, whose element i is the source
bytes of the region's element i: `SRC.TBUF` (`SRC.TBUF@N` at byte N of SRC), a strided layout
fitted to those byte offsets (each dimension split into digits, every element checked; a map that
is no strided layout is refused).  The op pairs that view with the TMEM region in row-major
order.  A modelling decision, said in the view's notes and the op's: the view is the copy's own
byte map, so kernel.sf-layout passes the copy by construction (what it still compares is the
C++ hw::cp_source_byte / cp_destination_cells against this module's reading of PTX); what the
model adds is the cells (kernel.coverage, kernel.overlap) and the SF buffer the MMA's
SFA / SFB are checked against.  Whether the bytes the kernel stored are the right scale factors
(its transpose) is not checked.
"""
from __future__ import annotations

import ast
import math

from kernel_env import ConvertError


def _digits(g: list, n: int) -> list:
    """(extent, stride) digits, least significant first, with g[i] = sum digit(i) stride."""
    out, block = [], 1
    while block < n:
        s, best = g[block], None
        for k in range(2, n // block + 1):
            if g[block * (k - 1)] != (k - 1) * s:  # the digit's values 0 .. k - 2 were checked before
                break
            if (n // block) % k == 0:
                best = k
        if best is None or s == 0:
            raise ConvertError("the source bytes of the copied elements are not a strided map of one dimension")
        out.append((best, s))
        block *= best
    return out


def strided_layout(shape: tuple, offs: list) -> str:
    """A TileLayout text `S[(e..):(s..)]` over shape whose element i (row-major) is at offs[i]."""
    flat = [math.prod(shape[d + 1:]) for d in range(len(shape))]
    dims = []
    for d, e in enumerate(shape):
        g = [offs[i * flat[d]] - offs[0] for i in range(e)]
        dims.append(list(reversed(_digits(g, e))) or [(1, 1)])
    for i, o in enumerate(offs):
        rem, tot = i, 0
        for d in reversed(range(len(shape))):
            rem, c = divmod(rem, shape[d])
            for e, s in reversed(dims[d]):
                c, dig = divmod(c, e)
                tot += dig * s
        if tot != o - offs[0]:
            raise ConvertError("the source bytes of the copied elements are not a strided layout of the region "
                               f"(element {i} at byte {o - offs[0]}, the fitted layout gives {tot})")
    ext = [e for ds in dims for e, _ in ds]
    st = [s for ds in dims for _, s in ds]
    if len(ext) == 1:
        return f"S[{ext[0]}:{st[0]}]"
    return f"S[({','.join(map(str, ext))}):({','.join(map(str, st))})]"


def view_regions(src, tbuf, T: list, timg: dict, tsz: int, src_bytes: set, source_of, line: int, ex):
    """(smem REGION, tmem REGION, note) for the TMEM elements T (row-major, a box of tbuf),
    source_of(lane, byte_in_lane) -> the shared byte (relative to src's start) the copy writes
    there, or None."""
    import tmem_cp
    from allocators import _emit
    tbox = tmem_cp._box(T, tbuf.shape)
    if tbox is None:
        raise ConvertError(f"the elements of {tbuf.name} the copy writes are not a box of the buffer")
    firsts = []
    for c in T:
        got = None
        for im in timg[c]:
            bytes_ = tuple(source_of(im.get("TLane", 0), im.get("TCol", 0) * tsz + k) for k in range(tsz))
            if None in bytes_:
                raise ConvertError(f"element {list(c)} of {tbuf.name}: an image is not written by the copy")
            if got is not None and bytes_ != got:
                raise ConvertError(f"element {list(c)} of {tbuf.name}: its images come from different source bytes "
                                   f"({list(got)} and {list(bytes_)})")
            got = bytes_
        if list(got) != list(range(got[0], got[0] + tsz)) or not all(b in src_bytes for b in got):
            raise ConvertError(f"element {list(c)} of {tbuf.name}: its bytes are not {tsz} consecutive bytes of "
                               f"{src.name}")
        firsts.append(got[0])
    if len(set(firsts)) != len(firsts):
        raise ConvertError(f"two elements of {tbuf.name} come from one byte of {src.name}")
    v0 = firsts[0]
    if min(firsts) != v0 or any((f - v0) % tsz for f in firsts):
        raise ConvertError(f"the region's first element is not at the lowest source byte, or the bytes are not "
                           f"whole {tbuf.dtype} elements from it")
    lo = [min(c[d] for c in T) for d in range(len(tbuf.shape))]
    hi = [max(c[d] for c in T) + 1 for d in range(len(tbuf.shape))]
    shape = tuple(b - a for a, b, n in zip(lo, hi, tbuf.shape) if (a, b) == (0, n) or b != a + 1)
    layout = strided_layout(shape, [(f - v0) // tsz for f in firsts])
    name = f"{src.name}.{tbuf.name}" + (f"@{v0}" if v0 else "")
    view_of = {"buffer": src.name, "offset_bytes": v0} if v0 else {"buffer": src.name}
    ref = _emit(ex, name, src.scope, shape, tbuf.dtype, layout, line, ast.Constant(name), view_of=view_of)
    ex.__dict__.setdefault("_cp_views", set()).add(ref.name)  # tmem_nesting.finish drops it with its op
    b = next(x for x in ex.buffers if x["name"] == ref.name)
    b["origin"] = (f"{ex.current_file()}:{line} a view of {src.name} ({src.dtype}) the kernel does not declare: the "
                   f"bytes the tcgen05.cp copies into {tbuf.name} ({tbuf.dtype}), element i the source of "
                   f"{tbuf.name}[{tbox}]'s element i (cp_byte_view.py)")
    b["notes"] = (f"the copy's byte map from {src.name} into {tbuf.name}: tcgen05.cp moves bits unchanged and "
                  f"{tbuf.name}'s layout names each byte; kernel.sf-layout passes this copy by construction")
    region = f"{ref.name}[{', '.join(':' for _ in shape)}]"
    return region, f"{tbuf.name}[{tbox}]", (
        f"{src.name} is {src.dtype}, {tbuf.name} {tbuf.dtype}: the smem side is {ref.name}, {src.name}'s bytes as "
        f"{tbuf.dtype} elements in the order the copy puts them in {tbuf.name} (cp_byte_view.py; the "
        "kernel.sf-layout check of this copy passes by construction)")
