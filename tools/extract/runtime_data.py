"""Runtime data under the representative instance: an index the kernel reads from memory at run time.

Some integers an op needs are data: a TMA coordinate or a gather4 row that the kernel computes from
what it loads at run time (grouped_fp8_gemm_contiguous's `group: T.int32`, loaded from
GROUPED_LAYOUT by `T.ptx.ld.global_.s32`; mqa_logits' `schedule_result[0]`, a register holding the
first KV row of the schedule computed from `cu_seq_len_k_start`; sparse_atten_fwd's
`head_kv_idx[0]` and its gather4 rows `rows[j]`).  The source does not fix them.  Without a
convention (`--instance none`) the ops stay unresolved, naming the value.  Under the representative
instance (`--instance cta0-first-tile`, the default) such a value is one more recorded assumption of
the instance, like CTA 0 and a runtime loop's first iteration:

  * the ROOT is what the walk could not evaluate: a TIR scalar declared without a value
    (`x: T.int32`, kernel_walk) or one register of a register array (`T.alloc_local((n,), "int32")`,
    fragments.RegElem), named with the line of its declaration -- and, for an array a helper
    allocates, the walked statement that called the helper (`call_site`): two calls of one helper
    (`ld_shared_i32(meta, 1)`, `ld_shared_i32(meta, 3)`) are two roots;
  * a root is wanted only when an op's TMA coordinate (or gather4 row) depends on it (`coord`,
    instr_ops.tma_ops); the extraction then runs again with the wanted roots bound from the start
    (`next_round`, extract.run: at most MAX_ROUNDS walks), so what is computed from them (mqa's
    `kv_row0 = kv_start + kv_idx * block_kv`) follows;
  * the value is the smallest legal one: 0 for an index (a TMA coordinate's least value), and for a
    root read as gather4 row j the value j: the four rows of one gather are taken to be the
    distinct rows 0, 1, 2, 3 (four equal rows are legal too, but then every row region of the op is
    the same row and kernel.tma-layout could not tell which box row lands where; distinct rows keep
    that check meaningful);
  * it holds at EVERY read of the root in that walk (every store the kernel makes to it is taken to
    store that value), tests included, and each root read is one binding in
    `extraction.instance.bindings` ("runtime data: ...", the declaration's line, the value);
  * a root that may hold an ADDRESS is never bound (`screen`): an integer dtype is required, and the
    file must not take its address (`T.address_of(x)`: an instruction such as tcgen05.alloc writes
    through it), pass it to a tcgen05 / TMEM instruction or keyword (`tmem_addr=`, a TMEM address),
    assign it an address expression (`.data`, `allocated_addr`, `get_tmem_addr`, `cvta`,
    `ptr_byte_offset`), or load it from a buffer whose address the file takes (tcgen05.alloc's
    result buffer) -- nor may any name assigned from an expression that reads it.  A root the
    screen refuses stays unresolved as before, its reason saying why.
The screen reads the kernel function holding the root and the file's top-level functions it calls
(a use in another module is not read; a helper called from another module is refused).
"""
from __future__ import annotations

import ast

from corpus_notation import ConvertError, dotted

MAX_ROUNDS = 4
INT_DTYPES = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"}
ADDRESS_CALLS = ("address_of", "get_tmem_addr", "cvta", "ptr_byte_offset", "handle_add_byte_offset",
                 "reinterpret", "tvm_access_ptr")
ADDRESS_ATTRS = ("data", "allocated_addr")

WANTED: dict = {}   # root key -> {"value", "use"}: roots an op's coordinate needed in this walk
BOUND: dict = {}    # root key -> {"value", "use", "what"}: roots bound from the start of this walk
REFUSED: dict = {}  # root key -> why the screen refuses it
PROBE: dict = {}    # root key -> value: taken while range_data.py probes a value (no binding recorded)
STATE = {"tree": None}


def reset() -> None:
    WANTED.clear()
    BOUND.clear()
    REFUSED.clear()


def set_tree(tree, file_label: str) -> None:
    STATE["tree"], STATE["file"] = tree, file_label
    WANTED.clear()


# -- roots ------------------------------------------------------------------------------------

STACK: list = []     # (file, statement) of the statements being walked, outermost first (kernel_walk)


def call_site(alloc_st):
    """For a register array allocated by `alloc_st` (the innermost walked statement): the walked
    statement that called the helper holding it (the innermost one that does not contain alloc_st's
    line), or None when the kernel function itself allocates it (every enclosing statement holds it)."""
    for f, st in reversed(STACK[:-1] if STACK and STACK[-1][1] is alloc_st else STACK):
        if not (st.lineno <= alloc_st.lineno <= (getattr(st, "end_lineno", None) or st.lineno)):
            return f, st
    return None


def _reg_key(array, index: int, site="array") -> tuple:
    site = getattr(array, "site", None) if site == "array" else site
    return ("reg", array.name, array.line, index, None if site is None else (site[0], site[1].lineno))


def _info(key, array=None) -> dict:
    """What the screen needs of a root: its dtype and the statement of a helper call that made it."""
    if array is None:
        return {"dtype": _dtype_of(STATE["tree"], key) if STATE["tree"] is not None else None, "site": None}
    return {"dtype": array.dtype, "site": getattr(array, "site", None)}


def root_key(v):
    """(key, info) of the root of a value the walk could not evaluate, or None."""
    import fragments
    from kernel_env import Unresolved
    if isinstance(v, fragments.RegElem):
        return _reg_key(v.array, v.index, v.site), dict(_info(None, v.array), site=v.site)
    if isinstance(v, Unresolved):
        r = v.root()
        reg = getattr(r, "reg", None)
        if isinstance(reg, fragments.RegElem):
            return _reg_key(reg.array, reg.index, reg.site), dict(_info(None, reg.array), site=reg.site)
        if r.line is not None and r.reason.startswith("declared without a value"):
            key = ("scalar", r.name, r.line)
            return key, _info(key)
    return None


def describe(key) -> str:
    import buffer_regs  # an element of a plain register buffer by its indices (buffer_regs.py)
    return buffer_regs.indices(key[1], key[2], key[3]) if key[0] == "reg" else key[1]


def coord(ev, node, value: int, use: str) -> int:
    """Evaluate an op's integer operand (a TMA coordinate, a gather4 row) as Evaluator.as_int does;
    when it fails on a runtime-data root, the root is wanted with `value` (the next walk binds it)."""
    from kernel_env import UnresolvedError
    try:
        v = ev.value(node)
    except UnresolvedError as e:
        why = _want(root_key(e.item), value, use)
        r = e.item.root()
        if why and NOT_BOUND not in r.reason:
            r.reason += f"; {NOT_BOUND}: {why}"
        raise
    if isinstance(v, bool) or not isinstance(v, int):
        why = _want(root_key(v), value, use)
        raise ConvertError(f"{ast.unparse(node)!r} is not an integer (got {v!r})"
                           + (f"; {NOT_BOUND}: {why}" if why else ""))
    return v


def coord_of_value(v, value: int, use: str, what: str) -> int:
    """`coord` for an operand already evaluated (an element of a keyword option's list, such as a
    tile copy's `gather4=[...]`, tma_explicit.py)."""
    from kernel_env import ConvertError
    if isinstance(v, bool) or not isinstance(v, int):
        why = _want(root_key(v), value, use)
        raise ConvertError(f"{what} is not a value the source fixes (got {v!r})"
                           + (f"; {NOT_BOUND}: {why}" if why else ""))
    return v


def coords(ev, nodes, values, use: str) -> tuple:
    """Every operand of `nodes` through `coord` (values[k] for the k-th), so that one walk finds
    every root they need; then the first failure is raised."""
    out, first = [], None
    for node, value in zip(nodes, values):
        try:
            out.append(coord(ev, node, value, use(value) if callable(use) else use))
        except ConvertError as e:
            first = first or e
    if first is not None:
        raise first
    return tuple(out)


NOT_BOUND = "runtime data the representative instance does not bind"


def _want(root, value: int, use: str):
    """Want the root (the next walk binds it), or say why the screen refuses it."""
    import kernel_env
    if root is None or not kernel_env.convention_on() or root[0] in BOUND:
        return None
    key, info = root
    if key not in REFUSED and key not in WANTED:
        why = screen(key, info)
        if why is not None:
            REFUSED[key] = why
    if key in REFUSED:
        return REFUSED[key]
    WANTED.setdefault(key, dict(info, value=value, use=use))
    return None


def next_round() -> bool:
    """After a walk: bind the wanted roots the screen accepts; True when the walk must run again."""
    import kernel_env
    if not kernel_env.convention_on():
        return False
    new = False
    for key, w in sorted(WANTED.items(), key=lambda kv: str(kv[0])):
        if key in BOUND or key in REFUSED:
            continue
        BOUND[key] = {"value": w["value"], "use": w["use"], "site": w["site"]}
        new = True
    WANTED.clear()
    return new


# -- reads in the next walk -------------------------------------------------------------------

def bound_reg(array, index: int):
    """The bound value of register `index` of `array` (a fragments.RegArray), or None."""
    if PROBE and _reg_key(array, index) in PROBE:
        return PROBE[_reg_key(array, index)]
    if not BOUND:
        return None
    return _read(_reg_key(array, index))


def bound_scalar(name: str, line: int):
    if PROBE and ("scalar", name, line) in PROBE:
        return PROBE[("scalar", name, line)]
    if not BOUND:
        return None
    return _read(("scalar", name, line))


def _read(key):
    b = BOUND.get(key)
    if b is None:
        return None
    import kernel_env
    site = b["site"]
    if site is not None:  # a helper's register: the value of the helper call in that statement
        line = site[1].lineno
        what = (f"runtime data: {_short(site[1])} (line {line}) reads {describe(key)}, a register the helper it "
                f"calls fills at run time (declared at the helper's line {key[2]})")
    elif key[0] == "reg":
        line = key[2]
        what = (f"runtime data: {describe(key)}, a register of the array declared at line {line}, holds what "
                "the kernel computes from memory at run time")
    else:
        line = key[2]
        what = (f"runtime data: {key[1]}, a TIR scalar declared without a value at line {line}, holds what the "
                "kernel loads at run time")
    what += f"; the instance takes it to be {b['value']} at every read ({b['use']})"
    kernel_env.note_convention(what, line, b["value"])
    return b["value"]


def _short(st) -> str:
    t = " ".join(ast.unparse(st).split())
    return t if len(t) <= 100 else t[:97] + "..."


# -- the address screen -----------------------------------------------------------------------

def _names_in(node) -> set:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _call_text(c: ast.Call) -> str:
    f = c.func
    if isinstance(f, ast.Subscript):  # T.ptx["tcgen05...."](...) / T.ptx[f"..."](...)
        parts = [dotted(f.value) or ""]
        parts += [n.value for n in ast.walk(f.slice) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
        parts += [dotted(n) or "" for n in ast.walk(f.slice) if isinstance(n, (ast.Name, ast.Attribute))]
        return " ".join(parts)
    return dotted(f) or ""


def _address_expr(node) -> bool:
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and n.attr in ADDRESS_ATTRS:
            return True
        if isinstance(n, ast.Call) and _call_text(n).split(".")[-1] in ADDRESS_CALLS:
            return True
    return False


def _addressed_buffers(tree) -> set:
    """Names whose address the file takes (T.address_of(B[...]) / T.address_of(B))."""
    out = set()
    for c in ast.walk(tree):
        if isinstance(c, ast.Call) and _call_text(c).split(".")[-1] == "address_of":
            for a in c.args:
                out |= _names_in(a)
    return out


def _dtype_of(tree, key):
    """The integer dtype of the root's declaration at its line, or None."""
    name, line = key[1], key[2]
    for st in ast.walk(tree):
        if getattr(st, "lineno", None) != line:
            continue
        if key[0] == "scalar" and isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and \
                st.target.id == name:
            return (dotted(st.annotation) or "").split(".")[-1]
        if key[0] == "reg" and isinstance(st, ast.Assign) and isinstance(st.value, ast.Call) and \
                any(isinstance(t, ast.Name) and t.id == name for t in st.targets):
            c = st.value
            dt = c.args[1] if len(c.args) > 1 else next((k.value for k in c.keywords if k.arg == "dtype"), None)
            return dt.value if isinstance(dt, ast.Constant) and isinstance(dt.value, str) else None
    return None


def _targets(st) -> set:
    ts = st.targets if isinstance(st, ast.Assign) else [st.target] if isinstance(st, (ast.AnnAssign, ast.AugAssign)) \
        else []
    return {r for r in (_root(t) for t in ts) if r}


def _tainted(tree, names: set) -> set:
    """`names` and every name the file assigns from an expression that reads one of them."""
    names = set(names)
    assigns = [n for n in ast.walk(tree) if isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and
               n.value is not None]
    grew = True
    while grew:
        grew = False
        for n in assigns:
            if _names_in(n.value) & names and not _targets(n) <= names:
                names |= _targets(n)
                grew = True
    return names


def _scope(tree, line: int) -> list:
    """The code the screen reads for a root at `line`: the top-level function holding that line and
    the file's top-level functions it calls (by name, transitively)."""
    tops = {st.name: st for st in tree.body if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef))}
    first = next((st for st in tops.values() if st.lineno <= line <= (st.end_lineno or st.lineno)), None)
    if first is None:
        return []
    out, todo = [], [first]
    while todo:
        fn = todo.pop()
        if any(fn is o for o in out):
            continue
        out.append(fn)
        todo += [tops[c.func.id] for c in ast.walk(fn) if isinstance(c, ast.Call) and isinstance(c.func, ast.Name)
                 and c.func.id in tops]
    return out


def screen(key, info: dict):
    """Why the root may hold an address (so is not bound), or None when it is an index."""
    tree = STATE["tree"]
    if tree is None:
        return "the kernel file is not read"
    site = info.get("site")
    scope = _scope(tree, site[1].lineno if site is not None else key[2])
    if not scope:
        return f"line {key[2]} is in no function of the kernel file"
    tree = ast.Module(body=scope, type_ignores=[])
    if info.get("dtype") not in INT_DTYPES:
        return f"it is not of an integer dtype ({info.get('dtype')})"
    addressed = _addressed_buffers(tree)
    if site is not None:
        if site[0] != STATE.get("file"):
            return f"it is made by a helper called from {site[0]}, which the screen does not read"
        st = site[1]
        if _names_in(st) & addressed:
            return (f"the statement at line {st.lineno} names a buffer whose address the file takes (e.g. "
                    "tcgen05.alloc's result)")
        names = _targets(st)
        if not names:
            return f"the value of the statement at line {st.lineno} is not assigned to a name the screen follows"
    else:
        names = {key[1]}
    for name in sorted(_tainted(tree, names)):
        why = _address_use(tree, name, addressed)
        if why is not None:
            return why
    return None


def _address_use(tree, name: str, addressed: set):
    if name in addressed:
        return f"the file takes the address of {name} (an instruction may write an address through it)"
    for n in ast.walk(tree):
        if isinstance(n, ast.Call):
            text = _call_text(n)
            operands = list(n.args) + [k.value for k in n.keywords]
            if not any(name in _names_in(a) for a in operands):
                continue
            if "tcgen05" in text or "tmem" in text.lower():
                return f"{name} is an operand of {text.split()[0]} at line {n.lineno} (a TMEM address)"
            if any(k.arg in ("tmem_addr", "allocated_addr") and name in _names_in(k.value) for k in n.keywords):
                return f"{name} is passed as a TMEM address at line {n.lineno}"
            if ".ld." in f".{text}." and n.args and name in _names_in(n.args[0]) and \
                    any(_names_in(a) & addressed for a in n.args[1:]):
                return (f"{name} is loaded at line {n.lineno} from a buffer whose address the file takes "
                        "(e.g. tcgen05.alloc's result)")
        elif isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign)) and n.value is not None:
            if name in _targets(n) and _address_expr(n.value):
                return f"{name} is assigned an address at line {n.lineno}"
    return None


def _root(t):
    while isinstance(t, ast.Subscript):
        t = t.value
    return t.id if isinstance(t, ast.Name) else None
