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
  * a buffer of another row count is refused (its layout does not say which of its elements hold
    the 64 rows), except plain storage below.

Plain storage (a 128-lane, 32-bit lane x column buffer, `S[(128,C):(1@TLane,1@TCol)]` and the
factories that expand to it) used by an M=64 cta_group::1 non-.ws MMA (Layout F): the buffer's
layout says nothing about rows, so the cells of row m come from the hardware alone.  PTX ISA 9.1
§9.7.16.10.5 (data-path Layout F; hw::accumulator_cell / hw::a_operand_cells,
/work/shared/spec/ptx_semantics.md §2): accumulator element (m, n) at lane L0 + m % 16 +
32 (m // 16), column C0 + n, with L0 0 or 16, and "Layouts F and C must use the same lane
alignment for A (if in TMEM), D": A element (m, k) in the same lane as D's row m, at column C0 +
k x bits / 32.  The operand is then a region of a **data-path view** of the storage (one per
buffer, base lane and dtype: `NAME.F` / `NAME.F16` for L0 = 16, `NAME.F.float16` etc. for 16-bit A),
`view_of` the buffer at that lane, layout `S[(4,16,C'):(32@TLane,1@TLane,1@TCol)]` over all its
columns (C' = C x 32 / bits elements).  kernel.tmem-datapath passes for such an operand by
construction (the view is the data path); what the model adds is the cells: kernel.coverage
checks that ops naming the storage (tcgen05.st / tcgen05.cp) wrote the A cells before the MMA
reads them, and follows the accumulator's cells to the loads; kernel.overlap sees them.  Layout
E and B (.ws M=64, ::2 M=128, per CTA: columns split across the two 64-lane halves): the
accumulator only, through a view per address and N (`NAME.B128@64`: element (m, n) in lane m +
64 (n // (N/2)), column C0 + n % (N/2)); an A operand there (read from both halves) and other
lanes are refused, naming the data path.  A 16-bit A of a 128-row data path (D, A: row m in lane
m) in 32-bit storage is a region of the storage's `NAME.float16` view, two elements per cell, the
low half first (hw::a_operand_cells: column C0 + k x bits / 32, bit k x bits mod 32).

Batched accumulators (TVM's C[2, M, N/2], the leading dimension of 2 the N half): a Layout E
(.ws M = 64) or B (cta_group::2 M = 128) MMA writes accumulator element (m, n) to lane
m + 64 (n // (N/2)), column C0 + n % (N/2) (PTX ISA 9.1 §9.7.16.10.5; hw::accumulator_cell,
src/hw/tcgen05_mma.cpp:94; /work/shared/spec/ptx_semantics.md §2 Layout E).  TVM lays a
(2, M, N/2) D out as `S[(2,M,Nh):(64@TLane,1@TLane,1@TCol)]` (apache/tvm 5d4dc87
python/tvm/tirx/layout.py:816-819, tmem_mma_operand_layout "batched C[2, m, N/2]") and its
gemm_async takes such a C as the N = 2 Nh accumulator, normalized to the packed
`S[(M,2,Nh):(1@TLane,64@TLane,1@TCol)]` (tile_primitive/gemm_async/tcgen05.py:545-557): element
(m, n) is C[n // Nh, m, n % Nh].  An address at element (0, 0, c0) of such a buffer (2, M, Nh)
with N / 2 columns from c0 inside Nh is the accumulator of the view `NAME.packedN@COL` (shape
(M, N), `view_of` the buffer at that address): element (m, n) = NAME[n // (N/2), m, c0 + n % (N/2)],
its layout the buffer's own layout re-indexed so (the rows' iters, the halves', the columns'),
not the hardware's - kernel.tmem-datapath then checks every (m, n) against the data path, so a
buffer laid out otherwise fails there.  N / 2 columns past the buffer's end, an address in its
second half or at a row other than 0, a swizzled or replicated layout are refused.

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


def _datapath_view(buf: BufferRef, rel_lane: int, rel_col: int, rows: int, ncols: int, bits: int, dtype: str,
                   dp: str, what: str):
    """(view spec, region) of the Layout F data-path view of plain storage buf (module docstring),
    or None when buf is not plain 32-bit 128-lane storage (the caller refuses as before)."""
    import tmem_ops
    rc = tmem_ops._plain_cols(buf)
    if rc is None or rc[0] != instr_lanes() or buf.dtype not in ("float32", "uint32", "int32"):
        return None
    if rows == instr_lanes() and dp in ("A", "D") and bits == 16 and rel_lane == 0:
        # 16-bit A of a 128-row data path (row m in lane m) in 32-bit storage: the storage's
        # 16-bit view, two elements per column, element c in column c // 2, bits 16 (c % 2)
        # (hw::a_operand_cells: column C0 + k x bits / 32, bit k x bits mod 32)
        ecols, c0 = rc[1] * 2, rel_col * 2
        if c0 + ncols > ecols:
            raise ConvertError(f"{what}: columns {rel_col}..{rel_col + (ncols - 1) // 2} are outside {buf.name} "
                               f"{tuple(buf.shape)}")
        spec = {"name": f"{buf.name}.{dtype}", "base": buf, "shape": (rows, ecols), "dtype": dtype,
                "layout": f"S[({rows},{ecols}):(1@TLane,1@TCol)]", "view_of": {"buffer": buf.name, "lane": 0, "col": 0},
                "what": f"its {dtype} view (two elements per 32-bit cell, the low half first)"}
        return spec, ":" if (c0, ncols) == (0, ecols) else f"{c0}:{c0 + ncols}"
    if rows != 64:
        return None
    if dp in ("B", "E") and what == "the accumulator" and bits == 32 and rel_lane == 0 and ncols % 2 == 0:
        # Layouts B (M = 128 cta_group::2, per CTA) and E (M = 64 .ws): accumulator element (m, n)
        # at lane m + 64 (n // (N/2)), column C0 + n % (N/2) (PTX ISA §9.7.16.10.5, 2x2;
        # hw::accumulator_cell) - a view per address and N, as the fold depends on N
        half = ncols // 2
        if rel_col + half > rc[1]:
            raise ConvertError(f"{what}: columns {rel_col}..{rel_col + half - 1} are outside {buf.name} "
                               f"{tuple(buf.shape)}")
        spec = {"name": f"{buf.name}.{dp}{ncols}@{rel_col}", "base": buf, "shape": (64, ncols), "dtype": buf.dtype,
                "layout": f"S[(64,2,{half}):(1@TLane,64@TLane,1@TCol)]",
                "view_of": {"buffer": buf.name, "lane": 0, "col": rel_col},
                "what": f"the cells of an N = {ncols} accumulator of data-path Layout {dp} (PTX ISA §9.7.16.10.5) at "
                        f"column {rel_col}: element (m, n) in lane m + 64 (n // {half}), column {rel_col} + n % {half}"}
        return spec, ":"
    if dp in ("B", "E") and what == "A":
        raise ConvertError(f"A: {rows} rows per CTA in plain storage {buf.name} {tuple(buf.shape)}: data path Layout "
                           f"{dp} reads A row m from lanes m and m + 64 (hw::a_operand_cells); a data-path view of "
                           "such an A is not modelled (A in plain storage: Layout F, or 128 rows)")
    if dp != "F":
        raise ConvertError(f"{what}: {rows} rows per CTA in plain storage {buf.name} {tuple(buf.shape)} at lane "
                           f"{rel_lane}: a data-path view for Layout {dp} is not modelled here (Layout F at lane 0 "
                           "or 16; Layouts B / E: the accumulator at lane 0 with an even N)")
    if rel_lane not in (0, 16):
        raise ConvertError(f"{what}: an M = 64 (Layout F) operand at lane {rel_lane} of {buf.name}: PTX ISA "
                           "§9.7.16.10.5 allows lane 0 or 16")
    if (rel_col * 32) % bits or bits not in (16, 32):
        raise ConvertError(f"{what}: {bits}-bit elements of plain 32-bit storage {buf.name} are not mapped")
    per = 32 // bits
    ecols, c0 = rc[1] * per, rel_col * per
    if c0 + ncols > ecols:
        raise ConvertError(f"{what}: columns {rel_col}..{rel_col + (ncols - 1) // per} are outside {buf.name} "
                           f"{tuple(buf.shape)}")
    name = f"{buf.name}.F{16 if rel_lane else ''}" + ("" if bits == 32 else f".{dtype}")
    spec = {"name": name, "base": buf, "shape": (64, ecols), "dtype": buf.dtype if bits == 32 else dtype,
            "layout": f"S[(4,16,{ecols}):(32@TLane,1@TLane,1@TCol)]",
            "view_of": {"buffer": buf.name, "lane": rel_lane, "col": 0},
            "what": f"the cells an M = 64 cta_group::1 tcgen05.mma (data-path Layout F, PTX ISA §9.7.16.10.5) uses "
                    f"for row m: lane {rel_lane} + m % 16 + 32 (m // 16), every column"}
    cols = ":" if (c0, ncols) == (0, ecols) else f"{c0}:{c0 + ncols}"
    return spec, cols


def instr_lanes() -> int:
    import instr_ops
    return instr_ops.TMEM_LANES


def datapath(m: int, cg: int, ws: bool) -> str:
    """The data-path letter of a tcgen05.mma (PTX ISA §9.7.16.10.5; hw::mma_datapath)."""
    return {(1, 64, False): "F", (1, 64, True): "E", (2, 128, False): "B", (1, 128, False): "D",
            (1, 128, True): "D", (2, 256, False): "A"}.get((cg, m, ws), "?")


def emit_view(spec: dict, ex) -> str:
    """Emit a data-path view (once per name) and return its model name."""
    from allocators import _emit
    ref = _emit(ex, spec["name"], "tmem", spec["shape"], spec["dtype"], spec["layout"], spec["base"].line,
                ast.Constant(spec["name"]), view_of=spec["view_of"])
    b = next(x for x in ex.buffers if x["name"] == ref.name)
    of = spec.get("of", f"plain TMEM storage {spec['base'].name}")
    b["origin"] = f"{ex.current_file()}:{spec['base'].line} a view of {of} the kernel does not declare: {spec['what']}"
    return ref.name


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


def _batched_view(buf: BufferRef, c: tuple, rel_lane: int, rel_col: int, rows: int, ncols: int):
    """(view spec, ":") of the accumulator of a Layout B / E MMA in a batched C[2, rows, N/2]
    buffer (module docstring, "Batched accumulators"): the (rows, N) accumulator as TVM
    normalizes it, element (m, n) = buf[n // (N/2), m, c0 + n % (N/2)], with the view's layout
    the buffer's own layout re-indexed so, not the hardware's."""
    import layout_text
    from corpus_notation import DTYPE_BITS
    what = "the accumulator"
    if DTYPE_BITS.get(buf.dtype) != 32:
        raise ConvertError(f"{what}: the batched buffer {buf.name} is {buf.dtype}: an accumulator element is one "
                           "32-bit cell (PTX ISA §9.7.16.10.4.1), a view of other elements is not modelled")
    if buf.shape[1] != rows or c[0] != 0 or c[1] != 0:
        raise ConvertError(f"{what}: {rows} rows per CTA in the batched buffer {buf.name} {tuple(buf.shape)} "
                           f"(C[2, M, N/2]), but the address is at its element {c}, not at an element "
                           "(0, 0, c) of its first half")
    if ncols % 2:
        raise ConvertError(f"{what}: N = {ncols} is odd: Layouts B / E split N into two halves")
    half, c0 = ncols // 2, c[2]
    if c0 + half > buf.shape[2]:
        raise ConvertError(f"{what}: an N = {ncols} accumulator of a batched buffer C[2, M, N/2] takes {half} "
                           f"columns of each half (N/2), columns {c0}..{c0 + half - 1}, which are outside "
                           f"{buf.name} {tuple(buf.shape)}")
    lay = layout_text.parse(buf.layout)
    if lay.swizzle is not None or lay.replica:
        raise ConvertError(f"{what}: the batched buffer {buf.name}'s layout {buf.layout} has "
                           f"{'a swizzle' if lay.swizzle is not None else 'replicas'}: its re-indexing as the "
                           "(M, N) accumulator is not modelled")
    g_half, g_row, g_col = layout_text.group(lay, buf.shape)
    if (c0, half) != (0, buf.shape[2]):
        if len(g_col) != 1:
            raise ConvertError(f"{what}: columns {c0}..{c0 + half - 1} of {buf.name}, whose column dimension is "
                               f"several iters of its layout {buf.layout}: that slice is not re-indexed here")
        g_col = [(half, g_col[0][1], g_col[0][2])]
    # view element (m, h, j) is buf[h, m, c0 + j]: the rows' iters, then the halves', then the columns'
    text = layout_text.Lay(g_row + g_half + g_col, [], {}, None).text()
    spec = {"name": f"{buf.name}.packed{ncols}@{rel_col}", "base": buf, "shape": (rows, ncols), "dtype": buf.dtype,
            "layout": text, "view_of": {"buffer": buf.name, "lane": rel_lane, "col": rel_col},
            "of": f"the batched TMEM buffer {buf.name}",
            "what": f"the N = {ncols} accumulator of the batched C[2, {rows}, N/2] {buf.name} at its element {c}, "
                    f"as TVM normalizes it (element (m, n) = {buf.name}[n // {half}, m, {c0} + n % {half}]; apache/tvm "
                    "5d4dc87 python/tvm/backend/cuda/tile_primitive/gemm_async/tcgen05.py:545-557); its layout is "
                    f"{buf.name}'s re-indexed so, which kernel.tmem-datapath checks against the data path"}
    return spec, ":"


def accumulator_region(buf: BufferRef, lane: int, col: int, rows: int, n: int, ex, dp: str = "?"):
    """d_region of a 64-row (per CTA) accumulator at TMEM address (lane, col) in buf: a region
    text, or (view spec, columns) for plain storage and batched C[2, M, N/2] buffers (emit_view)."""
    import mma_forms
    start = mma_forms.tmem_start(ex, buf.name)
    if start is None:
        raise ConvertError(f"the accumulator: the TMEM column where {buf.name} starts is not in the model")
    v = _datapath_view(buf, lane - start[0], col - start[1], rows, n, 32, buf.dtype, dp, "the accumulator")
    if v is not None:
        return v
    c = _element_at(buf, lane - start[0], col - start[1], "the accumulator")
    if dp in ("B", "E") and len(buf.shape) == 3 and buf.shape[0] == 2:
        return _batched_view(buf, c, lane - start[0], col - start[1], rows, n)
    return _region(buf, c, rows, n, "the accumulator")


def view_region(r, ex) -> str:
    """A region text from accumulator_region / a_operand's `a`: emits a data-path view."""
    if isinstance(r, str):
        return r
    spec, cols = r
    return f"{emit_view(spec, ex)}[:, {cols}]"


def a_operand(node, e, env, ex, rows: int, k: int, dp: str = "?", a_dtype: str = "") -> dict:
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
    ebits = DTYPE_BITS.get(a_dtype, 0) or bits
    v = _datapath_view(buf, addr.lane - start[0], addr.col - start[1], rows, k, ebits, a_dtype or buf.dtype, dp, "A")
    if v is not None:
        if (k * ebits) % 32:
            raise ConvertError(f"A: K = {k} elements of {ebits} bits are not whole 32-bit columns")
        return {"a_tmem": {"lane": addr.lane, "col": addr.col}, "a": v,
                "why": f"A in TMEM: {why}; A in plain storage {buf.name}: a region of {v[0]['name']}, "
                       f"{v[0]['what']} (mma_tmem.py)" + ("; kernel.tmem-datapath passes it by construction"
                                                          if rows == 64 else "")}
    c = _element_at(buf, addr.lane - start[0], addr.col - start[1], "A")
    if bits and (k * bits) % 32:
        raise ConvertError(f"A: K = {k} elements of {bits} bits are not whole 32-bit columns")
    return {"a_tmem": {"lane": addr.lane, "col": addr.col}, "a": _region(buf, c, rows, k, "A"),
            "why": f"A in TMEM: {why}"}
