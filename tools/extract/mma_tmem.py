"""TMEM operands of tcgen05.mma beyond the 128-lane accumulator: 64-row accumulators and A in TMEM.

Accumulator rows per CTA (PTX ISA 9.1 §9.7.16.10.5 data-path layouts; hw::mma_datapath /
hw::datapath_rows_per_cta, include/tirx_verify/hw/tcgen05_mma.hpp): cta_group::1 M=64 (Layout F,
.ws Layout E) and cta_group::2 M=128 (Layout B) hold 64 accumulator rows per CTA; M=128 ::1 and
M=256 ::2 hold 128 (mma_forms.py, the plain lane x column region).

A 64-row accumulator's `d_region` is a (64, N) region of the TMEM buffer the address names:

  * the buffer's logical element at the address is found from its layout (every element's TLane /
    TCol image, layout_text / cp_regions._images; 32-bit elements: TCol counts columns): the
    element whose image is the address's (lane, column) relative to the buffer's start, with any
    leading (stage) coordinates it has;
  * its row dimension (the second to last) must be the 64 rows, starting at row 0, and N columns
    from that element's column must fit: the region is `buf[stage.., :, c0:c0 + N]`.
    kernel.tmem-datapath then checks every (m, n) cell the data path writes against the layout
    (a buffer laid out for another data path, or a wrong address, is an error there).
  * a buffer of another row count (a plain 128-lane buffer used as storage for an M=64 MMA) is
    refused: the layout does not say which of its elements hold the 64 rows.

A in TMEM (the .ts form: the A operand is a 32-bit TMEM address instead of a shared-memory
descriptor; PTX ISA 9.1 §9.7.16.10 "tcgen05.mma", its [a-tmem] operand).  The op gets `a_tmem`
(ADDRESS) and `a` = the (rows per CTA, K) region of the A buffer the address names, found the
same way (16-bit A: TCol counts elements, two per 32-bit column; the address's column x 32 /
bits is the element's TCol).  kernel.tmem-datapath checks every A element's cells (the
accumulator's lane of its row, both 64-lane halves for the 2x2 data paths).
"""
from __future__ import annotations

import ast

from kernel_env import BufferRef, ConvertError


def _element_at(buf: BufferRef, rel_lane: int, rel_col: int, what: str) -> tuple:
    """The logical coordinates of buf's element whose first image is at (lane, 32-bit column)
    relative to buf's start."""
    import cp_regions
    from corpus_notation import DTYPE_BITS
    bits = DTYPE_BITS.get(buf.dtype, 0)
    if bits not in (8, 16, 32):
        raise ConvertError(f"{what}: TMEM buffer {buf.name} is {buf.dtype}: elements of {bits} bits are not mapped")
    if not buf.layout:
        raise ConvertError(f"{what}: TMEM buffer {buf.name} has no layout")
    want = rel_col * 32 // bits
    hits = [c for c, ims in cp_regions._images(buf, with_replicas=False).items()
            if ims[0].get("TLane", 0) == rel_lane and ims[0].get("TCol", 0) == want]
    if len(hits) != 1:
        raise ConvertError(f"{what}: {'no' if not hits else 'more than one'} element of {buf.name} (layout "
                           f"{buf.layout}) sits at lane {rel_lane}, column {rel_col} of the buffer")
    return hits[0]


def _region(buf: BufferRef, c: tuple, rows: int, ncols: int, what: str) -> str:
    if len(buf.shape) < 2:
        raise ConvertError(f"{what}: TMEM buffer {buf.name} {tuple(buf.shape)} has no (rows, columns)")
    if buf.shape[-2] != rows or c[-2] != 0:
        raise ConvertError(f"{what}: {rows} rows per CTA, but {buf.name} {tuple(buf.shape)} holds {buf.shape[-2]} "
                           f"rows (the address is at row {c[-2]}): which of its elements hold the operand's rows is "
                           "not fixed by its layout")
    c0 = c[-1]
    if c0 + ncols > buf.shape[-1]:
        raise ConvertError(f"{what}: columns {c0}..{c0 + ncols - 1} are outside {buf.name} {tuple(buf.shape)}")
    cols = ":" if (c0, ncols) == (0, buf.shape[-1]) else f"{c0}:{c0 + ncols}"
    return f"{buf.name}[{', '.join([str(x) for x in c[:-2]] + [':', cols])}]"


def accumulator_region(buf: BufferRef, lane: int, col: int, rows: int, n: int, ex) -> str:
    """d_region of a 64-row (per CTA) accumulator at TMEM address (lane, col) in buf."""
    import mma_forms
    start = mma_forms.tmem_start(ex, buf.name)
    if start is None:
        raise ConvertError(f"the accumulator: the TMEM column where {buf.name} starts is not in the model")
    c = _element_at(buf, lane - start[0], col - start[1], "the accumulator")
    return _region(buf, c, rows, n, "the accumulator")


def a_operand(node, e, env, ex, rows: int, k: int) -> dict:
    """{"a_tmem": ADDRESS, "a": REGION, "why"} of an A operand given as a TMEM address."""
    import mma_forms
    import tmem_ops
    v = e.value(node)
    if isinstance(v, tmem_ops.TmemAddr):
        addr = v
    elif isinstance(v, int) and not isinstance(v, bool):
        addr = tmem_ops.TmemAddr(v, None)
    else:
        raise ConvertError(f"A: {ast.unparse(node)!r} is not a TMEM address")
    from corpus_notation import DTYPE_BITS
    buf, why = tmem_ops.named_buffer(addr, addr.col, addr.col + 1, env, ex)
    bits = DTYPE_BITS.get(buf.dtype, 0)
    start = mma_forms.tmem_start(ex, buf.name)
    if start is None:
        raise ConvertError(f"A: the TMEM column where {buf.name} starts is not in the model")
    c = _element_at(buf, addr.lane - start[0], addr.col - start[1], "A")
    if bits and (k * bits) % 32:
        raise ConvertError(f"A: K = {k} elements of {bits} bits are not whole 32-bit columns")
    return {"a_tmem": {"lane": addr.lane, "col": addr.col}, "a": _region(buf, c, rows, k, "A"),
            "why": f"A in TMEM: {why}"}
