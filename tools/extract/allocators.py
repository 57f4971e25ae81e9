"""Buffer allocations in TIRx kernel source and the model buffers they become.

    in the kernel                                   scope        layout written
    ----------------------------------------------  -----------  ---------------------------------
    T.Buffer(shape, dt[, layout=L]) (a parameter)   global       L, else row-major S[shape:strides]
    T.decl_buffer / T.alloc_buffer(shape, dt,       scope=, else L (a layout-less one is not a
        scope=S, layout=L)                          global       model buffer: no layout to check)
    <smem pool>.alloc(shape, dt, layout=L)          shared.dyn   L
    <smem pool>.alloc(shape, dt, swizzle=S)         shared.dyn   mma_shared_layout(dt, S, shape)
    <pool>.alloc_tcgen05_mma_AB / alloc_mma         shared.dyn   mma_shared_layout(dt, mode, shape)
    <tmem pool>.alloc(shape, dt[, layout=L])        tmem         L, else default_tmem_layout
    alloc_tcgen05_mma_D / _A, alloc_mma_D / _A      tmem         tmem_mma_operand_layout(...)
    alloc_sf(shape, dt, sf_per_mma=, sf_reuse=)     tmem         sf_tmem_layout(...)
    alloc_tcgen05_ldst_frag(instr, shape, dt)       local        tcgen05_atom_layout(...)
    wg_reg_tile(cols[, rows=], dtype=)              local        wg_local_layout(cols[, rows=])
    alloc_cast_frag(src, dt)                        local        src's layout, dtype dt
    X.view(*shape, layout=L[, dtype=])              X's scope    L, a view of X (view_of)

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

NOT_AN_ALLOCATION = object()

SMEM_SEMANTIC = {"alloc_tcgen05_mma_AB", "alloc_mma"}
TMEM_SEMANTIC = {"alloc_tcgen05_mma_D", "alloc_mma_D", "alloc_tcgen05_mma_A", "alloc_mma_A", "alloc_sf"}
LOCAL_SEMANTIC = {"alloc_tcgen05_ldst_frag", "wg_reg_tile", "alloc_cast_frag"}
PLAIN = {"decl_buffer", "alloc_buffer"}
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


def pool_object(call: ast.Call, ev, line: int):
    name = strip_builder(dotted(call.func) or "").split(".")[-1]
    if name in SMEM_POOLS:
        return Pool("smem", line, {})
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


def _dtype(ev, node) -> str:
    if node is None:
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


def allocation(call: ast.Call, env: dict, ev, ex, target: str | None, line: int, cond):
    """The BufferRef an allocation call binds (or an Unresolved), or NOT_AN_ALLOCATION."""
    short = short_name(call.func)
    if short not in ALLOCATOR_NAMES:
        return NOT_AN_ALLOCATION
    rname, rv = receiver(call, env)
    if short == "alloc" and not isinstance(rv, Pool):
        return NOT_AN_ALLOCATION
    if short == "view" and not isinstance(rv, (BufferRef, Unresolved)):
        return NOT_AN_ALLOCATION
    name = target or f"buffer@{line}"
    label = f"buffer {name}"
    try:
        buf = _allocate(call, short, rname, rv, env, ev, ex, name, line)
    except UnresolvedError as e:
        ex.block(label, line, e.item)
        return Unresolved(name, line, f"allocation at line {line} is undecided", e.item)
    except (ConvertError, ArithmeticError, TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        ex.block(label, line, None, f"not extracted: {e}")
        return Unresolved(name, line, f"allocation at line {line} was not extracted ({e})")
    if buf is None:
        return Unresolved(name, line, "an allocation without a layout (not a model buffer)")
    if isinstance(rv, Pool) and rv.kind == "tmem":
        import tmem_ops  # where the pool's bump allocator puts it (tmem_ops.py)
        tmem_ops.note_pool_alloc(rv, buf, call, short, ev, ex)
    elif buf.scope == "tmem":
        import tmem_ops
        tmem_ops.note_decl(buf, call, ev, ex)
    if cond is not None:  # the layout is static; the condition only decides which threads use it
        for b in ex.buffers:
            if b["name"] == buf.name and "notes" not in b:
                b["notes"] = f"allocated under the condition at line {cond.line} ({cond.reason})"
    return buf


def _allocate(call, short, rname, rv, env, ev, ex, name, line):
    view_of = None
    if short == "view":
        if isinstance(rv, Unresolved):
            raise UnresolvedError(rv)
        base: BufferRef = rv
        lay_node = _kw(call, "layout")
        dt_node = _kw(call, "dtype")
        dtype = _dtype(ev, dt_node) if dt_node is not None else base.dtype
        args = call.args
        if len(args) == 1 and not isinstance(args[0], ast.Starred):
            v = ev.value(args[0])
            shape = tuple(v) if isinstance(v, (tuple, list)) else (v,)
        else:
            shape = tuple(ev.as_int(a) for a in args)
        if lay_node is not None:
            lay = ev.layout(lay_node)
            layout, size = lay.as_layout(), lay.size
        elif shape == tuple(base.shape) and dtype == base.dtype and base.layout is not None:
            layout, size = base.layout, math.prod(shape)
        else:
            raise ConvertError("a view to another shape or dtype without layout=: the layout TIRx derives "
                               "for it is not modelled")
        scope = base.scope
        view_of = base.name
    elif short in PLAIN:
        shape = _int_tuple(ev, call.args[0] if call.args else _kw(call, "shape"))
        dtype = _dtype(ev, _kw(call, "dtype", 1))
        scope_node = _kw(call, "scope")
        scope = ev.value(scope_node) if scope_node is not None else "global"
        data = _kw(call, "data", 2)
        if data is not None:
            b = env.get(data.value.id) if isinstance(data, ast.Attribute) and data.attr == "data" and \
                isinstance(data.value, ast.Name) else None
            if isinstance(b, BufferRef):
                view_of = b.name
                if scope_node is None:
                    scope = b.scope
            elif scope_node is None:
                raise ConvertError(f"declared over the storage of {ast.unparse(data)!r} without scope=: the "
                                   "scope of that storage is not a model buffer's (no layout), so it is not known")
        lay_node = _kw(call, "layout")
        if lay_node is None:
            return None
        lay = ev.layout(lay_node)
        layout, size = lay.as_layout(), lay.size
    elif short == "alloc":
        pool: Pool = rv
        shape = _int_tuple(ev, call.args[0])
        dtype = _dtype(ev, _kw(call, "dtype", 1))
        lay_node = _kw(call, "layout")
        if pool.kind == "smem":
            scope = "shared.dyn"
            if lay_node is not None:
                lay = ev.layout(lay_node)
            elif _kw(call, "swizzle") is not None:
                lay = ev.layout(_canonical_call(call, "pool"))
            else:
                return None
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
        dt_node = _kw(call, "dtype", 1)
        if dt_node is None:
            raise ConvertError("wg_reg_tile without dtype=")
        dtype = _dtype(ev, dt_node)
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
    if scope not in SCOPES:
        raise ConvertError(f"scope {scope!r} is not one the model format knows ({', '.join(sorted(SCOPES))})")
    if size is not None and size != math.prod(shape):
        raise ConvertError(f"the layout has {size} elements but the shape {shape} has {math.prod(shape)}")
    ref = _emit(ex, name, scope, shape, dtype, layout, line, call, view_of)
    if short in PLAIN and scope == "tmem":
        import tmem_placement  # allocated_addr= : the buffer's TMEM column (tmem_placement.py)
        tmem_placement.record(call, ev, ex, ref)
    return ref


def _emit(ex, name, scope, shape, dtype, layout, line, node, view_of=None) -> BufferRef:
    # The same allocation met again (a loop the walker unrolls, a helper called twice) is the
    # same buffer: one storage in TIRx, so one model buffer.
    key = (name, line, scope, tuple(shape), dtype, layout, view_of, ex.origin(line, node))
    seen = ex.emitted.get(key)
    if seen is not None:
        return seen
    mname = ex.unique(name)
    b = {"name": mname, "scope": scope, "shape": list(shape), "dtype": dtype, "layout": layout}
    if view_of is not None:
        b["view_of"] = {"buffer": view_of}
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
        return _emit(ex, pname, scope, shape, dtype, layout, line, ann)
    except UnresolvedError as e:
        ex.block(f"buffer {pname}", line, e.item)
        return Unresolved(pname, line, "kernel parameter buffer is undecided", e.item)
    except (ConvertError, ArithmeticError, TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        ex.block(f"buffer {pname}", line, None, f"not extracted: {e}")
        return Unresolved(pname, line, f"kernel parameter buffer was not extracted ({e})")
