"""Buffer allocations in TIRx kernel source and the model buffers they become.

    in the kernel                                   scope        layout written
    ----------------------------------------------  -----------  ---------------------------------
    T.Buffer(shape, dt[, layout=L]) (a parameter)   global       L, else row-major S[shape:strides]
    T.decl_buffer / T.alloc_buffer(shape[, dt],     scope=, else L, else TVM's "default": row-major
        scope=S, layout=L)                          global;      (zero-size or layout=None: storage
                                                    data=P: P's  only, not a model buffer)
    <smem pool>.alloc(shape[, dt], layout=L)        shared.dyn   L, else row-major ("default")
    <smem pool>.alloc(shape, dt, swizzle=S)         shared.dyn   mma_shared_layout(dt, S, shape)
    <pool>.alloc_tcgen05_mma_AB / alloc_mma         shared.dyn   mma_shared_layout(dt, mode, shape)
    <tmem pool>.alloc(shape, dt[, layout=L])        tmem         L, else default_tmem_layout
    alloc_tcgen05_mma_D / _A, alloc_mma_D / _A      tmem         tmem_mma_operand_layout(...)
    alloc_sf(shape, dt, sf_per_mma=, sf_reuse=)     tmem         sf_tmem_layout(...)
    alloc_tcgen05_ldst_frag(instr, shape, dt)       local        tcgen05_atom_layout(...)
    wg_reg_tile(cols[, rows=], dtype=)              local        wg_local_layout(cols[, rows=])
    alloc_cast_frag(src, dt)                        local        src's layout, dtype dt
    X.view / .sub / .rearrange / ... (views.py)     X's scope    derived from X's layout (view_of X)

A missing dtype is float32 (TVM's default everywhere here).  With data=P the scope is P's
storage scope whatever scope= says (TVM's BufferDecl, src/tirx/script/builder/ir.cc:55-57).
The translation of each allocator into the notation is corpus_notation.Translator's (the
same mapping as docs/corpus-conversion.md); this file decides scope, shape and dtype and
where a buffer stays undecided.  An allocation whose shape, dtype or layout depends on an
Unresolved name is not written: it is listed with that name (Extraction.block).
"""
from __future__ import annotations

import ast
import copy
import math

from corpus_notation import DTYPE_BITS, dotted, make_dtype, strip_builder
from kernel_env import (BufferRef, ConvertError, LayoutExpr, Pool, Unresolved, UnresolvedError)
import views

NOT_AN_ALLOCATION = object()


class _AllocationRoot:
    """The root of a derived chain that starts at an allocation call (views.buffer_of allocates it)."""


ALLOCATION_ROOT = _AllocationRoot()

SMEM_SEMANTIC = {"alloc_tcgen05_mma_AB", "alloc_mma"}
TMEM_SEMANTIC = {"alloc_tcgen05_mma_D", "alloc_mma_D", "alloc_tcgen05_mma_A", "alloc_mma_A", "alloc_sf"}
LOCAL_SEMANTIC = {"alloc_tcgen05_ldst_frag", "wg_reg_tile", "alloc_cast_frag"}
PLAIN = {"decl_buffer", "alloc_buffer", "alloc_shared", "alloc_local"}
# T.alloc_shared / T.alloc_local are alloc_buffer with the scope preset (functools.partial;
# apache/tvm 5d4dc87 python/tvm/tirx/script/builder/ir.py:1864-1865)
PRESET_SCOPE = {"alloc_shared": "shared", "alloc_local": "local"}
ALLOCATOR_NAMES = SMEM_SEMANTIC | TMEM_SEMANTIC | LOCAL_SEMANTIC | PLAIN | {"alloc", "view"}
SCOPES = {"shared.dyn", "shared", "tmem", "local", "global"}

SMEM_POOLS = {"SMEMPool", "smem_pool", "SmemPool"}
TMEM_POOLS = {"TMEMPool", "tmem_pool", "TmemPool"}


def short_name(func) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _root(node, env):
    """The env value at the root of a chain X.m(...).n(...) / X.sub[...], or None; a chain on an
    allocation call (pool.alloc_tcgen05_mma_AB(...).sub[...]) has the pool object as its root,
    and ALLOCATION_ROOT says so."""
    while True:
        if isinstance(node, ast.Call) and not views.is_derived(node) and short_name(node.func) in ALLOCATOR_NAMES:
            return ALLOCATION_ROOT
        if isinstance(node, ast.Name):
            return views.lookup(env, node.id)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            node = node.func.value
        elif isinstance(node, (ast.Subscript, ast.Attribute)):
            node = node.value
        else:
            return None


def pool_object(call: ast.Call, ev, line: int):
    name = strip_builder(dotted(call.func) or "").split(".")[-1]
    if name in SMEM_POOLS:
        import flow_pool  # where SMEMPool puts each allocation, for elem_offset (flow_pool.py)
        import smem_placement  # T.SMEMPool() owns its storage: its offsets place the buffers
        p = Pool("smem", line, {"_owns": name == "SMEMPool" and smem_placement.pool_owns_storage(call)})
        flow_pool.new_pool(p, name)
        return p
    if name in TMEM_POOLS:
        args = {}
        for k in call.keywords:
            if k.arg in ("total_cols", "cta_group", "alloc_warp", "dealloc_warp"):
                try:
                    args[k.arg] = ev.value(k.value)
                except (ConvertError, ArithmeticError, TypeError, KeyError, IndexError) as e:
                    args[k.arg] = Unresolved(k.arg, line, f"argument of TMEMPool: {e}",
                                             e.item if isinstance(e, UnresolvedError) else None)
        return Pool("tmem", line, args)
    return None


def receiver(call: ast.Call, env: dict):
    f = call.func
    if isinstance(f, ast.Attribute):
        d = dotted(f.value)
        if d is not None and d in env:
            return d, env[d]
        if isinstance(f.value, ast.Call):  # K.smem_pool().alloc(...)
            n = strip_builder(dotted(f.value.func) or "").split(".")[-1]
            if n in SMEM_POOLS:
                return n, Pool("smem", call.lineno, {})
            if n in TMEM_POOLS:
                return n, Pool("tmem", call.lineno, {})
        return d, None
    return None, None


def _int_tuple(ev, node) -> tuple:
    nodes = ev.tuple_nodes(node)
    return tuple(ev.as_int(n) for n in nodes)


def _kw(call, name, pos=None):
    for k in call.keywords:
        if k.arg == name:
            return k.value
    if pos is not None and len(call.args) > pos:
        return call.args[pos]
    return None


DEFAULT_DTYPE = "float32"  # decl_buffer / alloc_buffer / SMEMPool.alloc / TMEMPool.alloc (ir.py:813, 1783;
#                            alloc_pool.py:262, 425)


def _dtype(ev, node, default: str | None = None) -> str:
    if node is None:
        if default is not None:
            return default
        raise ConvertError("no dtype argument")
    v = ev.value(node)
    if not isinstance(v, str):
        raise ConvertError(f"{ast.unparse(node)!r} is not a dtype")
    d = make_dtype(str(v))
    if str(d) not in DTYPE_BITS:
        raise ConvertError(f"dtype {d!r} is not one the model format knows")
    return str(d)


def row_major(shape: tuple) -> str:
    strides, acc = [], 1
    for e in reversed(shape):
        strides.append(acc)
        acc *= e
    strides.reverse()
    if len(shape) == 1:
        return f"S[{shape[0]}:1]"
    return "S[(" + ",".join(map(str, shape)) + "):(" + ",".join(map(str, strides)) + ")]"


def _canonical_call(call: ast.Call, recv_name: str) -> ast.Call:
    """The call with its receiver renamed to the one corpus_notation recognises."""
    c = copy.copy(call)
    c.func = ast.Attribute(value=ast.Name(id=recv_name, ctx=ast.Load()), attr=call.func.attr, ctx=ast.Load())
    return c


def allocation(call, env: dict, ev, ex, target: str | None, line: int, cond):
    """The BufferRef an allocation call or a derived view (views.py: X.view(...), X.sub[...],
    ...) binds (or an Unresolved), or NOT_AN_ALLOCATION."""
    if isinstance(call, ast.Call) and short_name(call.func) == "meta_var" and len(call.args) == 1 and \
            views.is_derived(call.args[0]):
        call = call.args[0]  # T.meta_var(X.rearrange(...)) is X.rearrange(...)
    import per_warp  # a buffer per warp: a view of one, or one whose arguments differ by warp (per_warp.py)
    derived = views.is_derived(call) and (isinstance(_root(call, env), (BufferRef, Unresolved, _AllocationRoot,
                                                                         per_warp.PerWarp))
                                          or views.is_reg_view(call, env))
    if isinstance(call, ast.Subscript) and not derived:
        return NOT_AN_ALLOCATION
    short = "sub" if isinstance(call, ast.Subscript) else short_name(call.func)
    if short not in ALLOCATOR_NAMES and not derived:
        return NOT_AN_ALLOCATION
    if short in PRESET_SCOPE and not (dotted(call.func) or "").startswith(("T.", "Tx.", "tirx.")) and \
            not (short == "alloc_local" and (dotted(call.func) or "").startswith(("K.", "Kern."))):
        # the TVMScript partials, and the kern DSL's alloc_local (alloc_buffer(shape, dtype,
        # scope="local"), kern/__init__.py:331-333) where it is not a 1-D register array
        # (fragments.reg_array takes those first)
        return NOT_AN_ALLOCATION
    rname, rv = (None, None) if derived else receiver(call, env)
    if short == "alloc" and not isinstance(rv, Pool):
        return NOT_AN_ALLOCATION
    if short == "view" and not derived:
        return NOT_AN_ALLOCATION
    name = target or f"buffer@{line}"
    label = f"buffer {name}"
    try:
        if derived:
            buf = views.buffer_of(call, env, ev, ex, name, line)
        else:
            buf = _allocate(call, short, rname, rv, env, ev, ex, name, line)
    except StorageOnly as s:
        u = Unresolved(name, line, s.reason)
        u.storage_scope, u.storage_start = s.scope, s.start
        return u
    except UnresolvedError as e:
        if derived or not isinstance(rv, Pool):  # not a pool's: building it per warp moves no offset
            pw = per_warp.split(lambda n: views.buffer_of(call, env, ev, ex, n, line) if derived else
                                _allocate(call, short, rname, rv, env, ev, ex, n, line), name, line, ex, e.item)
            if pw is not None:
                return pw
        ex.block(label, line, e.item)
        _pool_lost(rv, derived, name, line)
        return Unresolved(name, line, f"allocation at line {line} is undecided", e.item)
    except (ConvertError, ArithmeticError, TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        ex.block(label, line, None, f"not extracted: {e}")
        _pool_lost(rv, derived, name, line)
        return Unresolved(name, line, f"allocation at line {line} was not extracted ({e})")
    if buf is None:
        return Unresolved(name, line, "an allocation without a layout (not a model buffer)")
    if isinstance(rv, Pool) and rv.kind == "smem":
        import flow_pool  # its byte offset in the pool, when followed (flow_pool.py)
        flow_pool.place(buf, call)
    if isinstance(rv, Pool) and rv.kind == "smem" and not derived:
        import smem_placement  # where the pool's bump allocator puts it (smem_placement.py)
        smem_placement.note_pool_alloc(rv, buf, call, short, ev, ex)
        buf.smem_pool = rv
        if buf not in rv.__dict__.setdefault("members", []):
            rv.members.append(buf)  # the pool's buffers, for an address past one of them (instr_ops.offset_ptr)
        import scoping
        if cond is not None and not scoping.runtime_test(cond.cause):
            # a Python-bool test decides at trace time whether this allocation moves the pool's offset
            rv.args["_smem"] = {"offset": f"after {buf.name} (line {line}), allocated under the undecided condition "
                                          f"of line {cond.line}"}
    if isinstance(rv, Pool) and rv.kind == "tmem":
        import tmem_ops  # where the pool's bump allocator puts it (tmem_ops.py)
        tmem_ops.note_pool_alloc(rv, buf, call, short, ev, ex)
    elif buf.scope == "tmem" and not derived:  # a derived view is placed through its base (views.py)
        import tmem_ops
        tmem_ops.note_decl(buf, call, ev, ex)
    if cond is not None:  # the layout is static; the condition only decides which threads use it
        for b in ex.buffers:
            if b["name"] == buf.name and "notes" not in b:
                b["notes"] = f"allocated under the condition at line {cond.line} ({cond.reason})"
    return buf


def _pool_lost(rv, derived, name, line) -> None:
    """A pool allocation the extraction did not follow: the pool's later offsets are not known
    (its bump pointer moved by an amount not derived), so nothing after it is placed."""
    if not isinstance(rv, Pool) or derived:
        return
    why = f"after {name} (line {line}), an allocation the extraction did not derive"
    if rv.kind == "smem":
        rv.args["_smem"] = {"offset": why}
    else:
        rv.args["_offset"] = why


def _allocate(call, short, rname, rv, env, ev, ex, name, line):
    view_of = None
    default_layout = False  # TVM's "default" row-major layout, no layout= written
    if short in PLAIN:
        shape = _int_tuple(ev, call.args[0] if call.args else _kw(call, "shape"))
        dtype = _dtype(ev, _kw(call, "dtype", 1), DEFAULT_DTYPE)
        scope_node = _kw(call, "scope")
        scope = ev.value(scope_node) if scope_node is not None else PRESET_SCOPE.get(short, "global")
        data = _kw(call, "data", 2)
        start = 0  # bytes from the storage pointer: an allocation of its own starts at it
        if data is not None:
            # TVM: with data= the buffer's scope is the storage pointer's scope, whatever scope=
            # says (src/tirx/script/builder/ir.cc:55-57, BufferDecl)
            b = views.lookup(env, data.value.id) if isinstance(data, ast.Attribute) and data.attr == "data" and \
                isinstance(data.value, ast.Name) else None
            e_node = _kw(call, "elem_offset", 4)
            same = isinstance(b, BufferRef) and isinstance(e_node, ast.Attribute) and e_node.attr == "elem_offset" \
                and isinstance(e_node.value, ast.Name) and e_node.value.id == data.value.id
            if same:
                # elem_offset=X.elem_offset over X.data: X's own start, when the element sizes agree
                if DTYPE_BITS[dtype] != DTYPE_BITS[b.dtype]:
                    raise ConvertError(f"elem_offset={ast.unparse(e_node)} counts {b.dtype} elements as {dtype} "
                                       "elements: where this declaration starts relative to it is not derived")
                view_of, scope = b.name, b.scope
                start = getattr(b, "start_bytes", None)
            else:
                start = _decl_start(call, dtype, ev)
            if same:
                pass
            elif isinstance(b, BufferRef):
                view_of = _view_start(b, start, data)
                scope = b.scope
            elif isinstance(b, Unresolved) and getattr(b, "storage_scope", None) is not None:
                scope = b.storage_scope
                if getattr(b, "storage_start", None) is None:
                    start = None
                else:
                    start += b.storage_start
            elif type(b).__name__ == "RegArray":
                scope = "local"  # a register array (alloc_local, x: T.f32[N]): local storage
            elif scope_node is None:
                raise ConvertError(f"declared over the storage of {ast.unparse(data)!r} without scope=: that "
                                   "storage is not allocated in this file, so its scope is not known")
            else:
                start = None
        lay_node = _kw(call, "layout")
        if lay_node is None or _is_default(lay_node):
            # layout="default" (decl_buffer's / alloc_buffer's default): TileLayout(S[shape]),
            # row-major (python/tvm/tirx/script/builder/ir.py:126-139, 811-822, 1781-1792)
            if math.prod(shape) == 0:
                return _storage_only(scope, "a zero-size allocation (storage for declarations over it)", start)
            if scope == "tmem":
                # "default" is S[shape] in every scope but trn (ir.py:136): on the memory axis m,
                # which is not a TMEM layout (TLane/TCol); such a buffer's columns are addressed by
                # raw instructions, so it is storage, not a model buffer
                return _storage_only(scope, "a TMEM declaration without layout=: TVM's default layout S[shape] is on "
                                            "the memory axis m, not a TMEM layout (not a model buffer)")
            layout, size = row_major(shape), math.prod(shape)
            default_layout = True
        elif isinstance(lay_node, ast.Constant) and lay_node.value is None:
            return _storage_only(scope, "an allocation with layout=None (not a model buffer)")
        else:
            lay = ev.layout(lay_node)
            layout, size = lay.as_layout(), lay.size
    elif short == "alloc":
        pool: Pool = rv
        shape = _int_tuple(ev, call.args[0])
        dtype = _dtype(ev, _kw(call, "dtype", 1), DEFAULT_DTYPE)
        lay_node = _kw(call, "layout")
        if pool.kind == "smem":
            scope = "shared.dyn"
            if lay_node is not None and not _is_default(lay_node):
                lay = ev.layout(lay_node)
            elif _kw(call, "swizzle") is not None and not (isinstance(_kw(call, "swizzle"), ast.Constant) and
                                                           _kw(call, "swizzle").value is None):
                lay = ev.layout(_canonical_call(call, "pool"))
            else:
                # SMEMPool.alloc's layout="default" (apache/tvm 5d4dc87 python/tvm/backend/cuda/lang/
                # alloc_pool.py:422-443 -> ir.py:136, TileLayout(S[shape])); the kern DSL's
                # smem.alloc without swizzle= is that call (tirx_kernels/kern/smem.py:493-505)
                if math.prod(shape) == 0:
                    return _storage_only(scope, "a zero-size allocation")
                layout, size = row_major(shape), math.prod(shape)
                import buffer_strides
                buffer_strides.check(call, "alloc", shape, None, ev)
                ref = _finish(ex, name, scope, shape, dtype, layout, size, line, call, None)
                ref.default_layout = True
                return ref
        else:
            scope = "tmem"
            lay = ev.layout(lay_node) if lay_node is not None else ev.layout(_canonical_call(call, "tmem_pool"))
        layout, size = lay.as_layout(), lay.size
    elif short in SMEM_SEMANTIC:
        scope = "shared.dyn"
        shape = _int_tuple(ev, call.args[0])
        dt_node = _kw(call, "dtype", 1)
        dtype = _dtype(ev, dt_node) if dt_node is not None else "float16"
        lay = ev.layout(call)
        layout, size = lay.as_layout(), lay.size
    elif short in TMEM_SEMANTIC:
        scope = "tmem"
        shape = _int_tuple(ev, call.args[0])
        dtype = _dtype(ev, _kw(call, "dtype", 1))
        lay = ev.layout(call)
        layout, size = lay.as_layout(), lay.size
    elif short == "alloc_tcgen05_ldst_frag":
        scope = "local"
        shape = _int_tuple(ev, call.args[1])
        dtype = _dtype(ev, _kw(call, "dtype", 2))
        lay = ev.layout(call)
        layout, size = lay.as_layout(), lay.size
    elif short == "wg_reg_tile":
        scope = "local"
        cols = ev.as_int(call.args[0])
        rows_node = _kw(call, "rows")
        rows = ev.as_int(rows_node) if rows_node is not None else 128
        shape = (rows, cols)
        # dtype defaults to float32 (python/tvm/tirx/script/builder/ir.py:902)
        dtype = _dtype(ev, _kw(call, "dtype", 1), DEFAULT_DTYPE)
        lay = ev.layout(call)
        layout, size = lay.as_layout(), lay.size
    elif short == "alloc_cast_frag":
        scope = "local"
        src = call.args[0]
        b = env.get(src.id) if isinstance(src, ast.Name) else None
        if isinstance(b, Unresolved):
            raise UnresolvedError(b)
        if not isinstance(b, BufferRef):
            raise ConvertError(f"alloc_cast_frag of {ast.unparse(src)!r}, which is not a buffer of this file")
        shape, layout, size = b.shape, b.layout, math.prod(b.shape)
        dtype = _dtype(ev, _kw(call, "dtype", 1))
    else:
        return None
    if short in PLAIN or short == "alloc":
        import buffer_strides  # strides= next to the layout (buffer_strides.py)
        buffer_strides.check(call, short, shape, None if default_layout else layout, ev)
    ref = _finish(ex, name, scope, shape, dtype, layout, size, line, call, view_of)
    if short in PLAIN:
        ref.start_bytes = start  # bytes from its storage pointer (None: not known)
        ref.default_layout = default_layout
        ref.own_registers = scope == "local" and view_of is None  # its own per-thread storage (buffer_regs.py)
    elif short in LOCAL_SEMANTIC:
        ref.start_bytes = 0  # its own registers
    if short in PLAIN and scope == "tmem":
        import tmem_placement  # allocated_addr= : the buffer's TMEM column (tmem_placement.py)
        tmem_placement.record(call, ev, ex, ref)
        _alias_tmem(ex, ref)
    return ref


def _tmem_cols(b: dict):
    """The 32-bit columns [lo, hi) a placed TMEM buffer covers, or None when not known."""
    try:
        lay = views.layout_text.parse(b["layout"])
    except ConvertError:
        return None
    span = 1 + sum((e - 1) * st for e, st, a in lay.shard if a == "TCol") + lay.offset.get("TCol", 0)
    lo = b["placement"]["col"]
    return lo, lo + -(-span * DTYPE_BITS[b["dtype"]] // 32)


def _alias_tmem(ex, ref) -> None:
    """TMEM declarations with allocated_addr= over columns an earlier placed TMEM declaration
    covers are that storage re-declared: TVM aliases TMEM buffers by column address
    (python/tvm/tirx/_buffer_view.py:32-55, _redecl), as printed kernels do (`o_tmem`, `buffer_9`,
    `o_win` all at allocated_addr=0).  Such a buffer becomes a view of the earliest one whose
    columns contain its own ({"buffer", "col"}), so kernel.overlap does not take the re-declaration
    for a second allocation; a partial overlap stays two placed buffers (kernel.overlap judges it)."""
    b = next((x for x in ex.buffers if x["name"] == ref.name), None)
    if b is None or "placement" not in b or b["placement"].get("lane", 0) != 0:
        return
    mine = _tmem_cols(b)
    if mine is None:
        return
    for p in ex.buffers:
        if p is b:
            break
        if p.get("scope") != "tmem" or "placement" not in p or p["placement"].get("lane", 0) != 0:
            continue
        theirs = _tmem_cols(p)
        if theirs is not None and theirs[0] <= mine[0] and mine[1] <= theirs[1]:
            del b["placement"]
            b["view_of"] = {"buffer": p["name"], "col": mine[0] - theirs[0]}
            notes = "re-declares TMEM columns of " + p["name"] + " (allocated_addr aliasing)"
            b["notes"] = b["notes"] + "; " + notes if "notes" in b else notes
            return


def _finish(ex, name, scope, shape, dtype, layout, size, line, call, view_of):
    if scope not in SCOPES:
        raise ConvertError(f"scope {scope!r} is not one the model format knows ({', '.join(sorted(SCOPES))})")
    if size is not None and size != math.prod(shape):
        raise ConvertError(f"the layout has {size} elements but the shape {shape} has {math.prod(shape)}")
    return _emit(ex, name, scope, shape, dtype, layout, line, call, view_of)


class StorageOnly(Exception):
    """An allocation that is storage only (no model buffer), with the scope of that storage and
    where it starts from its storage pointer (bytes; None when not known)."""

    def __init__(self, scope, reason, start=None):
        super().__init__(reason)
        self.scope, self.reason, self.start = scope, reason, start


def _storage_only(scope, reason, start=None):
    raise StorageOnly(scope, reason, start)


def _decl_start(call, dtype: str, ev) -> int:
    """Where decl_buffer(..., data=P, elem_offset=E | byte_offset=B) starts: E elements of its
    dtype (or B bytes) from the pointer P, 0 without either (ir.py:1781-1830, _get_elem_offset;
    the elem_offset is relative to the data pointer, not to the buffer P was taken from)."""
    e_node, b_node = _kw(call, "elem_offset", 4), _kw(call, "byte_offset", 5)
    if e_node is not None and not (isinstance(e_node, ast.Constant) and e_node.value is None):
        bits = ev.as_int(e_node) * DTYPE_BITS[dtype]
        if bits % 8:
            raise ConvertError(f"elem_offset {ast.unparse(e_node)} of {dtype} is not a whole byte")
        return bits // 8
    if b_node is not None and not (isinstance(b_node, ast.Constant) and b_node.value is None):
        return ev.as_int(b_node)
    return 0


def _view_start(b: BufferRef, start: int, data):
    """view_of for a declaration over b's storage starting `start` bytes from its pointer."""
    base = getattr(b, "start_bytes", None)
    if base is None:
        if start == 0 and b.scope == "local":
            return b.name
        raise ConvertError(f"declared over the storage of {ast.unparse(data)!r}: where {b.name} starts in that "
                           "storage (a pool allocation's offset) is not known, so neither is where this "
                           "declaration starts relative to it")
    rel = start - base
    if rel < 0:
        raise ConvertError(f"declared over the storage of {ast.unparse(data)!r}, {start} bytes from its pointer: "
                           f"before {b.name}, which starts {base} bytes from it")
    return {"buffer": b.name, "offset_bytes": rel} if rel else b.name


def _is_default(node) -> bool:
    return isinstance(node, ast.Constant) and node.value == "default"


def _emit(ex, name, scope, shape, dtype, layout, line, node, view_of=None) -> BufferRef:
    # The same allocation met again (a loop the walker unrolls, a helper called twice) is the
    # same buffer: one storage in TIRx, so one model buffer.
    vkey = tuple(sorted(view_of.items())) if isinstance(view_of, dict) else view_of
    key = (name, line, scope, tuple(shape), dtype, layout, vkey, ex.origin(line, node))
    seen = ex.emitted.get(key)
    if seen is not None:
        return seen
    mname = ex.unique(name)
    b = {"name": mname, "scope": scope, "shape": list(shape), "dtype": dtype, "layout": layout}
    if view_of is not None:
        b["view_of"] = dict(view_of) if isinstance(view_of, dict) else {"buffer": view_of}
    b["origin"] = ex.origin(line, node)
    ex.buffers.append(b)
    ref = BufferRef(mname, scope, tuple(shape), dtype, layout, line)
    ex.emitted[key] = ref
    return ref


def global_buffer(pname: str, ann: ast.Call, env, ev, ex, line: int):
    try:
        shape = _int_tuple(ev, ann.args[0] if ann.args else _kw(ann, "shape"))
        dt_node = _kw(ann, "dtype", 1)
        dtype = _dtype(ev, dt_node) if dt_node is not None else "float32"
        lay_node = _kw(ann, "layout")
        if lay_node is not None:
            lay = ev.layout(lay_node)
            layout = lay.as_layout()
            if lay.size is not None and lay.size != math.prod(shape):
                raise ConvertError(f"the layout has {lay.size} elements but the shape has {math.prod(shape)}")
        else:
            layout = row_major(shape)
        scope_node = _kw(ann, "scope")
        scope = ev.value(scope_node) if scope_node is not None else "global"
        if scope not in SCOPES:
            raise ConvertError(f"scope {scope!r} is not one the model format knows")
        import buffer_strides  # strides= next to the layout (buffer_strides.py)
        buffer_strides.check(ann, "Buffer", shape, layout if lay_node is not None else None, ev)
        ref = _emit(ex, pname, scope, shape, dtype, layout, line, ann)
        ref.start_bytes = 0  # a parameter's data pointer is its start
        return ref
    except UnresolvedError as e:
        ex.block(f"buffer {pname}", line, e.item)
        return Unresolved(pname, line, "kernel parameter buffer is undecided", e.item)
    except (ConvertError, ArithmeticError, TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        ex.block(f"buffer {pname}", line, None, f"not extracted: {e}")
        return Unresolved(pname, line, f"kernel parameter buffer was not extracted ({e})")
