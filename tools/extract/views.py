"""Buffers TIRx derives from another buffer, and the regions named through them.

Each form is a new declaration over the base's storage (a `view_of` the base in the model),
with the shape, dtype and layout TIRx computes (apache/tvm 5d4dc87 python/tvm/tirx/
_buffer_view.py and buffer.py; line numbers below are at that commit):

    form                          shape                 dtype   layout
    ----------------------------  --------------------  ------  ------------------------------------
    X.view(*shape)                shape (one -1         X's     X's layout, unchanged (view 111-123:
                                  inferred)                     `_redecl(buf, shape, buf.layout)`)
    X.view(*shape, layout=L)      shape                 X's     L
    X.view(dtype)  wider by r     last dim / r          dtype   X.layout.pack(r)    (view 96-102)
    X.view(dtype)  narrower by r  last dim * r          dtype   X.layout.unpack(r)  (view 103-109)
    X.with_dtype(dtype)           X's                   dtype   X's (buffer.cc:548-554: only the
                                                                dtype is replaced)
    X.permute(*dims)              dims permuted         X's     X's iters grouped by X's shape,
                                                                groups reordered (permute 151-161)
    X.rearrange('a (b c) -> ...') merged rhs groups     X's     view(split lhs) -> permute -> view
                                                                (rearrange 164-219)
    X.sub[i, lo:hi, ::s]          int drops, lo:hi      X's     the dimension's iters narrowed / dropped,
                                  narrows, a::s picks           the start folded into the layout's
                                                                offset (_view_drop 419, _view_narrow 440)
    X.tile(d, factors)[picks]     rank-preserving       X's     dimension d split into factors, a
                                                                picked factor dropped, kept ones merged
                                                                (TileIndexer 578-629)
    ARR.view(*shape, layout=L)    shape                 ARR's   L; ARR a register array (not a model
                                                                buffer): a standalone local buffer
    X.local()                     (span of X's storage) X's     S[span] ("default" row-major;
                                                                local 126-161), scope X's
    X.chunk(spec)[picks]          a REGION of X: chunked dim d with n chunks, pick c ->
                                  c*E/n : (c+1)*E/n (ChunkIndexer 550-575); not a buffer

A derived buffer's `view_of` is the buffer it was derived from (chains are the model's
`view_of` chains).  The start of a `.sub` is written into the layout's offset (`+ N` on the
memory axis, `+ N@TCol` in TMEM), never into `view_of`, so every view's layout counts from its
base's first element; for a dtype view the offset is rescaled with the element size.  What TVM
refuses (a shape that does not group the layout, a pack whose innermost iter does not split, a
TMEM start that is not a whole 32-bit column or lies on a lane axis) is refused here, naming
the reason: the view and what uses it stay unresolved.
"""
from __future__ import annotations

import ast
import math
import re

from corpus_notation import DTYPE_BITS
from kernel_env import BufferRef, ConvertError, Unresolved, UnresolvedError
import layout_text

VIEW_METHODS = {"view", "with_dtype", "permute", "rearrange", "local"}
MEMORY_AXES = {"m", "TLane", "TCol", "P", "F", "Bank"}


def is_derived(node) -> bool:
    """Whether node is a derived-buffer expression (X.view(...), X.sub[...], X.tile(...)[...],
    chains of them)."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in VIEW_METHODS:
        return True
    if not isinstance(node, ast.Subscript):
        return False
    v = node.value
    return (isinstance(v, ast.Attribute) and v.attr == "sub") or \
        (isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr == "tile")


def lookup(env, name):
    """A name's value; a declared TIR scalar that was later assigned a buffer (printed kernels
    reuse `buffer_19` for a `T.uint64` and then a view) holds it as its value (tvm_classes)."""
    v = env.get(name)
    if type(v).__name__ == "TirLocal":
        v = v.get(None)
    if type(v).__name__ == "PerWarp":
        v = v.resolve()  # the executing warp's buffer (per_warp.py)
    return v


def is_reg_view(node, env) -> bool:
    """Whether node is `ARR.view(*shape, layout=L)` of a register array (fragments.RegArray);
    other views of register arrays are not modelled and stay plain values, as before."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "view" and \
        type(receiver_value(node.func.value, env)).__name__ == "RegArray" and \
        any(k.arg == "layout" for k in node.keywords)


def receiver_value(recv, env):
    """The value a view's receiver names: a name, or `self.X` of a tile-task instance
    (tile_class.py); None otherwise."""
    if isinstance(recv, ast.Name):
        return lookup(env, recv.id)
    import tile_class
    v = tile_class.member(recv, env)
    return None if v is tile_class.NOT_MEMBER else v


def buffer_of(node, env, ev, ex, name: str | None, line: int, root: str | None = None):
    """The BufferRef node names: a buffer name, or a derived buffer (emitted into ex)."""
    import tile_class
    b = tile_class.member(node, env)  # `self.reg` of a tile-task instance (tile_class.py)
    if b is not tile_class.NOT_MEMBER:
        if isinstance(b, Unresolved):
            raise UnresolvedError(b)
        if not isinstance(b, BufferRef):
            raise ConvertError(f"{ast.unparse(node)!r} is not a buffer the extraction modelled")
        return b
    if isinstance(node, ast.Name):
        b = lookup(env, node.id)
        if isinstance(b, Unresolved):
            raise UnresolvedError(b)
        if not isinstance(b, BufferRef):
            raise ConvertError(f"{node.id!r} is not a buffer the extraction modelled (no layout, or not allocated "
                               "in this file)")
        return b
    if isinstance(node, ast.Call) and not is_derived(node):
        # the chain starts at an allocation (pool.alloc_tcgen05_mma_AB(...).sub[...]): that
        # allocation is a buffer of its own, named after the view it is allocated for
        import allocators
        got = allocators.allocation(node, env, ev, ex, f"{root or name or 'buffer'}.base", line, None)
        if isinstance(got, Unresolved):
            raise UnresolvedError(got)
        if not isinstance(got, BufferRef):
            raise ConvertError(f"{ast.unparse(node)!r} is not a buffer")
        return got
    if not is_derived(node):
        raise ConvertError(f"{ast.unparse(node)!r} is not a buffer region")
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call):
        base = buffer_of(node.value.func.value, env, ev, ex, None, line, root or name)
        return tile(base, node, ev, ex, name, line)
    if isinstance(node, ast.Subscript):
        base = buffer_of(node.value.value, env, ev, ex, None, line, root or name)
        return sub(base, node, ev, ex, name, line)
    recv = node.func.value
    arr = receiver_value(recv, env)
    if arr is not None and type(arr).__name__ == "RegArray" and node.func.attr == "view":
        return _reg_view(node, arr, ev, ex, name or f"{arr.name}.view", line)
    base = buffer_of(recv, env, ev, ex, None, line, root or name)
    return derive(node, base, ev, ex, name, line)


def _reg_view(call, arr, ev, ex, name, line):
    """A register array's view(*shape, layout=L): the registers of each thread seen through L
    (TVM: a declaration over the array's storage with that layout, _buffer_view.py 111-123).
    The array itself is not a model buffer (fragments.py), so the view stands alone (no
    view_of): L's storage per thread must fit the array's registers."""
    lay_node = next((k.value for k in call.keywords if k.arg == "layout"), None)
    if lay_node is None or len(call.keywords) != 1:
        raise ConvertError(f"a view of the register array {arr.name} without layout= is not modelled")
    shape = tuple(ev.as_int(a) for a in call.args)
    lay = ev.layout(lay_node)
    if lay.size is not None and lay.size != math.prod(shape):
        raise ConvertError(f"the layout has {lay.size} elements but the shape {shape} has {math.prod(shape)}")
    text = lay.as_layout()
    per = layout_text.parse(text)
    span = 1 + sum((e - 1) * s for e, s, a in per.shard + per.replica if a == "m") + per.offset.get("m", 0)
    if span > arr.n:
        raise ConvertError(f"the view's {span} elements per thread exceed the {arr.n} registers of {arr.name}")
    from allocators import _emit as emit
    ref = emit(ex, name, "local", shape, arr.dtype, text, line, call)
    ref.start_bytes = 0  # the array's own registers
    return ref


def _emit(ex, name, base: BufferRef, shape, dtype, layout, line, node, scope=None):
    from allocators import _emit as emit
    size = layout_size(layout)
    if size is not None and size != math.prod(shape):
        raise ConvertError(f"the derived layout has {size} elements but the shape {tuple(shape)} has "
                           f"{math.prod(shape)}")
    ref = emit(ex, name, scope or base.scope, tuple(shape), dtype, layout, line, node, base.name)
    ref.view_base = base  # the start's provenance follows the chain (thread_copy.sym_of)
    ref.start_bytes = getattr(base, "start_bytes", None)  # _redecl keeps the base's elem_offset
    ref.default_layout = getattr(base, "default_layout", False)
    return ref


def layout_size(text: str):
    try:
        return math.prod(e for e, _, _ in layout_text.parse(text).shard)
    except ConvertError:
        return None


def derive(call: ast.Call, base: BufferRef, ev, ex, name, line):
    m = call.func.attr
    nm = name or f"{base.name}.{m}"
    if m == "view":
        return _view(call, base, ev, ex, nm, line)
    if m == "with_dtype":
        from allocators import _dtype
        if len(call.args) != 1:
            raise ConvertError("with_dtype takes one dtype")
        return _emit(ex, nm, base, base.shape, _dtype(ev, call.args[0]), base.layout, line, call)
    if m == "permute":
        dims = [ev.as_int(a) for a in call.args]
        if sorted(dims) != list(range(len(base.shape))):
            raise ConvertError(f"permute{tuple(dims)} is not a permutation of the {len(base.shape)} dimensions")
        lay = layout_text.parse(base.layout)
        groups = layout_text.group(lay, base.shape)
        lay.shard = [it for d in dims for it in groups[d]]
        return _emit(ex, nm, base, [base.shape[d] for d in dims], base.dtype, lay.text(), line, call)
    if m == "rearrange":
        return _rearrange(call, base, ev, ex, nm, line)
    if m == "local":
        return _local(call, base, ev, ex, nm, line)
    raise ConvertError(f".{m} is not a view TIRx defines")


def _view(call, base, ev, ex, name, line):
    from allocators import _dtype
    lay_node = next((k.value for k in call.keywords if k.arg == "layout"), None)
    other = [k.arg for k in call.keywords if k.arg not in ("layout", "dtype")]
    if other:
        raise ConvertError(f"view with {', '.join(other)}= is not a form TIRx defines")
    args = call.args
    if len(args) == 1 and not isinstance(args[0], ast.Starred) and lay_node is None and not call.keywords:
        v = ev.value(args[0])
        if isinstance(v, str):
            return _dtype_view(call, base, _dtype(ev, args[0]), ex, name, line)
        shape = tuple(v) if isinstance(v, (tuple, list)) else (v,)
    else:
        shape = tuple(ev.as_int(a) for a in args)
    if not all(isinstance(s, int) for s in shape):
        raise ConvertError(f"view shape {shape} is not integers")
    dt_node = next((k.value for k in call.keywords if k.arg == "dtype"), None)
    dtype = _dtype(ev, dt_node) if dt_node is not None else base.dtype
    if lay_node is not None:
        lay = ev.layout(lay_node)
        if lay.size is not None and lay.size != math.prod(shape):
            raise ConvertError(f"the layout has {lay.size} elements but the shape {shape} has {math.prod(shape)}")
        from allocators import _emit as emit
        ref = emit(ex, name, base.scope, shape, dtype, lay.as_layout(), line, call, base.name)
        ref.start_bytes = getattr(base, "start_bytes", None)
        return ref
    if dtype != base.dtype:
        raise ConvertError("view(*shape, dtype=) without layout= is not a form TIRx defines")
    shape = list(shape)
    if shape.count(-1) == 1:
        rest = math.prod(s for s in shape if s != -1)
        if rest <= 0 or math.prod(base.shape) % rest:
            raise ConvertError(f"view{tuple(shape)}: -1 cannot be inferred for {math.prod(base.shape)} elements")
        shape[shape.index(-1)] = math.prod(base.shape) // rest
    if any(s < 1 for s in shape) or math.prod(shape) != math.prod(base.shape):
        raise ConvertError(f"view{tuple(shape)} of the {tuple(base.shape)} buffer {base.name}: the element counts "
                           "differ (TVM asserts they are equal)")
    return _emit(ex, name, base, shape, base.dtype, base.layout, line, call)


def _dtype_view(call, base, dtype, ex, name, line):
    old, new = DTYPE_BITS[base.dtype], DTYPE_BITS[dtype]
    shape = list(base.shape)
    if new == old:
        ref = _emit(ex, name, base, shape, dtype, base.layout, line, call)
        if getattr(base, "local_root", None) is not None and len(shape) == 1:
            ref.local_root, ref.local_node = base.local_root, call
        return ref
    lay = layout_text.parse(base.layout)
    off = lay.offset
    lay.offset = {}
    if new > old:
        if new % old:
            raise ConvertError(f"view({dtype!r}) of {base.dtype}: {new} bits is not a multiple of {old}")
        r, op = new // old, "pack"
        if shape[-1] % r:
            raise ConvertError(f"view({dtype!r}): the last dimension {shape[-1]} is not a multiple of {r}")
        if any(v % r for v in off.values()):
            raise ConvertError(f"view({dtype!r}): the view's start {off} is not a whole {dtype} element")
        shape[-1] //= r
        off = {a: v // r for a, v in off.items()}
    else:
        if old % new:
            raise ConvertError(f"view({dtype!r}) of {base.dtype}: {old} bits is not a multiple of {new}")
        r, op = old // new, "unpack"
        shape[-1] *= r
        off = {a: v * r for a, v in off.items()}
    inner = lay.text() if any(off.values()) else base.layout
    text = f"({inner}).{op}({r})" if " + " in inner and not inner.startswith("ComposeLayout(") else f"{inner}.{op}({r})"
    layout_text.printed(text)  # the notation applies TVM's rule and refuses what TVM asserts against
    for a, v in off.items():
        if v:
            text += f" + {v}" if a == "m" else f" + {v}@{a}"
    if off and any(off.values()):
        layout_text.printed(text)
    ref = _emit(ex, name, base, shape, dtype, text, line, call)
    if getattr(base, "local_root", None) is not None and len(shape) == 1:
        ref.local_root = base.local_root  # a dtype view of a .local() view: registers of the same storage
        ref.local_node = call
    return ref


def _rearrange(call, base, ev, ex, name, line):
    if not call.args:
        raise ConvertError("rearrange without a pattern")
    pattern = ev.value(call.args[0])
    if not isinstance(pattern, str) or "->" not in pattern:
        raise ConvertError(f"rearrange pattern {pattern!r} has no '->'")
    sizes = {k.arg: ev.as_int(k.value) for k in call.keywords if k.arg is not None}

    def groups(side):
        out = []
        for grp, bare in re.findall(r"\(([^)]*)\)|(\S+)", side.strip()):
            out.append(grp.split() if grp else [bare])
        return out

    lhs_s, rhs_s = pattern.split("->")
    lhs, rhs = groups(lhs_s), groups(rhs_s)
    if len(lhs) != len(base.shape):
        raise ConvertError(f"rearrange {pattern!r}: {len(lhs)} groups on the left, the buffer has "
                           f"{len(base.shape)} dimensions")
    axis = {}
    for grp, dim in zip(lhs, base.shape):
        known = {a: sizes[a] for a in grp if a in sizes}
        unknown = [a for a in grp if a not in sizes]
        prod = math.prod(known.values())
        if not unknown:
            if prod != dim:
                raise ConvertError(f"rearrange: group {grp} has {prod} elements, the dimension {dim}")
        elif len(unknown) == 1:
            if prod <= 0 or dim % prod:
                raise ConvertError(f"rearrange: dimension {dim} is not a multiple of {prod} (group {grp})")
            known[unknown[0]] = dim // prod
        else:
            raise ConvertError(f"rearrange: group {grp} has more than one axis without a size")
        axis.update(known)
    flat_l = [a for g in lhs for a in g]
    flat_r = [a for g in rhs for a in g]
    if sorted(flat_l) != sorted(flat_r):
        raise ConvertError(f"rearrange {pattern!r}: the axes of the two sides differ")
    lay = layout_text.parse(base.layout)
    split = [axis[a] for a in flat_l]
    grouped = layout_text.group(lay, split)  # view(split): the layout unchanged, then permute groups it
    lay.shard = [it for a in flat_r for it in grouped[flat_l.index(a)]]
    shape = [math.prod(axis[a] for a in g) for g in rhs]
    return _emit(ex, name, base, shape, base.dtype, lay.text(), line, call)


def _local(call, base, ev, ex, name, line):
    lay = layout_text.parse(base.layout)
    lay_node = next((k.value for k in call.keywords if k.arg == "layout"), None)
    if lay_node is not None:
        # local(layout=L): shape (storage().size(),) unless given, the layout L (local 126-137)
        given = ev.layout(lay_node)
        size = math.prod(e for e, _, a in lay.shard if a in MEMORY_AXES)
        shape = tuple(ev.as_int(a) for a in call.args) if call.args else (size,)
        if given.size is not None and given.size != math.prod(shape):
            raise ConvertError(f"local(layout=): the layout has {given.size} elements, the shape {shape}")
        return _emit(ex, name, base, shape, base.dtype, given.as_layout(), line, call)
    span = 1 + sum((e - 1) * s for e, s, a in lay.shard + lay.replica if a in MEMORY_AXES) + \
        sum(v for a, v in lay.offset.items() if a in MEMORY_AXES)
    shape = tuple(ev.as_int(a) for a in call.args) if call.args else (span,)
    if math.prod(shape) != span:
        raise ConvertError(f"local{shape}: {math.prod(shape)} elements, the storage span per thread is {span}")
    from allocators import row_major
    ref = _emit(ex, name, base, shape, base.dtype, row_major(shape), line, call)
    if base.scope == "local" and len(shape) == 1:
        ref.local_root = base  # its elements are the registers of base's storage (kernel_env.BufferRef)
        ref.local_node = call
    return ref


def _offset_term(group, index: int) -> dict:
    """The offset of index along a dimension made of group's iters (row-major digits)."""
    out, rest = {}, index
    for pos, (e, s, a) in enumerate(group):
        inner = math.prod(g[0] for g in group[pos + 1:])
        c, rest = divmod(rest, inner)
        out[a] = out.get(a, 0) + c * s
    return out


def _picks(node: ast.Subscript, ev, rank: int) -> list:
    """The indices of X.sub[...] as picks: None (whole), ('range', lo, hi), ('step', start, step),
    ('index', i); trailing dimensions are whole."""
    idx = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if len(idx) > rank:
        raise ConvertError(f"sub: {len(idx)} indices for a {rank}-D buffer")
    out = []
    for ix in idx:
        if isinstance(ix, ast.Slice) and ix.lower is None and ix.upper is None and ix.step is None:
            out.append(None)
        elif isinstance(ix, ast.Slice) and ix.step is not None and not (isinstance(ix.step, ast.Constant) and
                                                                        ix.step.value == 1):
            if ix.upper is not None:
                raise ConvertError("sub: a stop bound with a step is not supported (TVM refuses it)")
            out.append(("step", ev.as_int(ix.lower) if ix.lower is not None else 0, ev.as_int(ix.step)))
        elif isinstance(ix, ast.Slice):
            out.append(("range", ev.as_int(ix.lower) if ix.lower is not None else 0,
                        ev.as_int(ix.upper) if ix.upper is not None else None))
        else:
            out.append(("index", ev.as_int(ix)))
    return out + [None] * (rank - len(out))


def narrow(shape, lay, picks, scope: str, dtype: str):
    """Shape and layout after select / narrow / stepped picks per dimension (_view_drop,
    _view_narrow, SubIndexer); the start goes into lay.offset."""
    groups = layout_text.group(lay, shape)
    extra: dict = {}
    out_shape, out_groups = [], []
    for d, (g, e, pk) in enumerate(zip(groups, shape, picks)):
        if pk is None:
            out_shape.append(e)
            out_groups.append(g)
        elif pk[0] == "step":
            start, step = pk[1], pk[2]
            if step <= 0 or e % step or not 0 <= start < step:
                raise ConvertError(f"sub: the step {step} / start {start} does not divide the dimension {e}")
            sg = layout_text.group(layout_text.Lay(g, [], {}, None), (e // step, step))
            _add(extra, _offset_term(sg[1], start))
            out_shape.append(e // step)
            out_groups.append(sg[0])
        elif pk[0] == "range":
            lo, hi = pk[1], e if pk[2] is None else pk[2]
            if not 0 <= lo < hi <= e:
                raise ConvertError(f"sub: the range {lo}:{hi} is outside the dimension {e}")
            n = hi - lo
            if len(g) <= 1:
                if g:
                    _, st, a = g[0]
                    _add(extra, {a: lo * st})
                    out_groups.append([(n, st, a)])
                else:
                    out_groups.append([])
            else:
                inner = math.prod(it[0] for it in g[1:])
                if lo % inner or n % inner:
                    raise ConvertError(f"sub: dimension {d} is made of {len(g)} layout iters; the range {lo}:{hi} "
                                       f"is not made of whole blocks of {inner} (TVM refuses it)")
                _, st, a = g[0]
                _add(extra, {a: lo // inner * st})
                out_groups.append([(n // inner, st, a)] + g[1:])
            out_shape.append(n)
        else:
            i = pk[1]
            if not 0 <= i < e:
                raise ConvertError(f"sub: index {i} is outside the dimension {e}")
            _add(extra, _offset_term(g, i))
    extra = {a: v for a, v in extra.items() if v}
    if scope == "tmem":
        bad = [a for a in extra if a != "TCol"]
        if bad:
            raise ConvertError(f"sub: a TMEM view's start on the {bad[0]} axis cannot move into the column address "
                               "(TVM refuses it)")
        if "TCol" in extra and extra["TCol"] * DTYPE_BITS[dtype] % 32:
            raise ConvertError(f"sub: a TMEM view's start of {extra['TCol']} {dtype} elements is not a whole "
                               "32-bit column (TVM refuses it)")
    else:
        bad = [a for a in extra if a != "m"]
        if bad:
            raise ConvertError(f"sub: the view's start lies on the thread axis {bad[0]}, not in memory")
    out = layout_text.Lay([it for g in out_groups for it in g], lay.replica, lay.offset, lay.swizzle)
    _add(out.offset, extra)
    return out_shape, out


def sub(base: BufferRef, node: ast.Subscript, ev, ex, name, line):
    """X.sub[...]: numpy basic indexing as a view (SubIndexer 499-548)."""
    picks = _picks(node, ev, len(base.shape))
    shape, lay = narrow(list(base.shape), layout_text.parse(base.layout), picks, base.scope, base.dtype)
    ref = _emit(ex, name or f"{base.name}.sub", base, shape or [1], base.dtype, lay.text(), line, node)
    import thread_copy  # which of the start's terms are source constants (thread_copy.sub_sym)
    thread_copy.sub_sym(ref, base, node, picks, ex)
    return ref


def tile(base: BufferRef, node: ast.Subscript, ev, ex, name, line):
    """X.tile(dim, factors)[picks] / X.tile((dim, factors), ...)[picks] (TileIndexer 578-629): the
    dimension split into factors (a view: layout unchanged), a picked factor dropped, the kept
    factors merged back into one dimension."""
    call = node.value
    specs = [ev.value(a) for a in call.args]
    if specs and isinstance(specs[0], int):
        if len(specs) != 2:
            raise ConvertError("tile(dim, factors) takes a dim and a factors tuple")
        specs = [tuple(specs)]
    norm = []
    for sp in specs:
        if not isinstance(sp, (tuple, list)) or len(sp) != 2 or not isinstance(sp[1], (tuple, list)) or not sp[1]:
            raise ConvertError(f"tile: each spec must be (dim, factors), got {sp!r}")
        d = sp[0] + len(base.shape) if sp[0] < 0 else sp[0]
        if not 0 <= d < len(base.shape) or d in [x for x, _ in norm]:
            raise ConvertError(f"tile: dimension {sp[0]} is out of range or tiled twice")
        norm.append((d, list(sp[1])))
    idx = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if len(idx) != sum(len(f) for _, f in norm):
        raise ConvertError(f"tile: {len(idx)} indices for {sum(len(f) for _, f in norm)} factors")
    groups, pos = [], 0
    for d, f in norm:
        groups.append((d, f, idx[pos:pos + len(f)]))
        pos += len(f)
    shape, lay = list(base.shape), layout_text.parse(base.layout)
    for d, f, pk in sorted(groups, key=lambda g: g[0], reverse=True):
        if f.count(-1) > 1 or any(x != -1 and (not isinstance(x, int) or x < 1) for x in f):
            raise ConvertError(f"tile: factors {f} of dimension {d}")
        if -1 in f:
            rest = math.prod(x for x in f if x != -1)
            if shape[d] % rest:
                raise ConvertError(f"tile: dimension {shape[d]} is not a multiple of {rest}")
            f = [shape[d] // rest if x == -1 else x for x in f]
        if math.prod(f) != shape[d]:
            raise ConvertError(f"tile: factors {f} do not multiply to the dimension {shape[d]}")
        keep = [isinstance(p, ast.Slice) and p.lower is None and p.upper is None and p.step is None for p in pk]
        if any(isinstance(p, ast.Slice) and not k for p, k in zip(pk, keep)):
            raise ConvertError("tile: a factor slice must be ':' (keep whole)")
        if all(keep):
            raise ConvertError(f"tile: dimension {d} picks no factor")
        split = shape[:d] + f + shape[d + 1:]
        picks = [None] * len(split)
        for j, (p, k) in enumerate(zip(pk, keep)):
            if not k:
                picks[d + j] = ("index", ev.as_int(p))
        shape, lay = narrow(split, lay, picks, base.scope, base.dtype)
        n_keep = sum(keep)
        if n_keep >= 2:
            shape = shape[:d] + [math.prod(shape[d:d + n_keep])] + shape[d + n_keep:]
    return _emit(ex, name or f"{base.name}.tile", base, shape or [1], base.dtype, lay.text(), line, node)


def _add(acc: dict, more: dict) -> None:
    for a, v in more.items():
        acc[a] = acc.get(a, 0) + v


def chunk_region(node: ast.Subscript, env, ev, ex, line) -> tuple[str, BufferRef]:
    """X.chunk(spec)[picks] -> the REGION X[...] it is (ChunkIndexer.__getitem__)."""
    call = node.value
    base = buffer_of(call.func.value, env, ev, ex, None, line)
    if len(call.args) != 1:
        raise ConvertError("chunk takes one spec tuple")
    spec = ev.value(call.args[0])
    if not isinstance(spec, (tuple, list)) or len(spec) != len(base.shape):
        raise ConvertError(f"chunk spec {spec!r} does not have one entry per dimension of {base.name}")
    picks = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if len(picks) > len(spec):
        raise ConvertError(f"chunk: {len(picks)} indices for a rank-{len(spec)} spec")
    out = []
    for d, e in enumerate(base.shape):
        n = spec[d]
        p = picks[d] if d < len(picks) else ast.Slice()
        if n is None:
            if isinstance(p, ast.Slice):
                if p.step is not None:
                    raise ConvertError("a strided slice is not a model region")
                lo = ev.as_int(p.lower) if p.lower is not None else 0
                hi = ev.as_int(p.upper) if p.upper is not None else e
                out.append(":" if (lo, hi) == (0, e) else f"{lo}:{hi}")
            else:
                out.append(str(ev.as_int(p)))
            continue
        if not isinstance(n, int) or isinstance(n, bool) or n < 1 or e % n:
            raise ConvertError(f"chunk: {n!r} chunks of dimension {d} (extent {e})")
        if isinstance(p, ast.Slice):
            raise ConvertError(f"chunk: chunked dimension {d} takes a chunk index, not a slice")
        c = ev.as_int(p)
        size = e // n
        if not 0 <= c < n:
            raise ConvertError(f"chunk: chunk {c} of {n}")
        out.append(":" if size == e else f"{c * size}:{(c + 1) * size}")
    return f"{base.name}[{', '.join(out)}]", base
