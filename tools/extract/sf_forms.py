"""The scale factors a block-scaled tcgen05.mma reads from an SF buffer with sf_reuse / pipe_depth.

TVM's `sf_tmem_layout(rows, SF_K, sf_per_mma, sf_reuse=r, pipe_depth=p)` (apache/tvm 5d4dc87
python/tvm/backend/cuda/tile_primitive/gemm_async/tcgen05.py:121-182) is the buffer of shape
`(p, rows, SF_K * r)` (no `p` without pipe_depth): the last dimension is what the gemm dispatch
iterates, one index per MMA K step ("Gemm dispatch iterates the last dim SF_K * sf_reuse MMA
times", :138-142), with a stride-0 reuse iter so that r consecutive indices are one stored scale
factor; the pipe dimension strides one stage (rows / 32 x 4 TCol elements).  `TMEMPool.alloc_sf`
(alloc_pool.py:306-330) builds exactly that layout from `(p, rows, SF_K * r)`.

So the index an MMA reads is `t * sf_per_mma .. + sf_per_mma` where t is the MMA's ordinal among
the K steps the buffer covers: `SF_K * r / sf_per_mma` steps of `mma_k` elements.  When that is
the operand buffer's K extent, t = k0 / mma_k (the operand's start column), as for the 2-D form
(mma_forms.sf_region).  When it is G > 1 operand tiles (fp8_blockwise_gemm: 16 steps of 32 = 4
k-tiles of 128, one SF copy every 4 k-tiles) the source does not say which tile of the group the
operand stage holds (a runtime k-tile counter), nor does the stage index appear anywhere but in
the address: both are read from the instruction's own address and SF id — the one (stage, tile
of the group) whose first scale factor's cell under the layout is the cell the instruction
addresses (column = SF address column x 4 + SF_ID in 8-bit elements, lane = the address lane;
PTX ISA 9.1 §9.7.16.4.2 SF_ID the byte of the 32-bit cell).  None or two: unresolved.  So for
this form kernel.sf-layout checks the rows, the replicas, every scale of the step and the copy
that fills the buffer, but an SF id / stage choice is not checked against a K position the
source fixes independently (it has none) — the op's notes say so.
"""
from __future__ import annotations

import re

from kernel_env import ConvertError

MAX_CANDIDATES = 4096
SF_REUSE_LAYOUT = re.compile(r"sf_tmem_layout\((\d+), (\d+), (\d+)((?:, \w+=\d+)*)\)$")


def _kw(text: str) -> dict:
    return {k: int(v) for k, v in re.findall(r"(\w+)=(\d+)", text)}


def matches(layout: str | None) -> bool:
    m = SF_REUSE_LAYOUT.match(layout or "")
    return bool(m and m.group(4))


def multi_tile(sf: dict, n: int, operand_ptr, mma_k: int) -> bool:
    """A plain sf_tmem_layout(R, SF_K, sf_per_mma) whose scale axis covers a whole multiple (> 1)
    of the operand buffer's K extent (mqa_logits_fp4's sfkv_tmem folds the two 128-row halves of
    the KV block into SF_K): which group a K step reads is matched from the address by region()."""
    m = SF_REUSE_LAYOUT.match(sf["buf"].layout or "")
    if not m or m.group(4) or not n or mma_k % n:
        return False
    cover, kext = int(m.group(2)) * (mma_k // n), operand_ptr.buf.shape[-1]
    return cover != kext and kext > 0 and cover % kext == 0


def _image(groups, coord) -> dict:
    """{axis: value} of one logical element under the grouped shard (replica 0, offsets added by
    the caller)."""
    out: dict = {}
    for g, c in zip(groups, coord):
        for e, s, ax in reversed(g):
            out[ax] = out.get(ax, 0) + (c % e) * s
            c //= e
        if c:
            raise ConvertError(f"coordinate {coord} is outside the buffer")
    return out


def region(sf: dict, rows: int, n: int, operand_ptr, mma_k: int, sf_id: int, what: str) -> tuple[str, str]:
    """(REGION, note) of the scale factors this MMA reads from an sf_reuse / pipe_depth SF buffer."""
    import layout_text
    b = sf["buf"]
    m = SF_REUSE_LAYOUT.match(b.layout or "")
    R, sf_k, spm = (int(x) for x in m.groups()[:3])
    kw = _kw(m.group(4))
    if set(kw) - {"sf_reuse", "pipe_depth"}:
        raise ConvertError(f"{what}: {b.layout}: arguments {sorted(set(kw) - {'sf_reuse', 'pipe_depth'})} "
                           "are not modelled")
    r, p = kw.get("sf_reuse", 1), kw.get("pipe_depth")
    want = ((p,) if p is not None else ()) + (R, sf_k * r)
    if tuple(b.shape) != want:
        raise ConvertError(f"{what}: {b.name} {tuple(b.shape)} is not the shape {want} of its layout {b.layout}")
    if spm % n or spm > 4:
        raise ConvertError(f"{what}: the scale_vec reads {n} scale factors per row, {b.name} groups {spm}")
    if not 0 < rows <= R:
        raise ConvertError(f"{what}: the instruction reads {rows} rows of scale factors, {b.name} holds {R}")
    # one K step reads n scale factors per row (sf_vec = mma_k / n elements of K each); a group of
    # spm = a multiple of n holds spm / n K steps, told apart by the SF_ID (scale_vec::2X reads bytes
    # SF_ID, SF_ID + 1 of the column, SF_ID 0 or 2: PTX ISA §9.7.16.10.7; hw scale_factor_cells)
    sf_vec = mma_k // n
    kcov, kext, k0 = sf_k * r * sf_vec, operand_ptr.buf.shape[-1], operand_ptr.coords[-1]
    if k0 % mma_k:
        raise ConvertError(f"{what}: the operand starts at K column {k0}, not on a K step of {mma_k}")
    if kcov % kext:
        raise ConvertError(f"{what}: {b.name} covers {kcov} elements of K, not a whole number of the operand "
                           f"buffer {operand_ptr.buf.name}'s {kext}")
    tiles, per_tile, ki = kcov // kext, kext // mma_k, k0 // mma_k
    if (p or 1) * tiles > MAX_CANDIDATES:
        raise ConvertError(f"{what}: {p or 1} stages x {tiles} K tiles of {b.name}: more than the {MAX_CANDIDATES} "
                           "(stage, K tile) candidates searched")
    lay = layout_text.parse(b.layout)
    if lay.swizzle is not None:
        raise ConvertError(f"{what}: {b.name}'s layout {b.layout} is swizzled (not a TMEM SF layout)")
    groups = layout_text.group(lay, b.shape)
    epc = 4  # 8-bit scale factors in a 32-bit column (sf_tmem_layout's epc)
    target = (sf["loff"], sf["off"] * epc + sf_id)
    hits = []
    for s in range(p if p is not None else 1):
        for g in range(tiles):
            j = g * (kext // sf_vec) + ki * n
            coord = ((s,) if p is not None else ()) + (0, j)
            im = _image(groups, coord)
            cell = (im.get("TLane", 0) + lay.offset.get("TLane", 0), im.get("TCol", 0) + lay.offset.get("TCol", 0))
            if cell == target:
                hits.append((s, g, j))
    if len(hits) != 1:
        raise ConvertError(f"{what}: {'no' if not hits else 'more than one'} (stage, K tile) of {b.name} puts the "
                           f"K step's first scale factor at the cell the instruction addresses (lane {target[0]}, "
                           f"8-bit column {target[1]} of the buffer: SF address column {sf['off']} x 4 + SF_ID "
                           f"{sf_id})")
    s, g, j = hits[0]
    idx = ([str(s)] if p is not None else []) + [":" if rows == R else f"0:{rows}",
                                                 str(j) if n == 1 else f"{j}:{j + n}"]
    note = (f"{what} region: stage {s}, K tile {g} of the {tiles} its {b.name} covers, read from the address and "
            f"SF_ID {sf_id} (the source fixes no K position for them: sf_forms.py)" if (p is not None or tiles > 1)
            else "")
    return f"{b.name}[{', '.join(idx)}]", note
