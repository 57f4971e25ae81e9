"""A one-element register buffer used as a scalar: `X = T.alloc_buffer((1,), "int32", scope="local")`,
stored by `X[0] = v`, read as `X[0]`.

TVM's `T.local_scalar(dtype)` is itself a (1,)-shaped local buffer whose element 0 the parser loads
and stores (apache/tvm 5d4dc87 python/tvm/tirx/script/parser/parser.py:617-654 visit_assign: a
target that loads as such a scalar is `T.buffer_store(buffer, rhs, [0])`), so element 0 of a
(1,)-shaped local integer buffer that the code only reads and stores through `X[0]` is the same
thing: a register of every thread, a declared scalar.  The megakernel keeps its ring phase so
(spectrometerHBH 8721e86 megakernel/tile_tasks/gemm.py:187 `GemmTile.phase = T.alloc_buffer((1,),
"int32", scope="local")`, 209 `cls.phase[0] = 0`, 476 / 547 / 614 `self.phase[0] = self.phase[0] ^ 1`,
read by the mbarrier waits `self.mma2tma_bar.wait(ks, self.phase[0])`).

Such an element gets a tvm_classes.TirLocal cell (`buf.cell0`) at its first plain store, and from
then on a store `X[0] = v` is a store into that cell (kernel_walk.bind: the warps running it, lost
under an undecided condition, in a loop the walk does not unroll, after a loop of which the walk
takes the first iterations) and a read `X[0]` reads it (TirLocal.get).  Where the cell holds no
fixed value (a store of a runtime value, a lost cell, a read by warps the value does not hold for)
the read is the register's runtime content as before (fragments.RegElem / buffer_regs.element):
never a number.  The cell is per role under the coroutine walk (thread_cells.collect, through
tile_cells.cells for a tile's attribute) and a tile attribute's cell is taken at `run`'s entry only
under the representative instance's first tile (tile_cells.enter_run).

The buffer *escapes* -- its cell is lost for good and never made again -- when a statement names it
other than as `X[0]` stored by a plain assignment or read inside an expression: passed itself to a
call, `X.ptr_to`, `X.data`, `T.address_of(X[0])`, a view, an element other than 0, or `X[0]` given
directly as an argument to a builder instruction (T.* / Tx.* / K.*: it may be an output operand),
except an operand the instruction only reads (READ_OPERANDS: an mbarrier wait's parity).
Reads inside a loop the walk does not unroll are the runtime content too (a later iteration may read
a store the one walked pass places after the read).

Python 3 standard library only.
"""
from __future__ import annotations

import ast

BUILDERS = ("T", "Tx", "K", "tvm", "tirx")
STATE = {"bufs": [], "ex": None}


def reset(ex=None) -> None:
    STATE["bufs"], STATE["ex"] = [], ex


def eligible(buf) -> bool:
    """A (1,) local integer buffer of the thread's own registers (buffer_regs.plain), or a register array
    of one integer register (fragments.RegArray: `T.alloc_buffer((1,), "int32", scope="local")` the
    walk holds as registers) that is no fragment and has no views."""
    import buffer_regs
    import fragments
    if getattr(buf, "escaped", None):
        return False
    if isinstance(buf, fragments.RegArray):
        return buf.n == 1 and str(buf.dtype).startswith(("int", "uint")) and buf.buffer is None and \
            buf.frag is None and not buf.c_fragment and not buf.views and getattr(buf, "local_of", None) is None
    return tuple(getattr(buf, "shape", ())) == (1,) and buffer_regs.plain(buf)


def _buf(node, env):
    import fragments
    import kernel_env
    try:
        v = kernel_env.Evaluator(env).value(node)
    except Exception:  # noqa: BLE001 - not a buffer
        return None
    return v if isinstance(v, (kernel_env.BufferRef, fragments.RegArray)) else None


def _elem0(t) -> bool:
    return isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Constant) and t.slice.value == 0 and \
        not isinstance(t.slice.value, bool)


def cell_for_store(target, env, ex, line: int):
    """The cell `X[0] = v` stores into (made at the first store), or None when the target is not one."""
    import tvm_classes
    from kernel_env import Unresolved
    if not _elem0(target):
        return None
    b = _buf(target.value, env)
    if b is None or not eligible(b):
        return None
    c = getattr(b, "cell0", None)
    if c is None:
        n = f"{ast.unparse(target.value)}[0]"
        c = b.cell0 = tvm_classes.TirLocal(n, line, ex.warps, Unresolved(
            n, line, "declared without a value (a register element before its first store)"))
        c.lane_depth = len(ex.lane_changes)
        STATE["bufs"].append(b)
    return c


def read(buf):
    """X[0] of a buffer with a cell: the cell's fixed value at this point of the walk; None (the
    caller reads the register's runtime content) when it has no cell or the cell holds no fixed value."""
    from kernel_env import Unresolved
    c = getattr(buf, "cell0", None)
    if c is None or getattr(buf, "escaped", None):
        return None
    ex = STATE["ex"]
    if ex is not None and ex.runtime_loops:
        return None  # a later iteration may read a store the walked pass places after the read
    v = c.get(None)
    if isinstance(v, Unresolved):
        return None  # not fixed here: the register's runtime content, as without a cell (fragments.RegElem)
    return v


def cells_of(values) -> list:
    """The cells of the buffers among `values` (thread_cells.collect, tile_cells.cells)."""
    import fragments
    import kernel_env
    return [v.cell0 for v in values if isinstance(v, (kernel_env.BufferRef, fragments.RegArray)) and
            getattr(v, "cell0", None) is not None and not getattr(v, "escaped", None)]


def escapes(st, env, line: int) -> None:
    """A statement naming a cell's buffer other than by `X[0]` loads / plain stores: the buffer escapes."""
    if not STATE["bufs"]:
        return
    names = {b.name.rsplit(".", 1)[-1] for b in STATE["bufs"] if not getattr(b, "escaped", None)}
    if not names:
        return
    parents = {}
    for n in ast.walk(st):
        for c in ast.iter_child_nodes(n):
            parents[id(c)] = n
    targets = set()
    if isinstance(st, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
        for t in (st.targets if isinstance(st, ast.Assign) else [st.target]):
            targets.add(id(t))
    for n in ast.walk(st):
        last = n.attr if isinstance(n, ast.Attribute) else n.id if isinstance(n, ast.Name) else None
        if last is None:
            continue
        p = parents.get(id(n))
        if last not in names and not (isinstance(p, ast.Subscript) and p.value is n) and \
                not (isinstance(p, ast.Call) and n in p.args + [k.value for k in p.keywords]):
            continue  # (another name for the buffer shows as a subscript's base or a call's argument)
        b = _buf(n, env)
        if b is None or not any(x is b for x in STATE["bufs"]) or getattr(b, "escaped", None):
            continue
        ok = False
        if isinstance(p, ast.Subscript) and p.value is n and _elem0(p):
            pp = parents.get(id(p))
            if id(p) in targets:
                ok = isinstance(st, ast.Assign) and len(st.targets) == 1  # a plain store (AugAssign: x = x op e)
                ok = ok or isinstance(st, ast.AugAssign)
            elif isinstance(pp, ast.Call) and p in pp.args + [k.value for k in pp.keywords]:
                ok = not _builder(pp) or _read_operand(pp, p)  # a Python / inline helper's argument: a value
            else:
                ok = not (isinstance(pp, ast.Call) and pp.func is p)
        if not ok:
            _escape(b, line, f"{ast.unparse(p if p is not None else n)[:80]}")


# Builder instructions whose operand at a position is only read: the phase parity of an mbarrier wait
# (PTX ISA 9.7.13.15.16 mbarrier.test_wait / try_wait: `waitComplete, [addr], phaseParity`, the
# parity an input; TVM's T.ptx.mbarrier.try_wait(addr, parity) loops on it and writes no operand).
READ_OPERANDS = {"mbarrier.try_wait": (1,), "mbarrier.try_wait.parity": (1,), "mbarrier.test_wait": (1,),
                 "mbarrier.test_wait.parity": (1,)}


def _read_operand(call, arg) -> bool:
    from corpus_notation import dotted
    name = dotted(call.func) or ""
    if not name.startswith(("T.ptx.", "Tx.ptx.")):
        return False
    pos = READ_OPERANDS.get(name.split(".ptx.", 1)[1], ())
    return any(i < len(call.args) and call.args[i] is arg for i in pos)


def _builder(call) -> bool:
    from corpus_notation import dotted
    name = dotted(call.func) or ""
    return name.split(".", 1)[0] in BUILDERS or isinstance(call.func, ast.Subscript)


def _escape(b, line: int, what: str) -> None:
    b.escaped = line
    c = getattr(b, "cell0", None)
    if c is not None:
        c.lose(line, f"{b.name}: its register named at line {line} other than by X[0] loads and stores ({what}): "
               "writes there are not followed")
