"""TMEM addresses and the tcgen05 data-movement instructions tcgen05.ld / tcgen05.st.

Addresses.  A TMEM address is a 32-bit value `lane << 16 | column` (PTX ISA 9.1 §9.7.16.2.2).
The model writes it relative to the address `tcgen05.alloc` returned (docs/model-format.md,
ADDRESS).  The kernel builds it from

    X.allocated_addr[0]        X a buffer of a TMEMPool: the column the pool's bump allocator gave
                               X (TMEMPool.alloc: `allocated_addr=col_start`, apache/tvm 5d4dc87
                               python/tvm/backend/cuda/lang/alloc_pool.py:262-294; move_base_to
                               sets the offset, :345-347), lane 0
    get_tmem_addr(a, r, c)     lane (a >> 16) + r, column (a & 0xFFFF) + c, each kept to 16 bits
                               (python/tvm/backend/cuda/codegen/header.py:605-616 at 5d4dc87)
    a + k, a | k, a - k        integer arithmetic on the 32-bit value (`|` only where the bits
                               do not meet, i.e. where it is `+`); T.cast / K.uint32 keep it

and a TmemAddr remembers the buffer whose allocated_addr it started from: that buffer is the one
the instruction names.  A raw number (no allocated_addr) is relative to the allocation base only
when the kernel's one TMEM pool allocates all 512 columns (the allocation then starts at lane 0,
column 0); the buffer is the TMEM buffer whose columns (pool-tracked) contain the instruction's
columns — when two do, or one whose columns are not known might, it stays unresolved, naming
them; one is never picked, except by tmem_nesting.py's rule for a tcgen05.cp into a scale-factor
buffer nested in plain storage.

Pool columns (note_pool_alloc / pool_statement): the pool's offset starts at 0, each alloc takes
`cols=` if given, else (no layout=, a 2-D shape) shape[1] x bits / 32 (TMEMPool._resolve_cols,
alloc_pool.py:246-260), else a plain lane x column layout's columns; after an allocation whose
other layout (sf_tmem_layout, tmem_mma_operand_layout, any factory) the columns are TVM's:
the layout's TCol span (elements of the dtype; `tirx-verify info`, layout_text.axis_span) x
bits / 32 (TMEMPool._resolve_cols, alloc_pool.py:240-250); a layout the notation cannot expand,
or a span that is not whole 32-bit columns, leaves the offset unknown until the next
`move_base_to(c)`.

tcgen05.ld / tcgen05.st (ldst_ops).  `tcgen05.ld.sync.aligned.SHAPE.xN.b32(r.., taddr[, imm])`,
`tcgen05.st.sync.aligned.SHAPE.xN.b32(taddr[, imm], r..)` (operand order: TVM's PTX table,
python/tvm/backend/cuda/ptx/table.py:7507-7600 at 5d4dc87).  Thread t's register r of warp w is
the TMEM cell (first_lane + dlane, C0 + dcol) of PTX ISA 9.1 §9.7.16.2.3 (figures of the data
movement shapes; the same table as include/tirx_verify/hw/tcgen05_ldst.hpp, which the check
uses): a sum of one (dlane, dcol) step per set bit of t and of r's bits inside one repetition,
plus cols_per_rep columns per repetition.  first_lane = 32 (w % 4) + lane field mod 32
(§9.7.16.8.1 sub-partitions; the lane-field model of docs/checks.md).  The registers must be
consecutive registers s0 .. s0 + R - 1 of one register array of 32-bit registers.  The model
gets:

  * the array's base buffer (128, n) `S[(128,n):(1@tid_in_wg,1)]`: element (t, j) is register j
    of thread t of the warpgroup (as the 32x32b form of instr_ops.py had it);
  * for a whole warpgroup's .32x32b at lane field 0 the regs region is that buffer's columns
    s0 .. s0 + N (unchanged); for every other shape or issue a view of it (`view_of` the base,
    the same registers) whose element (s L + dl, dc) is what warp slot s moves from / to TMEM
    lane first_lane + dl, column C0 + dc — its layout is the inverse of the table above, a
    TileLayout of binary digits (each lane or column bit is one thread bit or one register bit)
    plus the offset s0 on m;
  * one op per warp (per warpgroup for a whole-warpgroup .32x32b at lane field 0), whose `tmem`
    region is the box of those cells in the named TMEM buffer (a plain lane x column buffer:
    `default_tmem_layout(R, C)` or `S[(R,C):(1@TLane,1@TCol)]`, 32-bit) and whose `regs` region is
    the view's rows of that warp's slot.

Refused (unresolved, saying why): .pack::16b / .unpack::16b (the TMEM side — one 16-bit value
in the low half of each 32-bit column — has no buffer form here), .16x32bx2 whose immHalfSplitoff
is not the half's width (the two halves then are not one box), a TMEM buffer whose layout is not
the plain one, registers that are not consecutive, a lane field of 128 or more.
"""
from __future__ import annotations

import ast
import re

from kernel_env import (BufferRef, ConvertError, Evaluator, Pool, Unresolved, UnresolvedError, convention_on,
                        note_convention)

TMEM_COLS = 512   # 32-bit columns of the SM's tensor memory (PTX ISA §9.7.16.2.1)
TMEM_LANES = 128

# shape: (lanes, cols_per_rep, regs_per_rep, max_num, thread-bit steps, register-bit steps);
# a step is (dlane, dcol), "imm" the .16x32bx2 second half (PTX ISA 9.1 §9.7.16.2.3, Tables 49/50)
SHAPES = {
    "32x32b": (32, 1, 1, 128, [(1, 0), (2, 0), (4, 0), (8, 0), (16, 0)], []),
    "16x64b": (16, 2, 1, 128, [(8, 0), (0, 1), (1, 0), (2, 0), (4, 0)], []),
    "16x128b": (16, 4, 2, 64, [(0, 1), (0, 2), (1, 0), (2, 0), (4, 0)], [(8, 0)]),
    "16x256b": (16, 8, 4, 32, [(0, 2), (0, 4), (1, 0), (2, 0), (4, 0)], [(0, 1), (8, 0)]),
    "16x32bx2": (16, 1, 1, 128, [(1, 0), (2, 0), (4, 0), (8, 0), "imm"], []),
}
_PLAIN = re.compile(r"^S\[\((\d+),(\d+)\):\(1@TLane,1@TCol\)\]$")
_DEFAULT = re.compile(r"^default_tmem_layout\((\d+), ?(\d+)\)$")
_UNPACKED = re.compile(r"^S\[\((\d+),(\d+)\):\(1@TLane,2@TCol\)\]$")
# the identity data paths (apache/tvm 5d4dc87 python/tvm/tirx/layout.py:681-691: Layouts A and D are
# S[(rows, cols):(1@TLane,1@TCol)]; :733-761: M=128 cta_group 1 is D, M=256 cta_group 2 is A;
# :812-815: a 2-D D operand is tmem_datapath_layout(letter, m, N))
_DATAPATH = re.compile(r'^tmem_datapath_layout\("[AD]", ?(\d+), ?(\d+)\)$')
_MMA_D = re.compile(r'^tmem_mma_operand_layout\("D", ?\((\d+), ?(\d+)\), ?"\w+", ?M=(\d+), ?cta_group=([12])\)$')
NOT_HANDLED = object()


# -- addresses -------------------------------------------------------------------------------


class TmemAddr:
    """A TMEM address relative to the allocation base (lane << 16 | col), and the buffer whose
    allocated_addr it came from (None: a raw number)."""

    def __init__(self, value: int, buf: BufferRef | None):
        self.v, self.buf = value & 0xFFFFFFFF, buf

    @property
    def lane(self) -> int:
        return self.v >> 16

    @property
    def col(self) -> int:
        return self.v & 0xFFFF

    def _int(self, k, op):
        if isinstance(k, TmemAddr) or isinstance(k, bool) or not isinstance(k, int):
            raise ConvertError(f"TMEM address {op} {k!r}: only an integer is added to an address")
        return k

    def __add__(self, k):
        return TmemAddr(self.v + self._int(k, "+"), self.buf)

    __radd__ = __add__

    def __sub__(self, k):
        return TmemAddr(self.v - self._int(k, "-"), self.buf)

    def __or__(self, k):
        k = self._int(k, "|")
        if self.v & k:
            raise ConvertError(f"TMEM address {self.v:#x} | {k:#x}: the bits meet (not an addition)")
        return TmemAddr(self.v | k, self.buf)

    __ror__ = __or__

    def key(self):
        return ("tmem", self.v, self.buf.name if self.buf else None)


def allocated_addr(buf: BufferRef):
    """`X.allocated_addr` of a TMEM buffer: a one-element list (TIRx Buffer.allocated_addr)."""
    if buf.scope != "tmem":
        raise ConvertError(f"{buf.name}.allocated_addr: not a TMEM buffer")
    col = getattr(buf, "tmem_col", None)
    if isinstance(col, str) or col is None:
        raise ConvertError(f"{buf.name}.allocated_addr: its column in the TMEM pool is not derived "
                           f"({col or 'not allocated from a TMEMPool of this file'})")
    return (TmemAddr(col, buf),)


def eval_call(ev, node: ast.Call, short: str):
    """Evaluator.call hook: get_tmem_addr, casts that keep a TmemAddr, and the descriptor
    arithmetic of tcgen05.cp sources (tmem_cp.py)."""
    import tmem_cp
    v = tmem_cp.eval_call(ev, node, short, NOT_HANDLED)
    if v is not NOT_HANDLED:
        return v
    if short == "get_tmem_addr" and len(node.args) == 3 and not node.keywords:
        a, r, c = (ev.value(x) for x in node.args)
        for x in (r, c):
            if isinstance(x, bool) or not isinstance(x, int):
                raise ConvertError(f"{ast.unparse(node)!r}: an offset that is not an integer")
        if isinstance(a, TmemAddr):
            base, buf = a.v, a.buf
        elif isinstance(a, int) and not isinstance(a, bool):
            base, buf = a, None
        else:
            return NOT_HANDLED
        lane = ((base >> 16) + r) & 0xFFFF
        col = ((base & 0xFFFF) + c) & 0xFFFF
        return TmemAddr(lane << 16 | col, buf) if buf is not None else lane << 16 | col
    if short in ("cast", "reinterpret_cast", "uint32", "int32") and node.args:
        try:
            v = ev.value(node.args[0])
        except ConvertError:
            return NOT_HANDLED
        if isinstance(v, TmemAddr):
            return v
    return NOT_HANDLED


# -- pool columns ----------------------------------------------------------------------------


def _plain_cols(buf: BufferRef):
    """(rows, cols) of a plain lane x column layout in buf's shape, else None."""
    lay = buf.layout or ""
    m = _PLAIN.match(lay) or _DEFAULT.match(lay) or _DATAPATH.match(lay)
    d = _MMA_D.match(lay)
    if d and (int(d.group(3)), int(d.group(4))) in ((128, 1), (256, 2)) and int(d.group(1)) == 128:
        m = d
    if not m and lay and len(buf.shape) == 2:
        # any other factory (tmem_mma_operand_layout of an identity data path, ...): what the
        # notation expands it to (layout_text.printed: `tirx-verify print`)
        import layout_text
        try:
            m = _PLAIN.match(layout_text.printed(lay))
        except ConvertError:
            m = None
    if not m or len(buf.shape) != 2 or (int(m.group(1)), int(m.group(2))) != tuple(buf.shape):
        return None
    return int(m.group(1)), int(m.group(2))


def _span_cols(buf: BufferRef):
    """TMEMPool._resolve_cols for a layout (alloc_pool.py:240-250 at 5d4dc87): the layout's TCol
    span is in elements of the buffer's dtype; the columns are span x bits / 32 (TVM asserts that
    this is whole).  None when the layout cannot be expanded or the count is not whole (the pool's
    offset after it then stays unknown, saying so)."""
    import layout_text
    from corpus_notation import DTYPE_BITS
    try:
        span = layout_text.axis_span(buf.layout, "TCol")
    except ConvertError:
        return None
    bits = span * DTYPE_BITS.get(buf.dtype, 0)
    return bits // 32 if bits > 0 and bits % 32 == 0 else None


def note_pool_alloc(pool: Pool, buf: BufferRef, call: ast.Call, short: str, ev, ex) -> None:
    """Record where the pool's bump allocator puts buf (TMEMPool.alloc/alloc_sf/alloc_tcgen05_*);
    a known column becomes the buffer's `placement` (docs/model-format.md: where TCol 0 sits,
    relative to the allocation base)."""
    if hasattr(buf, "tmem_col"):
        return  # the same allocation met again (an unrolled loop): one storage
    off = pool.args.get("_offset", 0)
    buf.tmem_col = off
    from corpus_notation import DTYPE_BITS
    bits_of = DTYPE_BITS.__getitem__
    cols = None
    cols_node = next((k.value for k in call.keywords if k.arg == "cols"), None)
    if cols_node is not None:
        v = ev.value(cols_node)
        cols = v if isinstance(v, int) and not isinstance(v, bool) else None
    elif (short == "alloc" and not any(k.arg == "layout" for k in call.keywords) and len(buf.shape) == 2) or \
            _plain_cols(buf) is not None:
        # TVM asserts the bits are whole 32-bit columns (alloc_pool.py:240-259): else not derived
        bits = buf.shape[1] * bits_of(buf.dtype)
        cols = bits // 32 if bits % 32 == 0 else None
    elif _unpacked16(buf) is not None:
        cols = buf.shape[1]  # one 16-bit element per 32-bit column
    elif buf.layout:
        cols = _span_cols(buf)
    buf.tmem_ncols = cols
    total = pool.args.get("total_cols", TMEM_COLS)
    if isinstance(off, int) and isinstance(total, int) and off + (cols or 1) > total:
        # TVM's TMEMPool.alloc asserts col_end <= total_cols (alloc_pool.py:284-287 at 5d4dc87)
        # placed where the bump allocator puts it all the same: run's kernel.overlap reports the
        # allocation that does not hold it (an over-full pool is a finding, not a missing placement)
        _place(pool, buf, off, cols, total, ex)
        b = next(x for x in ex.buffers if x["name"] == buf.name)
        note = (f"starts at column {off} and runs past the pool's {total} columns (TMEMPool.alloc asserts col_end "
                "<= total_cols, alloc_pool.py:287 at 5d4dc87: TVM rejects this allocation)")
        b["notes"] = f"{b['notes']}; {note}" if b.get("notes") else note
    elif isinstance(off, int):
        _place(pool, buf, off, cols, total, ex)
    if isinstance(off, int) and cols is not None:
        pool.args["_offset"] = off + cols
    else:
        pool.args["_offset"] = (f"after {buf.name} (line {buf.line}), whose column count the extraction does not "
                                f"derive from its layout {buf.layout or '(none)'} (TMEMPool takes the TCol span x "
                                "bits / 32: not expanded or not whole), and before any move_base_to")


def _place(pool: Pool, buf: BufferRef, off: int, cols, total, ex) -> None:
    """placement {col} — or, when move_base_to put buf inside the columns of one earlier buffer
    of the pool, a view of it at that column (the kernel moved the bump pointer back on purpose:
    the two alias, as nvfp4_gemm's scale factors in the upper columns of its 512-column buffer).
    Contained: its columns are known and fit, or the earlier buffer ends at the pool's end (past
    which TMEMPool.alloc asserts)."""
    earlier = pool.args.setdefault("_bufs", [])
    inside = [e for e in earlier if isinstance(e.tmem_col, int) and e.tmem_ncols is not None and
              e.tmem_col <= off < e.tmem_col + e.tmem_ncols and
              ((cols is not None and off + cols <= e.tmem_col + e.tmem_ncols) or e.tmem_col + e.tmem_ncols == total)]
    earlier.append(buf)
    b = next(x for x in ex.buffers if x["name"] == buf.name)
    if "view_of" in b:
        return
    if len(inside) == 1 and (cols is None or not any(
            isinstance(e.tmem_col, int) and e.tmem_ncols is not None and e is not inside[0] and
            off < e.tmem_col + e.tmem_ncols and e.tmem_col < off + cols for e in earlier[:-1])):
        base = inside[0]
        root = next(x for x in ex.buffers if x["name"] == base.name)
        if "view_of" in root:  # a view of a view: of the same root, further in
            b["view_of"] = {"buffer": root["view_of"]["buffer"], "col": root["view_of"]["col"] + off - base.tmem_col}
        else:
            b["view_of"] = {"buffer": base.name, "col": off - base.tmem_col}
        b["notes"] = (f"TMEMPool.move_base_to put it at column {off}, inside {base.name} (columns {base.tmem_col}.."
                      f"{base.tmem_col + base.tmem_ncols - 1}): an alias of those columns")
        return
    b["placement"] = {"col": off, "lane": 0}


def pool_offset(pool: Pool, node) -> int:
    """`tmem_pool.offset`: the column the next allocation starts at (TMEMPool.offset,
    alloc_pool.py:215, advanced by alloc and move_base_to)."""
    off = pool.args.get("_offset", 0)
    if isinstance(off, int):
        return off
    raise UnresolvedError(Unresolved(ast.unparse(node), getattr(node, "lineno", None),
                                     f"the TMEM pool's offset is not derived ({off})"))


def pool_statement(call: ast.Call, env: dict) -> bool:
    """`tmem_pool.move_base_to(c)`: the pool's offset is c.  True when the statement was one."""
    f = call.func
    if not (isinstance(f, ast.Attribute) and f.attr == "move_base_to" and isinstance(f.value, ast.Name)):
        return False
    pool = env.get(f.value.id)
    if not (isinstance(pool, Pool) and pool.kind == "tmem") or len(call.args) != 1:
        return False
    try:
        v = Evaluator(env).value(call.args[0])
    except ConvertError as e:
        v = None
        reason = str(e)
    if isinstance(v, int) and not isinstance(v, bool):
        pool.args["_offset"] = v
    else:
        pool.args["_offset"] = f"move_base_to at line {call.lineno}: {reason if v is None else repr(v)}"
    return True


# -- which buffer an address names ------------------------------------------------------------


def _tmem_roots(ex) -> list[BufferRef]:
    """The TMEM buffers a raw address may name: the roots and the pool's aliases (views that
    move_base_to made; the other views are reinterpretations the kernel names explicitly)."""
    names = {b["name"] for b in ex.buffers if b["scope"] == "tmem" and
             ("view_of" not in b or "TMEMPool.move_base_to" in b.get("notes", ""))}
    out, seen = [], set()
    for r in ex.emitted.values():
        if r.name in names and r.name not in seen:
            seen.add(r.name)
            out.append(r)
    return out


def _whole_pool(env, ex=None) -> tuple[bool, str]:
    """Is a raw number relative to the allocation base?  Yes when the kernel allocates all 512
    columns at once (its one TMEM pool has total_cols 512, or every tcgen05.alloc walked so far
    takes 512 columns): such an allocation can only start at lane 0, column 0."""
    allocs = [op.get("cols") for op in (ex.ops if ex is not None else []) if op.get("kind") == "tcgen05.alloc"]
    pools = {id(v): v for v in env.values() if isinstance(v, Pool) and v.kind == "tmem"}
    if allocs and all(c == TMEM_COLS for c in allocs) and not pools:
        return True, f"every tcgen05.alloc takes all {TMEM_COLS} columns"
    if len(pools) != 1:
        if allocs:
            return False, (f"a raw TMEM address after tcgen05.alloc of {sorted(set(allocs))} columns: where the "
                           "allocation starts is a runtime value")
        return False, f"a raw TMEM address with {len(pools)} TMEM pools: its allocation base is not known"
    pool = next(iter(pools.values()))
    cols = pool.args.get("total_cols", 512)
    if cols != TMEM_COLS:
        return _one_allocation(cols, pool.line, len(allocs))
    return True, f"the pool allocates all {TMEM_COLS} columns"


def _one_allocation(cols, line, n_allocs: int) -> tuple[bool, str]:
    """A raw number with one allocation of fewer than 512 columns: relative to the allocation base
    only under the representative instance, which takes the CTA alone on its SM, so that its one
    tcgen05.alloc returns lane 0, column 0 (recorded in extraction.instance.bindings; PTX
    §9.7.16.7.1 does not promise it: CTAs co-resident on an SM compete for the 512 columns, and a
    second allocation of the CTA starts after the first).  Without the convention (`--instance
    none`), with more than one allocation or with an unknown size: unresolved, as before."""
    why = f"a raw TMEM address with a pool of {cols} columns: where the allocation starts is a runtime value"
    if not (convention_on() and isinstance(cols, int) and n_allocs <= 1):
        return False, why
    note_convention(f"TMEM allocation base: the CTA's one tcgen05.alloc of {cols} columns, the CTA alone on its "
                    "SM (the kernel passes raw column numbers)", line, "lane 0, column 0")
    return True, (f"the kernel's one allocation of {cols} columns, which the representative instance (the CTA "
                  "alone on its SM) takes to start at lane 0, column 0 (extraction.instance.bindings)")


def note_decl(buf: BufferRef, call: ast.Call, ev, ex) -> None:
    """`T.decl_buffer(shape, dtype, scope="tmem", allocated_addr=c, layout=...)`: the buffer's
    column is c (TIRx's allocated_addr, relative to the allocation base) — its placement."""
    node = next((k.value for k in call.keywords if k.arg == "allocated_addr"), None)
    if node is None or hasattr(buf, "tmem_col"):
        return
    try:
        v = ev.value(node)
    except (ConvertError, UnresolvedError) as e:  # e.g. `tmem_ptr_in_smem[0]`: the address tcgen05.alloc
        buf.tmem_col = f"allocated_addr={ast.unparse(node)} is not a number the source fixes ({e})"  # wrote
        return
    if isinstance(v, (tuple, list)) and len(v) == 1:
        v = v[0]
    if isinstance(v, bool) or not isinstance(v, int):
        buf.tmem_col = f"allocated_addr={ast.unparse(node)} is not a number"
        return
    buf.tmem_col = v
    rc = _plain_cols(buf)
    from corpus_notation import DTYPE_BITS
    buf.tmem_ncols = rc[1] * DTYPE_BITS[buf.dtype] // 32 if rc else None
    b = next(x for x in ex.buffers if x["name"] == buf.name)
    if "view_of" not in b:
        b["placement"] = {"col": v, "lane": 0}


def raw_alloc_buffer(env, ex) -> BufferRef | None:
    """The storage of the kernel's raw `tcgen05.alloc` as one model buffer, for a kernel that
    declares no TMEM buffer and passes raw TMEM addresses (flash_attention_backward).

    A modelling decision, written into the buffer's notes: the N columns a tcgen05.alloc returns
    are 128 lanes x N 32-bit cells (PTX ISA 9.1 §9.7.16.7.1: allocation is by columns, every lane
    of each; §9.7.16.1: a cell is 32 bits), so the buffer is `(128, N)` float32 with the plain
    lane x column layout `S[(128,N):(1@TLane,1@TCol)]` (element (lane, column) is that cell), placed
    at the allocation base: lane 0, column 0 when the allocation's base is known (_whole_pool:
    every tcgen05.alloc takes all 512 columns, or the one allocation under the representative
    instance).  Raw addresses then name its cells; what the cells hold is whatever the ops that name
    them say (an MMA's accumulator region, a tcgen05.ld's registers).  Only when the walked
    tcgen05.alloc ops (the same column count each, one storage) are all the kernel allocates and no
    TMEM buffer is declared: else None, and the raw address stays unresolved as before."""
    if _tmem_roots(ex):
        return None
    allocs = [op for op in ex.ops if op.get("kind") == "tcgen05.alloc"]
    cols = {op.get("cols") for op in allocs}
    if len(cols) != 1 or not all(isinstance(c, int) and not isinstance(c, bool) for c in cols):
        return None
    ok, _why = _whole_pool(env, ex)
    if not ok:
        return None
    n = next(iter(cols))
    key = ("raw-alloc", n)
    ref = ex.emitted.get(key)
    if ref is not None:
        return ref
    from allocators import _emit
    line = int(allocs[0]["origin"].split(" ")[0].rsplit(":", 1)[1]) if allocs[0].get("origin") else 0
    ref = _emit(ex, "tmem_alloc", "tmem", (TMEM_LANES, n), "float32", f"S[({TMEM_LANES},{n}):(1@TLane,1@TCol)]",
                line, ast.Constant(allocs[0].get("origin", "tcgen05.alloc")))
    b = next(x for x in ex.buffers if x["name"] == ref.name)
    b["origin"] = allocs[0].get("origin", "tcgen05.alloc")
    b["placement"] = {"col": 0, "lane": 0}
    b["notes"] = (f"not declared by the kernel: the storage of its raw tcgen05.alloc of {n} columns modelled as one "
                  f"TMEM buffer, {TMEM_LANES} lanes x {n} 32-bit columns, element (lane, column) the cell "
                  "(tmem_ops.raw_alloc_buffer); raw TMEM addresses name it")
    ref.tmem_col, ref.tmem_ncols = 0, n
    ex.emitted[key] = ref
    return ref


def only_buffer(env, ex) -> tuple[BufferRef, str]:
    """For an instruction whose columns are not given here (instr_ops.py's tcgen05.mma): the
    kernel's only TMEM buffer, when a raw number is relative to the allocation base."""
    ok, why = _whole_pool(env, ex)
    if not ok:
        raise ConvertError(why)
    roots = _tmem_roots(ex) or [r for r in [raw_alloc_buffer(env, ex)] if r is not None]
    if len(roots) != 1:
        raise ConvertError(f"a raw TMEM address with {len(roots)} TMEM buffers: which one it names is not derived")
    return roots[0], (f"raw TMEM address: {why}, so the allocation starts at lane 0, column 0, and {roots[0].name} "
                      "(the only TMEM buffer) starts there")


def named_buffer(addr, c0: int, c1: int, env, ex, form: str | None = None) -> tuple[BufferRef, str]:
    """The TMEM buffer the address names for columns c0 .. c1 - 1, with why.  `form`: the
    instruction (tcgen05.cp), for columns in nested buffers (tmem_nesting.py)."""
    if isinstance(addr, TmemAddr) and addr.buf is not None:
        return addr.buf, f"{addr.buf.name}.allocated_addr (column {addr.buf.tmem_col} of the pool)"
    ok, why = _whole_pool(env, ex)
    if not ok:
        raise ConvertError(why)
    roots = _tmem_roots(ex) or [r for r in [raw_alloc_buffer(env, ex)] if r is not None]
    known = [r for r in roots if isinstance(getattr(r, "tmem_col", None), int) and
             getattr(r, "tmem_ncols", None) is not None]
    if len(roots) == 1 and not known:
        return roots[0], (f"raw TMEM address: {why}, so the allocation starts at lane 0, column 0, and "
                          f"{roots[0].name} (the only TMEM buffer) starts there")
    hits = [r for r in known if r.tmem_col <= c0 and c1 <= r.tmem_col + r.tmem_ncols]
    unknown = [r.name for r in roots if r not in known]
    if len(hits) == 1 and not unknown:
        r = hits[0]
        return r, (f"raw TMEM address: {why} (base lane 0, column 0); columns "
                   f"{c0}..{c1 - 1} lie in {r.name} (columns {r.tmem_col}..{r.tmem_col + r.tmem_ncols - 1}) only")
    if len(hits) > 1 and not unknown and form == "tcgen05.cp":
        import tmem_nesting
        r, how = tmem_nesting.choose(hits, c0, c1, form, ex)
        return r, f"raw TMEM address: {why} (base lane 0, column 0); {how}"
    if len(hits) > 1:
        raise ConvertError(f"raw TMEM columns {c0}..{c1 - 1} lie in several TMEM buffers "
                           f"({', '.join(r.name for r in hits)}): which one the instruction means is not fixed")
    if unknown:
        raise ConvertError(f"raw TMEM columns {c0}..{c1 - 1}: the columns of {', '.join(unknown)} are not derived, "
                           "so which buffer they name is not known")
    raise ConvertError(f"raw TMEM columns {c0}..{c1 - 1} lie in no TMEM buffer of the kernel")


def _unpacked16(buf: BufferRef):
    """(rows, cols) of a 16-bit buffer holding one element in the low half of each 32-bit column,
    `S[(R,C):(1@TLane,2@TCol)]` (TCol counts 16-bit units: element c at column c, bits 0..15) —
    what .pack::16b reads and .unpack::16b writes (PTX ISA §9.7.16.8.2)."""
    m = _UNPACKED.match(buf.layout or "")
    if not m or len(buf.shape) != 2 or (int(m.group(1)), int(m.group(2))) != tuple(buf.shape) or \
            buf.dtype not in ("float16", "bfloat16", "uint16", "int16"):
        return None
    return int(m.group(1)), int(m.group(2))


def tmem_box(buf: BufferRef, lanes: tuple, cols: tuple, what: str, pack: bool = False) -> str:
    """The region of buf holding TMEM lanes x columns (relative to the allocation base)."""
    rc = _unpacked16(buf) if pack else _plain_cols(buf)
    if pack and rc is None:
        raise ConvertError(f"{what}: .pack::16b / .unpack::16b moves the low 16 bits of each 32-bit column; TMEM "
                           f"buffer {buf.name} ({buf.dtype}, {buf.layout}) is not a 16-bit buffer with one element per "
                           "column (S[(R,C):(1@TLane,2@TCol)])")
    if not pack and (rc is None or buf.dtype not in ("float32", "uint32", "int32")):
        raise ConvertError(f"{what}: TMEM buffer {buf.name} ({buf.dtype}, {buf.layout}) is not a plain 32-bit lane x "
                           "column buffer, so the logical elements of those cells are not derived here")
    start = getattr(buf, "tmem_col", 0)
    start = start if isinstance(start, int) else 0
    (l0, l1), (c0, c1) = lanes, (cols[0] - start, cols[1] - start)
    if l0 < 0 or l1 > rc[0] or c0 < 0 or c1 > rc[1]:
        raise ConvertError(f"{what}: lanes {lanes[0]}..{lanes[1] - 1}, columns {cols[0]}..{cols[1] - 1} are outside "
                           f"{buf.name} {tuple(buf.shape)} at column {start}")
    rows = ":" if (l0, l1) == (0, rc[0]) else f"{l0}:{l1}"
    cs = ":" if (c0, c1) == (0, rc[1]) else f"{c0}:{c1}"
    return f"{buf.name}[{rows}, {cs}]"


# -- the register side -------------------------------------------------------------------------


def _digits(shape: str, num: int) -> tuple[list, list]:
    """(lane digits, column digits) of the register view, most significant first: each
    (extent, stride text) — a lane or column bit moved by a thread bit (k@tid_in_wg) or a
    register bit (k, on m)."""
    lanes, cpr, rpr, _mx, tsteps, rsteps = SHAPES[shape]
    src = {}
    for b, s in enumerate(tsteps):
        if s != "imm":
            src[s] = f"{1 << b}@tid_in_wg"
    for b, s in enumerate(rsteps):
        src[s] = str(1 << b)
    lane_d = [(2, src[(1 << j, 0)]) for j in reversed(range(lanes.bit_length() - 1))]
    col_d = [(num, str(rpr))] if num > 1 else []
    col_d += [(2, src[(0, 1 << j)]) for j in reversed(range(cpr.bit_length() - 1))]
    return lane_d, col_d


def reg_view_layout(shape: str, num: int, s0: int, pack: bool = False) -> tuple[tuple, str]:
    """(view shape, layout) of the register view of one instruction form (module docstring).
    With .pack::16b the view counts 16-bit halves (m = 2 register + half): every register digit's
    stride doubles and a last column digit (2:1) is the half, column C0 + 2d + h (§9.7.16.8.2)."""
    lanes, cpr = SHAPES[shape][0], SHAPES[shape][1]
    lane_d, col_d = _digits(shape, num)
    cols = cpr * num
    if pack:
        lane_d = [(e, st if "@" in st else str(2 * int(st))) for e, st in lane_d]
        col_d = [(e, st if "@" in st else str(2 * int(st))) for e, st in col_d] + [(2, "1")]
        cols *= 2
        s0 *= 2
    if shape == "16x32bx2":
        col_d = [(2, "16@tid_in_wg")] + col_d
        cols *= 2
    dims = [(4, "32@tid_in_wg")] + lane_d + col_d
    text = f"S[({','.join(str(e) for e, _ in dims)}):({','.join(s for _, s in dims)})]"
    return (4 * lanes, cols), text + (f" + {s0}" if s0 else "")


def _regs(call, args, ev, what):
    import fragments
    regs = []
    for a in args:
        v = ev.value(a.value) if isinstance(a, ast.Starred) else ev.value(a)
        regs.extend(v if isinstance(v, (tuple, list)) else [v])
    if not regs or not all(isinstance(r, fragments.RegElem) for r in regs):
        raise ConvertError(f"the {what} registers are not elements of one register array")
    arr = regs[0].array
    if any(r.array is not arr or r.index != regs[0].index + i for i, r in enumerate(regs)):
        raise ConvertError(f"the {what} registers are not consecutive registers of one array")
    if arr.dtype not in ("float32", "uint32", "int32"):
        raise ConvertError(f"register array {arr.name} of {arr.dtype}: .b32 moves 32-bit registers")
    return regs, arr


def _taddr(v, what):
    if isinstance(v, TmemAddr):
        return v
    if isinstance(v, int) and not isinstance(v, bool):
        return TmemAddr(v, None)
    raise ConvertError(f"{what} {v!r} is not a TMEM address")


def ldst_ops(call: ast.Call, text: str, env, ex, emit) -> list[dict]:
    m = re.match(r"tcgen05\.(ld|st)\.sync\.aligned\.(32x32b|16x64b|16x128b|16x256b|16x32bx2)\.x(\d+)"
                 r"(\.pack::16b|\.unpack::16b)?\.b32$", text)
    if not m:
        raise ConvertError(f"{text!r}: not a tcgen05.ld/st spelling")
    kind, shape, num, pack = "tcgen05." + m.group(1), m.group(2), int(m.group(3)), bool(m.group(4))
    lanes, cpr, rpr, mx, _t, _r = SHAPES[shape]
    if num & (num - 1) or num > mx:
        raise ConvertError(f".x{num} is not a legal .num for .{shape} (PTX ISA Tables 49/50: x1 .. x{mx})")
    split = shape == "16x32bx2"
    load = kind == "tcgen05.ld"
    n_fixed = 2 if split else 1
    args = call.args
    if len(args) <= n_fixed:
        raise ConvertError(f"{kind} needs an address{' and immHalfSplitoff' if split else ''} and registers")
    if load:
        reg_nodes, addr_node = args[:-n_fixed], args[-n_fixed]
        imm_node = args[-1] if split else None
    else:
        addr_node, imm_node, reg_nodes = args[0], (args[1] if split else None), args[n_fixed:]
    ev = Evaluator(env)
    regs, arr = _regs(call, reg_nodes, ev, "destination" if load else "source")
    if len(regs) != rpr * num:
        raise ConvertError(f".{shape}.x{num} moves {rpr * num} registers per thread, {len(regs)} are passed")
    imm = None
    if split:
        imm = ev.as_int(imm_node)
        if imm != cpr * num * (2 if pack else 1):
            raise ConvertError(f"immHalfSplitoff {imm}: the second half does not follow the first "
                               f"({cpr * num * (2 if pack else 1)} columns), so the two halves are not one box of TMEM")
    ws = ex.executing_warps()
    if ws is None:
        raise ConvertError(f"{kind} is executed by warps, and no thread index fixes the CTA's warps")
    s0 = regs[0].index
    cols = cpr * num * (2 if split else 1) * (2 if pack else 1)  # 32-bit columns from C0
    base = emit(ex, arr.name, "local", (128, arr.n), arr.dtype, f"S[(128,{arr.n}):(1@tid_in_wg,1)]",
                arr.line, arr.node)
    view = None
    out = []
    per = _per_warp_addr(addr_node, env, ws)
    from instr_ops import group_warps
    for group, t in group_warps(per):
        if t.lane >= TMEM_LANES:
            raise ConvertError(f"lane field {t.lane}: outside the {TMEM_LANES} TMEM lanes")
        buf, why = named_buffer(t, t.col, t.col + cols, env, ex)
        wgs: dict = {}
        for w in group:
            wgs.setdefault(w // 4, []).append(w)
        for wg in sorted(wgs):
            g = wgs[wg]
            whole = shape == "32x32b" and t.lane % 32 == 0 and sorted(w % 4 for w in g) == [0, 1, 2, 3]
            issues = [g] if whole else [[w] for w in g]
            for iw in issues:
                if (not whole or pack) and view is None:
                    vshape, vlay = reg_view_layout(shape, num, s0, pack)
                    vname = f"{arr.name}.{shape}x{num}" + (".pack16" if pack else "") + (f".r{s0}" if s0 else "")
                    view = emit(ex, vname, "local", vshape, buf.dtype if pack else arr.dtype, vlay, arr.line,
                                arr.node, view_of=base.name)
                if whole:
                    lane_rng = (0, TMEM_LANES)
                    r = view.name if pack else \
                        base.name if (s0, s0 + num) == (0, arr.n) else f"{base.name}[:, {s0}:{s0 + num}]"
                else:
                    s = iw[0] % 4
                    first = 32 * s + t.lane % 32
                    lane_rng = (first, first + lanes)
                    r = f"{view.name}[{s * lanes}:{(s + 1) * lanes}, :]"
                region = tmem_box(buf, lane_rng, (t.col, t.col + cols), "the " + ("load" if load else "store"), pack)
                op = {"kind": kind, "warps": iw, "shape": shape, "num": num}
                if pack:
                    op["pack"] = True
                if split:
                    op["imm_cols"] = imm
                op.update({"taddr": {"lane": t.lane, "col": t.col}, "tmem": region, "regs": r,
                           "notes": f"{why}; {arr.name} (line {arr.line}) registers {s0}..{s0 + len(regs) - 1}: "
                                    f"the .{shape} map of PTX ISA §9.7.16.2.3 (thread bits and register bits -> "
                                    "lane and column steps), lanes 32 (w % 4) + lane field mod 32"})
                out.append(op)
    return out


def _per_warp_addr(node, env, ws) -> dict:
    from instr_ops import per_warp
    return per_warp(lambda e: _taddr(e.value(node), "the address"), env, ws)
