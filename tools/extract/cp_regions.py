"""The smem / tmem regions of a tcgen05.cp whose source or destination is not a plain buffer.

tmem_cp.py derives the regions of .128x256b / .128x128b copies between a plain strided 32-bit
shared buffer and a plain lane x column TMEM buffer.  This module derives them for any layouts
the notation expands (the scale-factor layouts `sf_smem_layout` / `sf_tmem_layout`, a TileLayout
with `.unpack(4).broadcast(4)`, ...) and for the replicating shapes, from the elements' images:

  * source: row r, byte b (0 <= b < W / 8) of the copy is read from shared byte start + (r // 8)
    SBO + (r % 8) 16 + (b // 16) LBO + b % 16 (K-major, no swizzle; hw::SmemDescriptor::
    chunk_address, PTX ISA 9.1 §9.7.16.4.1 canonical K-major layout of 16-byte core rows);
  * destination: row r goes to the lanes of the shape (PTX ISA 9.1 §9.7.16.9.2, Table "Shapes
    of tcgen05.cp"; /work/shared/spec/ptx_semantics.md): .128x256b / .128x128b lane L0 + r;
    .32x128b.warpx4 lanes L0 + r + 32 j, j = 0..3 (each row to all four sub-partitions);
    .64x128b.warpx2::02_13 lanes L0 + r and L0 + r + 64; .64x128b.warpx2::01_23 lanes L0 + r and
    L0 + r + 32 for r < 32, L0 + 64 + (r - 32) and L0 + 96 + (r - 32) otherwise; byte b at
    column C0 + b // 4, byte b % 4 of the 32-bit cell;
  * the smem region is the elements of the source buffer all of whose bytes (its layout's m
    image x element size) the copy reads; the tmem region the elements of the TMEM buffer all of
    whose cells (every image, replicas included: TLane, TCol in elements of the dtype, relative
    to the buffer's start) the copy writes.  Each must be a box of its buffer, both of one size;
    they are paired in row-major order, and kernel.sf-layout checks that each source element's
    byte lands in every image of its partner (a wrong lane quarter or column is caught there).

Refused (unresolved, saying why): a swizzled source (tmem_cp.py sends those to cp_swizzle.py
before this module), sub-byte elements, .4x256b (its lanes are
unverified: ptx_semantics.md), a buffer of more than MAX_ELEMS elements, an empty or non-box set,
sets of different sizes.
"""
from __future__ import annotations

import itertools

from kernel_env import ConvertError

MAX_ELEMS = 1 << 18


def row_lanes(shape: str, r: int) -> list[int]:
    if shape in ("128x256b", "128x128b"):
        return [r]
    if shape == "32x128b.warpx4":
        return [r + 32 * j for j in range(4)]
    if shape == "64x128b.warpx2::02_13":
        return [r, r + 64]
    if shape == "64x128b.warpx2::01_23":
        return [r, r + 32] if r < 32 else [64 + r - 32, 96 + r - 32]
    raise ConvertError(f".{shape}: its destination lanes are not modelled here (ptx_semantics.md: unverified)")


_IMAGES: dict = {}


def _images(buf, with_replicas: bool):
    """{coords: [ {axis: value} per image ]} of every element of buf under its layout (cached per
    layout text, shape and replica choice: ops of one buffer share it; read-only)."""
    key = (buf.layout, tuple(buf.shape), with_replicas)
    if key not in _IMAGES:
        _IMAGES[key] = _images_uncached(buf, with_replicas)
    return _IMAGES[key]


def _images_uncached(buf, with_replicas: bool):
    import math
    import layout_text
    n = math.prod(buf.shape)
    if n > MAX_ELEMS:
        raise ConvertError(f"{buf.name} has {n} elements, more than the {MAX_ELEMS} mapped here")
    lay = layout_text.parse(buf.layout)
    if lay.swizzle is not None:
        raise ConvertError(f"{buf.name}'s layout {buf.layout} is swizzled: the images of its elements are not "
                           "computed here")
    groups = layout_text.group(lay, buf.shape)
    per_dim = []
    for d, g in zip(buf.shape, groups):
        vals = []
        for c in range(d):
            im, rem = {}, c
            for e, s, ax in reversed(g):
                im[ax] = im.get(ax, 0) + (rem % e) * s
                rem //= e
            vals.append(im)
        per_dim.append(vals)
    reps = [{}]
    if with_replicas:
        for e, s, ax in lay.replica:
            reps = [dict(x, **{ax: x.get(ax, 0) + k * s}) for x in reps for k in range(e)]
    out = {}
    for coords in itertools.product(*[range(d) for d in buf.shape]):
        base = dict(lay.offset)
        for dim, c in enumerate(coords):
            for ax, v in per_dim[dim][c].items():
                base[ax] = base.get(ax, 0) + v
        out[coords] = [{ax: base.get(ax, 0) + rep.get(ax, 0) for ax in set(base) | set(rep)} for rep in reps]
    return out


def regions(ptr, nbytes: int, desc: dict, shape: str, rows: int, bits: int, t, env, ex, line: int = 0):
    """(smem REGION, tmem REGION, why) of the copy (module docstring)."""
    import mma_forms
    import tmem_cp
    import tmem_ops
    from corpus_notation import DTYPE_BITS
    row_lanes(shape, 0)  # refuses the shapes whose lanes are not modelled
    if desc["swizzle"] != "none":
        raise ConvertError(f"a {desc['swizzle']}-swizzled source: the bytes it reads depend on the absolute "
                           "address, which the extraction does not place")
    src = ptr.buf
    if not (src.scope or "").startswith("shared"):
        raise ConvertError(f"the source {src.name} is not a shared-memory buffer ({src.scope})")
    sbits = DTYPE_BITS.get(src.dtype, 0)
    if sbits < 8 or sbits % 8:
        raise ConvertError(f"the source buffer {src.name} is {src.dtype}: sub-byte elements are not mapped here")
    esz = sbits // 8
    # bytes the copy reads: address -> (row, byte)
    simg = _images(src, with_replicas=False)
    first = {c: ims[0].get(layout_text_m(), 0) * esz for c, ims in simg.items()}
    if tuple(ptr.coords) not in first:
        raise ConvertError(f"the source pointer {ptr.buf.name}{list(ptr.coords)} is not an element of the buffer")
    base = first[tuple(ptr.coords)] + nbytes
    read = {}
    for r in range(rows):
        for b in range(bits // 8):
            a = base + (r // 8) * desc["sbo_bytes"] + (r % 8) * 16 + (b // 16) * desc["lbo_bytes"] + b % 16
            read[a] = (r, b)
    S = sorted(c for c, a in first.items() if all(a + k in read for k in range(esz)))
    # cells the copy writes, relative to the TMEM buffer's start: (lane, byte of the lane's columns)
    tbuf, why = tmem_ops.named_buffer(t, t.col, t.col + bits // 32, env, ex, form="tcgen05.cp")
    start = mma_forms.tmem_start(ex, tbuf.name)
    if start is None:
        raise ConvertError(f"the TMEM column where {tbuf.name} starts is not in the model")
    tb = DTYPE_BITS.get(tbuf.dtype, 0)
    if tb < 8 or tb % 8:
        raise ConvertError(f"the TMEM buffer {tbuf.name} is {tbuf.dtype}: sub-byte elements are not mapped here")
    written = set()
    for r in range(rows):
        for ln in row_lanes(shape, r):
            for b in range(bits // 8):
                written.add((t.lane - start[0] + ln, (t.col - start[1]) * 4 + b))
    timg = _images(tbuf, with_replicas=True)
    tsz = tb // 8
    T = sorted(c for c, ims in timg.items()
               if all((im.get("TLane", 0), im.get("TCol", 0) * tsz + k) in written for im in ims for k in range(tsz)))
    if not S or not T:
        raise ConvertError(f"no element of {src.name if not S else tbuf.name} lies wholly in the bytes the copy "
                           f"{'reads' if not S else 'writes'}")
    if esz != tsz:
        # elements of two sizes: the source's bytes as the TMEM buffer's elements (cp_byte_view.py)
        import cp_byte_view
        lane_row = {ln: r for r in range(rows) for ln in row_lanes(shape, r)}
        src_bytes = {a + k for a in first.values() for k in range(esz)}

        def source_of(lane: int, byte: int):
            r = lane_row.get(lane + start[0] - t.lane)
            b = byte - (t.col - start[1]) * 4
            if r is None or not 0 <= b < bits // 8:
                return None
            return base + (r // 8) * desc["sbo_bytes"] + (r % 8) * 16 + (b // 16) * desc["lbo_bytes"] + b % 16

        smem, tmem, note = cp_byte_view.view_regions(src, tbuf, T, timg, tsz, src_bytes, source_of, line, ex)
        return smem, tmem, (f"{why}; source row r byte b at {src.name} byte start + (r // 8) SBO + (r % 8) 16 + "
                            f"(b // 16) LBO + b % 16 (K-major, no swizzle), to lanes {_lanes_text(shape)}, column "
                            f"taddr.col + b / 4 (PTX ISA §9.7.16.9.2); {note}")
    if len(S) != len(T):
        raise ConvertError(f"the copy reads {len(S)} whole elements of {src.name} and writes {len(T)} of "
                           f"{tbuf.name}: which element goes where is not derived")
    sbox, tbox = tmem_cp._box(S, src.shape), tmem_cp._box(T, tbuf.shape)
    if sbox is None or tbox is None:
        raise ConvertError(f"the elements of {src.name if sbox is None else tbuf.name} the copy "
                           f"{'reads' if sbox is None else 'writes'} are not a box of the buffer")
    return (f"{src.name}[{sbox}]", f"{tbuf.name}[{tbox}]",
            f"{why}; source row r byte b at {src.name} byte start + (r // 8) SBO + (r % 8) 16 + (b // 16) LBO + "
            f"b % 16 (K-major, no swizzle), to lanes {_lanes_text(shape)}, column taddr.col + b / 4 (PTX ISA "
            "§9.7.16.9.2); regions: the elements wholly read / written (their layouts' images), paired in order")


def layout_text_m() -> str:
    import layout_text
    return layout_text.MEMORY_AXIS


def _lanes_text(shape: str) -> str:
    return {"128x256b": "taddr.lane + r", "128x128b": "taddr.lane + r",
            "32x128b.warpx4": "taddr.lane + r + 32 j (j = 0..3)",
            "64x128b.warpx2::02_13": "taddr.lane + r, + r + 64",
            "64x128b.warpx2::01_23": "taddr.lane + r, + r + 32 (r < 32; r >= 32: + 64 + r - 32, + 96 + r - 32)"}[shape]
