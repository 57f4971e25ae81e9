"""A thread's own copy between its registers and global or shared memory: `Tx.copy(R, S)` at
thread scope, without `dispatch=` (TVM's vec_auto_reg) or with a forced width (`dispatch=
"vec_256b"` ... `"vec_16b"`, TVM's vec_forced).

Read at apache/tvm 5d4dc87 (python/tvm/backend/cuda/tile_primitive/copy/).  A bare `Tx.copy` is a
thread-scope call (tirx/script/builder/tirx.py:53-71, ScopedOp).  Without dispatch=, ldstmatrix
refuses thread scope (ld_stmatrix.py:62-63) and `vec_auto` (priority 10, vec_auto.py:29-36, 46-52)
takes vec_auto_reg for a register side (vec_auto_reg.py:59, 63-64: thread scope is "all threads
active"; 153: the scope pairs; common.py:83-103: equal dtypes, equal non-unit extents).  Its width
(_choose_vec_len, vec_auto_reg.py:305-334) is the widest of 128/64/32/16/8 bits (at least one
element) that

  * divides the contiguous tail of S (the innermost S atoms chained with stride 1, 234-244),
  * is at most 1 << per_element when S is swizzled (536-537),
  * divides every outer atom stride after the vector split, S's and R's (327-329), and
  * divides the region's base offsets, S's and R's (`s_p.offset`, `r_p.offset`, 318), which
    `_alignment_ok` (copy/_common.py:35-53) must PROVE with the arithmetic analyzer for every
    value of the kernel's variables (a term it cannot prove fails the width).

The extraction knows each variable's value only at the representative instance, so the width is
taken twice: with the instance's concrete base offset (an upper bound: what TVM proves for every
value holds at this one) and with each subscript that is not a source constant contributing only
its stride (a lower bound: a sum of multiples of n is divisible by n, which the analyzer's
modular-set rule proves).  Equal: that is TVM's width and the op is extracted (`dispatch: thread`,
`access_bytes`); different: unresolved, naming both.  A subscript is a source constant when its
code reads only literals and names that no function being walked binds other than to a source
constant (module constants, `T.constexpr` parameters, `T.meta_var` of constants); a loop variable,
a `T.let`, a thread or CTA index, an inline helper's parameter, a call, a runtime read are not.

The R side must be one contiguous run of the thread's registers (a plain `T.alloc_local` buffer,
whole or a contiguous slice): that is what the emitted loop moves (vec_auto_reg.py:590-620,
consecutive registers per access); other R regions stay unresolved here.

Forced widths (vec_forced.py:92-135, 138-203, 229-233): thread scope, equal dtypes, both regions
exactly width / element-size elements, `cache=` only "nc" and cache options only on a global
source; the instruction moves the bytes from each region's first element (`ptr_to(start)`,
148-149), so the extraction requires both regions to be those bytes.  TVM checks no alignment.
32 bytes (`.v8.u32`, copy/_common.py:552-553) exist only for the global state space (PTX ISA 8.8,
ld / st: .v8 with .global, sm_100+): a shared side is refused; loads and stores are both TVM's
(ld chain 197, st chain 195).

`warps` are the warps that execute the statement (a warp where only some lanes do, one elected lane
under `elect_sync()`, is listed); the note says which lanes.  A 1-D register array
(fragments.RegArray) that such a copy names becomes a plain local model buffer (`S[N:1]`), as a
2-D `T.alloc_local` already is; its elements stay registers read as runtime data.
"""
from __future__ import annotations

import ast
import math

from corpus_notation import DTYPE_BITS, dotted, strip_builder
from kernel_env import ConvertError

FORCED = {"vec_256b": 32, "vec_128b": 16, "vec_64b": 8, "vec_32b": 4, "vec_16b": 2}
_VEC_BITS = (128, 64, 32, 16, 8)
_MAX_ELEMENTS = 1 << 16
_STATIC_CALLS = {"T.meta_var", "Tx.meta_var", "int", "min", "max", "abs", "len"}


# ---------------------------------------------------------------------------------------------
# Which subscripts are source constants


def _assignments(funcs) -> tuple[dict, set]:
    """(name -> [value node or None], parameter names not annotated T.constexpr) over funcs."""
    assigned: dict = {}
    params: set = set()

    def bind(target, value):
        if isinstance(target, ast.Name):
            assigned.setdefault(target.id, []).append(value)
        elif isinstance(target, (ast.Tuple, ast.List)):
            for t in target.elts:
                bind(t, None)
        elif isinstance(target, ast.Starred):
            bind(target.value, None)

    for f in funcs:
        for n in ast.walk(f):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                a = n.args
                for p in a.posonlyargs + a.args + a.kwonlyargs:
                    ann = dotted(p.annotation) if getattr(p, "annotation", None) is not None else ""
                    if not (ann or "").endswith("constexpr"):
                        params.add(p.arg)
                for p in (a.vararg, a.kwarg):
                    if p is not None:
                        params.add(p.arg)
                if not isinstance(n, ast.Lambda):
                    assigned.setdefault(n.name, []).append(None)
            elif isinstance(n, ast.Assign):
                for t in n.targets:
                    bind(t, n.value if isinstance(t, ast.Name) else None)
            elif isinstance(n, (ast.AnnAssign, ast.AugAssign)):
                bind(n.target, None)   # a TIR scalar (T.let, T.int32) or an update: a variable
            elif isinstance(n, (ast.For, ast.AsyncFor, ast.comprehension)):
                bind(n.target, None)
            elif isinstance(n, (ast.With, ast.AsyncWith)):
                for it in n.items:
                    if it.optional_vars is not None:
                        bind(it.optional_vars, None)
            elif isinstance(n, ast.NamedExpr):
                bind(n.target, None)
            elif isinstance(n, ast.ExceptHandler) and n.name:
                assigned.setdefault(n.name, []).append(None)
            elif isinstance(n, (ast.Import, ast.ImportFrom)):
                for al in n.names:
                    assigned.setdefault((al.asname or al.name).split(".")[0], []).append(None)
            elif isinstance(n, (ast.Global, ast.Nonlocal)):
                for nm in n.names:
                    assigned.setdefault(nm, []).append(None)
    return assigned, params


def _is_static(node, info, seen) -> bool:
    assigned, params = info
    if node is None:
        return False
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (int, float, bool, str)) or node.value is None
    if isinstance(node, ast.Name):
        if node.id in params or node.id in seen:
            return False
        vals = assigned.get(node.id)
        if vals is None:
            return True   # not bound by the code walked: a module constant or a builtin
        seen = seen | {node.id}
        return all(v is not None and _is_static(v, info, seen) for v in vals)
    if isinstance(node, ast.Attribute):
        root = node
        while isinstance(root, ast.Attribute):
            root = root.value
        return isinstance(root, ast.Name) and root.id != "self" and _is_static(root, info, seen)
    if isinstance(node, (ast.BinOp,)):
        return _is_static(node.left, info, seen) and _is_static(node.right, info, seen)
    if isinstance(node, ast.UnaryOp):
        return _is_static(node.operand, info, seen)
    if isinstance(node, ast.BoolOp):
        return all(_is_static(v, info, seen) for v in node.values)
    if isinstance(node, ast.Compare):
        return _is_static(node.left, info, seen) and all(_is_static(c, info, seen) for c in node.comparators)
    if isinstance(node, ast.IfExp):
        return all(_is_static(v, info, seen) for v in (node.test, node.body, node.orelse))
    if isinstance(node, (ast.Tuple, ast.List)):
        return all(_is_static(e, info, seen) for e in node.elts)
    if isinstance(node, ast.Subscript):
        return _is_static(node.value, info, seen) and _is_static(node.slice, info, seen)
    if isinstance(node, ast.Call):
        d = strip_builder(dotted(node.func) or "") if dotted(node.func) else ""
        return (dotted(node.func) in _STATIC_CALLS or d in _STATIC_CALLS) and not node.keywords and \
            all(_is_static(a, info, seen) for a in node.args)
    return False


def static(node, ex) -> bool:
    """Whether node's value is a source constant (module docstring); False when the code around it
    is not known (node outside the innermost function being walked)."""
    funcs = getattr(ex, "func_nodes", None) or []
    if not funcs or node is None:
        return False
    file, inner = funcs[-1]
    line = getattr(node, "lineno", None)
    if file != ex.current_file() or line is None or \
            not inner.lineno <= line <= (getattr(inner, "end_lineno", None) or inner.lineno):
        return False
    key = tuple(id(f) for _, f in funcs)
    cache = ex.__dict__.setdefault("_static_info", {})
    if key not in cache:
        cache[key] = _assignments([f for _, f in funcs])
    return _is_static(node, cache[key], frozenset())


# ---------------------------------------------------------------------------------------------
# The symbolic part of a view's start: (const, g) -- the start is const plus a multiple of g


def _m_offset(layout: str) -> int | None:
    import layout_text
    try:
        return layout_text.parse(layout).offset.get("m", 0)
    except ConvertError:
        return None


def sym_of(ref):
    """(const, g) of ref's layout start, or None when its provenance is not known: a root buffer
    whose layout starts at 0, a view whose start a `.sub` recorded (sub_sym), or a view whose
    start its base's is."""
    got = getattr(ref, "sym_offset", None)
    if got is not None:
        return got
    base = getattr(ref, "view_base", None)
    off = _m_offset(ref.layout) if isinstance(ref.layout, str) else None
    if base is None:
        return (0, 0) if off == 0 else None
    if off is not None and off == _m_offset(base.layout) and base.dtype == ref.dtype:
        return sym_of(base)
    return None


def _merge(a, b):
    if a is None or b is None:
        return None
    return (a[0], math.gcd(a[1], b[1], abs(a[0] - b[0])))


def sub_sym(ref, base, node, picks, ex) -> None:
    """Record on ref (base.sub[...]) its start as (const, g): each pick that is a source constant
    adds its concrete offset, each other pick only the gcd of its dimension's strides."""
    import layout_text
    import views
    bs = sym_of(base)
    if bs is None:
        ref.sym_offset = None
        return
    idx = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    try:
        lay = layout_text.parse(base.layout)
        groups = layout_text.group(lay, list(base.shape))
    except ConvertError:
        ref.sym_offset = None
        return
    c, g = bs
    for d, pk in enumerate(picks):
        if pk is None:
            continue
        ix = idx[d] if d < len(idx) else None
        src = ix.lower if isinstance(ix, ast.Slice) else ix
        if src is None:   # `:hi` / `::s`: start 0
            continue
        if static(src, ex):
            only = [None] * len(picks)
            only[d] = pk
            try:
                _s, one = views.narrow(list(base.shape), layout_text.parse(base.layout), only, base.scope,
                                       base.dtype)
            except ConvertError:
                ref.sym_offset = None
                return
            c += one.offset.get("m", 0) - lay.offset.get("m", 0)
        else:
            g = math.gcd(g, *[abs(s) for _e, s, a in groups[d] if a == "m"])
    new = (c, g)
    off = _m_offset(ref.layout)
    if off is None or (off - c) % (g or 1) != 0 or (g == 0 and off != c):
        ref.sym_offset = None   # not the start the layout has: unknown
        return
    old = getattr(ref, "sym_offset", None)
    ref.sym_offset = new if old is None else _merge(old, new)


# ---------------------------------------------------------------------------------------------
# The copy


def thread_scope(call) -> bool:
    """A bare `Tx.copy` / `T.copy` (or `Tx.thread.copy`): thread scope."""
    parts = (dotted(call.func) or "").split(".")
    return not any(p in ("wg", "warp", "warpgroup", "cta") for p in parts[:-1])


def promote(call, env, ex) -> None:
    """A 1-D register array named by this copy's operands becomes a plain local model buffer."""
    from allocators import _emit
    made = []
    for a in call.args[:2]:
        base = a.value if isinstance(a, ast.Subscript) else a
        if not isinstance(base, ast.Name):
            continue
        arr = env.get(base.id)
        if type(arr).__name__ != "RegArray" or arr.frag is not None or getattr(arr, "local_of", None) is not None:
            continue
        if arr.buffer is None:
            ref = _emit(ex, arr.name, "local", (arr.n,), arr.dtype, f"S[{arr.n}:1]", arr.line, arr.node)
            ref.start_bytes = 0
            ref.own_registers = True
            ref.elem_regs = arr   # its elements are the array's registers (buffer_regs.element)
            arr.buffer = ref
            made.append((arr, ref))
    return made


def buffer_of_array(b):
    """The model buffer a promoted register array stands for (op_sites.region)."""
    return b.buffer if type(b).__name__ == "RegArray" and b.frag is None and b.buffer is not None else b


def _lows(arg, shape) -> list:
    """Per dimension of a region operand, the AST of its start (None: 0 or whole)."""
    import views
    if not isinstance(arg, ast.Subscript) or views.is_derived(arg):   # a whole (derived) buffer
        return [None] * len(shape)
    idx = arg.slice.elts if isinstance(arg.slice, ast.Tuple) else [arg.slice]
    out = []
    for ix in idx:
        out.append(ix.lower if isinstance(ix, ast.Slice) else ix)
    return out + [None] * (len(shape) - len(out))


def _side(text, buf, arg, ex, what):
    """(relative offsets of the region's elements in logical order, concrete start, (const, g) of the
    start or None, swizzle) of one side."""
    import layout_text
    import reg_copy
    if not isinstance(buf.layout, str) or "@" in buf.layout:
        raise ConvertError(f"the {what} {buf.name}'s layout has thread axes: not a thread's own copy")
    lay = layout_text.parse(buf.layout)
    if lay.replica:
        raise ConvertError(f"the {what} {buf.name}'s layout has a replica")
    reg = reg_copy._region(text, buf.shape)
    if reg is None:
        raise ConvertError(f"the {what} region {text} is not constant")
    groups = layout_text.group(lay, list(buf.shape))
    dims = [hi - lo for lo, hi in reg]
    n = math.prod(dims)
    if n > _MAX_ELEMENTS:
        raise ConvertError(f"the {what} region has {n} elements, more than the {_MAX_ELEMENTS} enumerated")
    start = [lo for lo, _hi in reg]
    base = reg_copy._addr(groups, start)
    rel = []
    for flat in range(n):
        coord, rest = [], flat
        for e in reversed(dims):
            coord.insert(0, rest % e)
            rest //= e
        rel.append(reg_copy._addr(groups, [s + x for s, x in zip(start, coord)]) - base)
    conc = base + lay.offset.get("m", 0)
    sym = sym_of(buf)
    if sym is not None:
        c, g = sym
        for d, (node, lo) in enumerate(zip(_lows(arg, buf.shape), start)):
            if node is None:   # whole dimension or `:hi`: starts at 0
                continue
            if static(node, ex):
                one = [0] * len(start)
                one[d] = lo
                c += reg_copy._addr(groups, one)
            else:
                g = math.gcd(g, *[abs(s) for _e, s, a in groups[d] if a == "m"])
        sym = (c, g)
    return rel, conc, sym, lay.swizzle, dims


def _sym_text(sym) -> str:
    if sym[1] == 0:
        return ", a source constant"
    return f" = {sym[0]} + a multiple of {sym[1]} (runtime subscripts)"


def _lanes_note(ex, ws) -> str:
    lanes = getattr(ex, "lane_sets", None) or {}
    parts = []
    for w in ws:
        ls = lanes.get(w)
        if ls is None:
            parts.append(f"warp {w}: every lane")
        else:
            ls = sorted(ls)
            txt = f"lane {ls[0]}" if len(ls) == 1 else \
                f"lanes {ls[0]}..{ls[-1]}" if ls == list(range(ls[0], ls[-1] + 1)) else f"lanes {ls}"
            parts.append(f"warp {w}: {txt}")
    return "; ".join(parts)


def _width(bits, rel, cap, ok_base) -> int:
    import reg_copy
    m = len(rel)
    tail = reg_copy._tail(rel, m)
    for vb in _VEC_BITS:
        if vb < bits or vb % bits:
            continue
        n = vb // bits
        if n == 1:
            return 1
        if cap is not None and n > cap or tail < n or tail % n:
            continue
        if not all(rel[q] % n == 0 for q in range(0, m, n)):
            continue
        if not ok_base(n):
            continue
        return n
    return 1


def _operands(call, dst_text, db, src_text, sb, ex):
    if db.dtype != sb.dtype:
        raise ConvertError(f"a thread copy between {sb.dtype} and {db.dtype}: TVM's copy variants need one dtype "
                           "(common.py:91)")
    if sb.scope == "local" and db.scope != "local":
        r, s = (dst_text, db, call.args[0]), (src_text, sb, call.args[1])
        r, s = s, r
    elif db.scope == "local" and sb.scope != "local":
        r, s = (dst_text, db, call.args[0]), (src_text, sb, call.args[1])
    else:
        raise ConvertError(f"a {sb.scope} -> {db.scope} thread copy: one side must be a thread's registers")
    if s[1].scope not in ("global", "shared", "shared.dyn"):
        raise ConvertError(f"a thread copy with a {s[1].scope} side: TVM's register copies pair registers with "
                           "global or shared memory (vec_auto_reg.py:52-57)")
    if not getattr(r[1], "own_registers", False):
        raise ConvertError(f"the register side {r[1].name} is not a plain T.alloc_local buffer (a view or a "
                           "fragment): which registers a thread moves is not derived here")
    return r, s


def auto(call, dst_text, db, src_text, sb, ex) -> dict:
    """The op fields {dispatch, access_bytes, warps, notes} of a thread-scope copy without
    dispatch= (vec_auto_reg), or ConvertError naming why not."""
    (rt, rb, ra), (st, s_b, sa) = _operands(call, dst_text, db, src_text, sb, ex)
    r_rel, r_conc, r_sym, _rs, r_dims = _side(rt, rb, ra, ex, "register")
    s_rel, s_conc, s_sym, swz, s_dims = _side(st, s_b, sa, ex, "memory")
    if [d for d in r_dims if d != 1] != [d for d in s_dims if d != 1]:
        raise ConvertError(f"the regions {rt} and {st} have different extents (TVM's copy needs equal non-unit "
                           "extents, common.py:97-102)")
    if r_rel != list(range(len(r_rel))):
        raise ConvertError(f"the register region {rt} is not one contiguous run of the thread's registers: the "
                           "registers vec_auto_reg moves per access are not derived here")
    bits = DTYPE_BITS[s_b.dtype]
    cap = (1 << swz[0]) if swz is not None and swz[1] > 0 else None
    w_conc = _width(bits, s_rel, cap, lambda n: s_conc % n == 0 and r_conc % n == 0)
    if s_sym is None or r_sym is None:
        raise ConvertError(f"a thread copy's vector width depends on the region's start ({s_conc} elements at "
                           f"this instance), whose code is not followed here (a view other than .sub, or a "
                           f"layout with an offset): TVM's analyzer proves the width from it")
    w_sym = _width(bits, s_rel, cap, lambda n: all(x % n == 0 for x in (s_sym[0], s_sym[1], r_sym[0], r_sym[1])))
    nb = lambda n: n * bits // 8  # noqa: E731
    if w_conc != w_sym:
        raise ConvertError(f"a thread copy's vector width depends on the kernel's runtime values: {nb(w_conc)} bytes "
                           f"with this instance's start ({s_conc} elements), {nb(w_sym)} bytes when each subscript "
                           f"that is not a source constant adds only its stride (start {s_sym[0]} + a multiple of "
                           f"{s_sym[1]}): which one TVM's analyzer proves (_alignment_ok) is not derived here")
    ws = ex.executing_warps()
    if ws is None:
        raise ConvertError("a thread copy is executed by threads, and the kernel declares no thread index that "
                           "fixes the CTA's warps")
    import reg_copy
    note = (f"TVM's vec_auto_reg at thread scope (bare Tx.copy; ldstmatrix refuses thread scope): {w_conc} "
            f"element(s) per access ({nb(w_conc)} bytes: contiguous tail {reg_copy._tail(s_rel, len(s_rel))}"
            + (f", swizzle cap {cap}" if cap is not None else "")
            + f", start {s_conc}{_sym_text(s_sym)}); executed by {_lanes_note(ex, ws)}")
    return {"dispatch": "thread", "access_bytes": nb(w_conc), "warps": ws, "notes": note}


def forced(call, dispatch, kw, dst_text, db, src_text, sb, ex) -> dict:
    """The op fields of `Tx.copy(..., dispatch="vec_NNNb")`, or ConvertError."""
    width = FORCED[dispatch]
    if not thread_scope(call):
        raise ConvertError(f"dispatch={dispatch!r} outside thread scope: TVM's vec_forced needs a thread-scope copy "
                           "(vec_forced.py:101-102)")
    (rt, rb, ra), (st, s_b, sa) = _operands(call, dst_text, db, src_text, sb, ex)
    bits = DTYPE_BITS[s_b.dtype]
    if (width * 8) % bits:
        raise ConvertError(f"dispatch={dispatch!r} is not a whole number of {s_b.dtype} elements (vec_forced.py:116)")
    want = width * 8 // bits
    r_rel, r_conc, _r_sym, _rs, _ = _side(rt, rb, ra, ex, "register")
    s_rel, s_conc, s_sym, swz, _ = _side(st, s_b, sa, ex, "memory")
    for text, rel in ((rt, r_rel), (st, s_rel)):
        if len(rel) != want:
            raise ConvertError(f"dispatch={dispatch!r}: the region {text} has {len(rel)} elements, not {want} "
                               "(vec_forced.py:120-125)")
        if rel != list(range(want)):
            raise ConvertError(f"dispatch={dispatch!r} moves the {width} bytes from the region's first element "
                               f"(vec_forced.py:148-149), and {text} is not those bytes")
    if swz is not None and swz[1] > 0 and want > (1 << swz[0]):
        raise ConvertError(f"dispatch={dispatch!r} on a swizzled shared region: {width} contiguous bytes are wider "
                           "than the swizzle keeps together")
    if width == 32 and s_b.scope != "global":
        raise ConvertError(f"dispatch={dispatch!r} with a {s_b.scope} side: a 32-byte access (.v8.u32) exists only "
                           "for the global state space (PTX ISA 8.8, ld / st), though TVM would emit it")
    ws = ex.executing_warps()
    if ws is None:
        raise ConvertError("a thread copy is executed by threads, and the kernel declares no thread index that "
                           "fixes the CTA's warps")
    load = sb.scope == s_b.scope
    sym = "" if s_sym is None else _sym_text(s_sym)
    aligned = "aligned" if s_conc % want == 0 else "NOT aligned"
    note = (f"TVM's vec_forced {dispatch}: one {'ld' if load else 'st'}.{'global' if s_b.scope == 'global' else 'shared'}"
            f" of {width} bytes per thread from the region's first element (TVM checks no alignment; the start "
            f"{s_conc}{sym} elements is {aligned} to {width} bytes at this instance); executed by "
            f"{_lanes_note(ex, ws)}")
    return {"dispatch": "thread", "access_bytes": width, "warps": ws, "notes": note}


# ---------------------------------------------------------------------------------------------
# A thread copy whose memory region is computed from the lane: the warp's threads together


def lane_blocked(err) -> bool:
    u = getattr(err, "item", None)
    return u is not None and bool(getattr(u.root(), "thread", False) or getattr(u, "thread", False))


def _take_back(ex, made) -> None:
    """Remove the plain buffers promote() made for this copy (the lane path models the array as the
    warp's fragment instead)."""
    for arr, ref in made:
        ex.buffers[:] = [b for b in ex.buffers if b.get("name") != ref.name]
        for k in [k for k, v in ex.emitted.items() if v is ref]:
            del ex.emitted[k]
        arr.buffer = None
        n = ex.names.get(arr.name, 0)  # its name is free again (Extraction.unique)
        if ref.name == (arr.name if n == 1 else f"{arr.name}/{n}"):
            ex.names[arr.name] = n - 1
            ex.__dict__.get("_issued", set()).discard(ref.name)


def per_lane(call, env, ex, line, made, region_fn, kwargs_fn) -> dict:
    """`Tx.copy(R, M[f(lane) ...])` executed by several lanes of one warp: each lane moves its own
    registers R and its own memory region.  When the regions of the executing lanes l0..l1 are one
    region's consecutive blocks in lane order (the start moves by the region's extent along one
    dimension, the dimensions before it of extent 1), the lanes together are one copy between that
    region and R's registers of every executing lane: a fragment buffer R.lanes, shape (lanes, |R|),
    layout S[(L, |R|):(1@laneid, 1)] (+ l0@laneid), lane l's registers its row."""
    import copy_options
    import layout_text  # noqa: F401
    import reg_copy
    from allocators import _emit
    from kernel_env import Evaluator
    ws = ex.executing_warps()
    if ws is None or len(ws) != 1:
        raise ConvertError(f"a thread copy whose region differs between the lanes of warps {ws}: only the lanes of "
                           "one warp are combined here")
    w = ws[0]
    lanes = (getattr(ex, "lane_sets", None) or {}).get(w)
    lanes = sorted(lanes) if lanes is not None else list(range(32))
    if lanes != list(range(lanes[0], lanes[-1] + 1)):
        raise ConvertError(f"a thread copy executed by lanes {lanes} of warp {w} (not consecutive lanes), each with "
                           "its own region: not combined here")
    _take_back(ex, made)
    per = []
    for ln in lanes:
        ev = Evaluator(env, thread=(w, ln))
        d_text, d_b = _operand(call.args[0], env, ev, ex, line, region_fn)
        s_text, s_b = _operand(call.args[1], env, ev, ex, line, region_fn)
        per.append((d_text, d_b, s_text, s_b))
    d_text, d_b, s_text, s_b = per[0]
    r_is_dst = type(d_b).__name__ == "RegArray" or d_b.scope == "local"
    r_arg = call.args[0] if r_is_dst else call.args[1]
    r_text = d_text if r_is_dst else s_text
    rb = d_b if r_is_dst else s_b
    if any((p[0] if r_is_dst else p[2]) != r_text for p in per):
        raise ConvertError("a thread copy whose register region differs between the lanes: not combined here")
    mem = [(p[2], p[3]) if r_is_dst else (p[0], p[1]) for p in per]
    mb = mem[0][1]
    if any(b is not mb for _t, b in mem):
        raise ConvertError("a thread copy whose lanes name different memory buffers: not combined here")
    regs = [reg_copy._region(t, mb.shape) for t, _b in mem]
    if any(r is None for r in regs):
        raise ConvertError(f"the per-lane region {mem[0][0]} is not constant")
    varying = [d for d in range(len(mb.shape)) if len({r[d] for r in regs}) > 1]
    n_l = len(lanes)
    if len(varying) != 1:
        raise ConvertError(f"the lanes' regions of {mb.name} differ in {len(varying)} dimensions: not one region's "
                           "blocks in lane order")
    d = varying[0]
    lo0, hi0 = regs[0][d]
    ext = hi0 - lo0
    if any(r[d] != (lo0 + ext * i, hi0 + ext * i) for i, r in enumerate(regs)) or \
            any(regs[0][k][1] - regs[0][k][0] != 1 for k in range(d)):
        raise ConvertError(f"the lanes' regions of {mb.name} are not consecutive blocks of one region in lane order "
                           f"(dimension {d}: {[r[d] for r in regs][:4]} ...)")
    if lo0 + ext * n_l > mb.shape[d]:
        raise ConvertError(f"the lanes' regions of {mb.name} run past its dimension {d}")
    # R: the whole per-thread storage, one register run
    if type(rb).__name__ == "RegArray":
        n_r, r_dtype, r_name, r_line, r_node = rb.n, rb.dtype, rb.name, rb.line, rb.node
        if r_text not in (rb.name, f"{rb.name}[0:{rb.n}]"):
            raise ConvertError(f"the register region {r_text} is not the whole array")
    else:
        raise ConvertError(f"a lane-dependent thread copy into {rb.name}, which is not a 1-D register array: not "
                           "combined here")
    if n_r != math.prod(hi - lo for lo, hi in regs[0]):
        raise ConvertError(f"the regions {r_text} and {mem[0][0]} have different element counts")
    if r_dtype != mb.dtype:
        raise ConvertError(f"a thread copy between {mb.dtype} and {r_dtype}: TVM's copy variants need one dtype")
    kw = kwargs_fn(call)
    dispatch = kw.pop("dispatch", None)
    if dispatch is not None and dispatch not in FORCED:
        raise ConvertError(f"dispatch={dispatch!r} on a lane-dependent thread copy: not modelled")
    lay = f"S[({n_l},{n_r}):(1@laneid,1)]" + (f" + {lanes[0]}@laneid" if lanes[0] else "")
    frag = _emit(ex, f"{r_name}.lanes", "local", (n_l, n_r), r_dtype, lay, r_line, r_node)
    # the union region and each lane's width
    union = list(regs[0])
    union[d] = (lo0, lo0 + ext * n_l)
    u_text = f"{mb.name}[{', '.join(':' if (lo, hi) == (0, n) else f'{lo}:{hi}' for (lo, hi), n in zip(union, mb.shape))}]"
    widths, starts = set(), []
    for (t, _b), p in zip(mem, per):
        if dispatch is None:
            f = auto(_LaneCall(call, r_is_dst), *(_pair(p, r_is_dst, rb_text=r_text, frag=None)), ex)
        else:
            f = forced(_LaneCall(call, r_is_dst), dispatch, {}, *(_pair(p, r_is_dst, rb_text=r_text, frag=None)), ex)
        widths.add(f["access_bytes"])
        starts.append(f["notes"])
    if len(widths) != 1:
        raise ConvertError(f"the lanes' accesses have different widths {sorted(widths)}")
    width = widths.pop()
    if r_is_dst:
        cache_note = copy_options.load_cache(kw, frag, mb)
    else:
        cache_note = copy_options.load_cache(kw, mb, frag)
    if kw:
        raise ConvertError(f"option(s) {', '.join(sorted(kw))} not modelled by the model format")
    note = (f"lanes {lanes[0]}..{lanes[-1]} of warp {w} each move their own {n_r} registers of {r_name} and "
            f"{mem[0][0]} (lane {lanes[0]}) ... {mem[-1][0]} (lane {lanes[-1]}): together {u_text}, "
            f"{frag.name} holding lane l's registers in its row l; per lane: {starts[0].split('; executed by')[0]}")
    if cache_note:
        note += "; " + cache_note
    op = {"kind": "copy", "dst": frag.name if r_is_dst else u_text, "src": u_text if r_is_dst else frag.name,
          "dispatch": "thread", "notes": note, "warps": [w], "access_bytes": width}
    return op


def _operand(arg, env, ev, ex, line, region_fn):
    """(region text, buffer) of one operand; a 1-D register array as (text, the RegArray)."""
    base = arg.value if isinstance(arg, ast.Subscript) else arg
    arr = env.get(base.id) if isinstance(base, ast.Name) else None
    if type(arr).__name__ != "RegArray" or arr.frag is not None or getattr(arr, "local_of", None) is not None:
        return region_fn(arg, env, ev, ex, line)
    if not isinstance(arg, ast.Subscript):
        return arr.name, arr
    ix = arg.slice
    if not isinstance(ix, ast.Slice) or ix.step is not None:
        raise ConvertError(f"{ast.unparse(arg)!r} is not a range of the register array")
    lo = ev.as_int(ix.lower) if ix.lower is not None else 0
    hi = ev.as_int(ix.upper) if ix.upper is not None else arr.n
    return f"{arr.name}[{lo}:{hi}]", arr


class _LaneCall:
    """The call seen by auto()/forced() for one lane: its operand ASTs (for the starts' sources) with
    the register array standing for a plain buffer."""

    def __init__(self, call, r_is_dst):
        self.func, self.args, self.keywords = call.func, call.args, call.keywords


class _PlainRegs:
    def __init__(self, name, n, dtype):
        self.name, self.scope, self.shape, self.dtype, self.layout = name, "local", (n,), dtype, f"S[{n}:1]"
        self.own_registers = True
        self.line = None


def _pair(p, r_is_dst, rb_text, frag):
    d_text, d_b, s_text, s_b = p
    if type(d_b).__name__ == "RegArray":
        d_b, d_text = _PlainRegs(d_b.name, d_b.n, d_b.dtype), f"{d_b.name}[0:{d_b.n}]"
    if type(s_b).__name__ == "RegArray":
        s_b, s_text = _PlainRegs(s_b.name, s_b.n, s_b.dtype), f"{s_b.name}[0:{s_b.n}]"
    return d_text, d_b, s_text, s_b
