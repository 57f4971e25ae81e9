"""Per-thread scalars under the coroutine walk of sibling warp roles (role_sched.py).

A declared TIR scalar (`x: T.int32`, `x: T.int32 = v`, `x = T.local_scalar(...)`:
tvm_classes.TirLocal) is a register of every thread, not shared storage: after a fork into warp
roles each role's threads hold their own copy.  The walk keeps one TirLocal object per
declaration (the @T.inline helpers and the environments of the roles all refer to it), so under
the coroutine walk each role keeps its own *state* of the object: at the fork every role starts
from the value the cell holds there (the entry value, shared), a store in a role changes that
role's state only, and a role switch (role_sched._capture / _install) saves the leaving role's
states and restores the arriving one's.  Genuinely shared state is not touched: shared memory,
barriers, pools and PipelineStates (tvm_classes.PipeState keeps its own per-warp copies), and
Python-level values (a `T.meta_var`, a Python int) are one for every role, as before.

When every role has ended the enclosing code sees (`join`): the entry state where no role stored;
the storing role's state where exactly one did (valid for that role's warps only: TirLocal.get
makes a read by other warps unresolved, as the role-by-role walk did); where several did, their
common value valid for the union of their warps when they agree, else the cell is lost ("the
warp roles' copies differ").  Only the cells declared before the fork are per role: a scalar
declared inside a role's code is a new object that only that role reaches.
"""
from __future__ import annotations

_PLAIN = (int, float, bool, str, type(None), tuple, frozenset, set, list)


def collect(envs, inherited=()) -> list:
    """The TirLocal cells of the forking environments (and of the closures of the helpers bound
    there), with those of enclosing forks (`inherited`), each once."""
    import tvm_classes
    from kernel_env import FuncValue
    import tile_cells
    seen = {id(c): c for c in inherited}
    for e in envs:
        for v in list(e.values()):
            vals = [v]
            if isinstance(v, FuncValue) and isinstance(getattr(v, "closure", None), dict):
                vals += list(v.closure.values())
            vals += tile_cells.reachable(vals)  # held by a tile-task instance / class (tile_cells.py)
            import reg_cell
            vals += reg_cell.cells_of(vals)  # X[0] of a (1,) register buffer (reg_cell.py)
            for w in vals:
                if isinstance(w, tvm_classes.TirLocal) and id(w) not in seen:
                    seen[id(w)] = w
    return list(seen.values())


def states(cells) -> list:
    """Each cell's state now (its attributes; the values themselves are replaced, never mutated,
    by TirLocal.set / lose)."""
    return [(c, dict(c.__dict__)) for c in cells]


def install(saved) -> None:
    for c, st in saved:
        c.__dict__.clear()
        c.__dict__.update(st)


def _same(a, b) -> bool:
    if a is b:
        return True
    if type(a) is not type(b) or not isinstance(a, _PLAIN):
        return False  # a TIR expression's == builds an expression: identity only
    try:
        return bool(a == b)
    except Exception:  # noqa: BLE001 - a container of TIR expressions
        return False


def _changed(st, entry) -> bool:
    return st.keys() != entry.keys() or any(not _same(st[k], entry[k]) for k in st)


def join(entry, finals) -> None:
    """Install the state the code after the roles sees (module docstring)."""
    from kernel_env import Unresolved
    finals = [f for f in finals if f is not None]
    for i, (cell, st0) in enumerate(entry):
        changed = [f[i][1] for f in finals if i < len(f) and f[i][0] is cell and _changed(f[i][1], st0)]
        if not changed:
            continue
        if len(changed) == 1 and changed[0].get("valid_for") is not None:
            install([(cell, changed[0])])
            continue
        vals = [c.get("value") for c in changed]
        if all(c.get("valid_for") is not None for c in changed) and \
                not isinstance(vals[0], Unresolved) and all(_same(v, vals[0]) for v in vals):
            st = dict(changed[-1])
            st["valid_for"] = sorted(set().union(*(set(c["valid_for"]) for c in changed)))
            install([(cell, st)])
            continue
        install([(cell, changed[-1])])
        line = changed[-1].get("set_line", cell.line)
        cell.lose(line, "stored differently by several warp roles: after their branches each warp holds "
                        "its own role's value")
