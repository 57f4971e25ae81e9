"""Loops the walk does not unroll, under the representative instance: the walked body is iteration 0.

A runtime loop (a `T.serial` / `range` whose extent is a runtime value, a `while`) has its body
walked once.  Without a convention (`--instance none`) that one pass stands for every iteration,
so what the body may store is unresolved at the loop head (flow_state.runtime_loop_enter).  Under
the representative instance (`--instance cta0-first-tile`, the default) the walked pass is the
loop's FIRST iteration, exactly like a sampled `T.serial` loop whose walk takes one iteration
(kernel_walk.loop_values):

  * the loop variable is the range's start (`range(n)` / `T.serial(n)`: 0; `range(a, n[, s])`: a,
    when the source fixes a; else it stays unresolved);
  * declared scalars (tvm_classes.TirLocal), PipelineStates and registers `K.assign` sets hold
    their value on entry at the head, and the body's stores and `advance()` calls are followed in
    order as straight-line code (branches on runtime tests keep the merge rules of kernel_walk);
  * a test iteration 0's values decide is decided (`if last_valid != 0:` with `last_valid` 0 on
    entry): what only later iterations run is not in the model, as for a sampled loop;
  * the model then describes iteration 0 of that loop, under the assumption that the loop runs at
    least once (its test or extent is a runtime value): one binding per loop in
    `extraction.instance.bindings` ("the loop at line N runs at least once ...").

After the loop nothing of iteration 0 is kept (the number of iterations is unknown): a declared
scalar the body may store (helpers included, flow_state._stored_names) holds its value on entry or
the last iteration's store, known only when every store to it is an invariant statement of the body
itself (no call other than a TIR builder, no name the body assigns, no loop variable; every one at
the top level of the body) and its value equals the one on entry; a PipelineState the body changes
(or could change on a path iteration 0 did not take: flow_state.unexecuted_changes) goes stale; a
SmemDescriptor the body initialised, a register it `K.assign`ed, a name it bound (kern code, which
has no TVMScript frames) and the loop variable become unresolved, naming the loop.
docs/extract.md, "Runtime loops: the first iteration", states the rule and its effect.
"""
from __future__ import annotations

import ast

from corpus_notation import dotted

RANGE_FUNCS = {"range", "serial", "unroll"}   # loops whose first iteration is the range's start
TIR_PREFIXES = ("T.", "Tx.", "tirx.", "tvm.tirx.")
NOT_FIXED = object()                            # a start the source does not fix


def runtime_range(why) -> bool:
    """A `for` loop the walk does not unroll because its range is a runtime value (kernel_walk.
    loop_values' reason); a fixed range too long to walk is not one (it keeps flow_state's rule)."""
    return isinstance(why, str) and why.startswith(("its range depends on", "its range is not fixed"))


def loop_start(st, ev):
    """The first value of a `for` loop's variable: the range's start, or NOT_FIXED.  None when the
    loop is not a range loop (its iterations are not ordered from a start: no first iteration)."""
    it = st.iter
    if not isinstance(it, ast.Call) or (dotted(it.func) or "").split(".")[-1] not in RANGE_FUNCS:
        return None
    short = (dotted(it.func) or "").split(".")[-1]
    if short == "range" and it.keywords or not 1 <= len(it.args) <= 3 or any(isinstance(a, ast.Starred)
                                                                            for a in it.args):
        return None
    if len(it.args) == 1:
        return 0
    try:
        return ev.as_int(it.args[0])
    except Exception:  # noqa: BLE001 - a runtime start (UnresolvedError): the variable stays unresolved
        return NOT_FIXED


class FirstIteration:
    """One runtime loop walked as its first iteration: what held on entry, to undo after it."""

    def __init__(self, st, env: dict, ex):
        import flow_state
        import tvm_classes
        self.line = st.lineno
        names = flow_state._stored_names(st.body, env)
        self.any_name = "*" in names
        self.stored = flow_state._stored_names(st.body, env, params=False)  # (a helper's parameter is its own)
        from kernel_env import names_of
        self.fixed = self.stored | set(names_of(getattr(st, "target", None)))  # what iteration 0 fixes
        self.cells = {}   # id -> (cell, value on entry, warps on entry)
        for n, v in env.items():
            if isinstance(v, tvm_classes.TirLocal) and (self.any_name or n in names) and id(v) not in self.cells:
                self.cells[id(v)] = (v, v.value, v.valid_for)
        self.descs = {id(v): (v, v.encoded) for v in env.values() if isinstance(v, tvm_classes.SmemDescObj)}
        # the PipelineStates the body (or a helper it calls) may advance / init, before any change
        self.pipes = {id(o) for o in flow_state.unexecuted_changes(flow_state.LoopFrame(st, env, ex), st, env)}
        ex.state_log.append(set())
        self.frame = flow_state.enter_sampled(st, env, ex)   # records the changes the body makes
        self.assigns = set()                                 # names K.assign set in the body


def enter(st, env: dict, ex, start=NOT_FIXED):
    """Start walking `st` as its first iteration, or None when the convention is off (today's
    rule then applies: flow_state.runtime_loop_enter).  `start`: the loop variable's first value."""
    import kernel_env
    if not kernel_env.convention_on():
        return None
    what = (f"the loop at line {st.lineno} runs at least once; the walked body is its first iteration (a branch "
            "that iteration does not take, and its ops, are not in the model)")
    if isinstance(st, (ast.For, ast.AsyncFor)):
        var = ast.unparse(st.target)
        what += f"; {var} = {start}" if start is not NOT_FIXED else f"; {var} not fixed (the range's start is not)"
    else:
        what += "; its test is taken to hold on entry"
    kernel_env.note_convention(what, st.lineno, None if start is NOT_FIXED else start)
    import range_data
    range_data.loop_entered(st, env)  # a constraint on runtime data the walk may bind (range_data.py)
    fi = FirstIteration(st, env, ex)
    ex.first_iterations = getattr(ex, "first_iterations", []) + [fi]
    return fi


def later_iterations(st, env: dict, ex, walked: int) -> bool:
    """A `while` whose first `walked` iterations the walk followed exactly (their tests decided) and
    whose remaining iterations it does not walk (the test is now a runtime value, or --serial-iterations
    is reached): under the representative instance the model is those iterations, a binding says so,
    and after the loop nothing of them is kept (`leave`, as if the remaining iterations were walked
    from here: a value holds its current value or a later iteration's store).  False when the
    convention is off (the caller walks the rest as a runtime loop)."""
    import kernel_env
    if not kernel_env.convention_on():
        return False
    kernel_env.note_convention(
        f"the while loop at line {st.lineno}: the model holds its first {walked} iteration(s), whose tests the "
        "source decides; later iterations (their ops) are not in the model (its test is then a runtime value, or "
        "--serial-iterations is reached)", st.lineno, walked)
    fi = FirstIteration(st, env, ex)
    ex.first_iterations = getattr(ex, "first_iterations", []) + [fi]
    leave(fi, st, env, ex, dict(env), _keep_types())
    return True


def _keep_types() -> tuple:
    import kernel_walk
    return kernel_walk.KEEP_AFTER_LOOP


def note_assign(ex, name: str) -> bool:
    """`K.assign(name, v)` in the body of a loop walked as its first iteration: followed exactly (True)
    when every runtime loop being walked is one (the caller then evaluates it as straight-line code)."""
    fis = getattr(ex, "first_iterations", [])
    if not fis or ex.runtime_loops:
        return False
    for fi in fis:
        fi.assigns.add(name)
    return True


def decided_branch(ex, test, line: int, env: dict, taken, what: str = "if") -> None:
    """An `if` (or kern `with K.If(test)`) at `line` in a loop walked as its first iteration whose
    test reads what that iteration fixed (the loop variable, a name the body or its helpers store, a
    declared scalar or a PipelineState it may change): decided by iteration 0's values, recorded as a binding
    (later iterations may take the other branch, whose ops the model of iteration 0 lacks)."""
    import tvm_classes
    fis = getattr(ex, "first_iterations", [])
    if not fis:
        return
    for fi in fis:
        names = fi.fixed
        for n in ast.walk(test):
            v = env.get(n.id) if isinstance(n, ast.Name) else None
            if isinstance(n, ast.Name) and (n.id in names or "*" in names or
                                            (isinstance(v, tvm_classes.TirLocal) and id(v) in fi.cells) or
                                            (isinstance(v, tvm_classes.PipeState) and id(v) in fi.pipes)):
                import kernel_env
                kernel_env.note_convention(
                    f"the {what} at line {line} is decided by the first iteration of the loop at line {fi.line} "
                    f"({'taken' if taken else 'not taken'}; a later iteration may take the other branch, whose "
                    "ops are not in the model)", line, bool(taken))
                return


def _why(line: int) -> str:
    return (f"after the loop at line {line}, which the walk does not unroll (its first iteration walked): it holds "
            "its value on entry or the last iteration's store")


def _pure(node, assigned: set) -> bool:
    """An expression every iteration computes the same: no name the body assigns, no call other than
    a TIR builder's (T.uint32(0), T.cast(...))."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call) and not (dotted(sub.func) or "").startswith(TIR_PREFIXES):
            return False
        if isinstance(sub, ast.Name) and sub.id in assigned:
            return False
    return True


def _cell_kept(st, fi, cell, entry, valid, assigned, names) -> bool:
    from kernel_env import Unresolved
    after = cell.value
    stores = fi.frame.stores.get(id(cell), [])   # the walk's stores
    if not stores and after is entry and cell.valid_for == valid and not fi.any_name and \
            cell.name not in fi.stored and "*" not in fi.stored:
        return True   # nothing in the body or its helpers stores it (a helper parameter of that name only)
    if isinstance(entry, Unresolved) or isinstance(after, Unresolved) or type(entry) is not type(after) or \
            entry != after or cell.valid_for != valid or fi.any_name:
        return False
    top = {id(s) for s in st.body}
    nodes = assigned.get(cell.name, [])
    if not nodes or any(id(n) not in top or not isinstance(n, (ast.Assign, ast.AnnAssign)) or n.value is None or
                        not _pure(n.value, names) for n in nodes):
        return False
    return all(s is not None and id(s) in {id(n) for n in nodes} for s in stores)


def leave(fi, st, env: dict, ex, before: dict, keep_types: tuple, exact: bool = False) -> None:
    """After the loop: nothing iteration 0 left is kept (the module docstring's rule), unless
    `exact`: iteration 0 ended at a decided `break` (loop_jumps.py), so the loop ran that one
    iteration and what the walk followed holds after it (only the loop variable is restored)."""
    import flow_state
    import loop_state
    import tvm_classes
    from kernel_env import Unresolved
    from kernel_env import names_of
    ex.first_iterations = [f for f in getattr(ex, "first_iterations", []) if f is not fi]
    changed = ex.state_log.pop()
    frame = fi.frame
    if exact:
        flow_state.leave_sampled(frame, ex)
        for n in (names_of(st.target) if isinstance(st, (ast.For, ast.AsyncFor)) else ()):
            if n in before:
                env[n] = before[n]
        return
    changed |= flow_state.unexecuted_changes(frame, st, env)
    flow_state.leave_sampled(frame, ex)
    why = _why(st.lineno)
    for obj in changed:
        if isinstance(obj, tvm_classes.PipeState):
            flow_state.lose_changed(frame, obj, st.lineno, f"changed in the loop at line {st.lineno}, which the walk "
                                    "does not unroll (its first iteration walked; its state after the loop is not "
                                    "followed)")
        elif isinstance(obj, tvm_classes.TirLocal) and id(obj) not in fi.cells:
            fi.cells[id(obj)] = (obj, Unresolved(obj.name, st.lineno, why), obj.valid_for)
        elif hasattr(obj, "after_loop"):  # a barrier arrived on in the loop (barrier_phase.py)
            obj.after_loop(st.lineno)
    assigned = loop_state.assigned_names(st.body)
    loop_vars = set(names_of(st.target)) if isinstance(st, (ast.For, ast.AsyncFor)) else set()
    names = set(assigned) | loop_vars | fi.assigns | {c.name for c, _e, _v in fi.cells.values()}
    for cell, entry, valid in fi.cells.values():
        if not _cell_kept(st, fi, cell, entry, valid, assigned, names):
            cell.value = Unresolved(cell.name, st.lineno, why)
    for d, enc in fi.descs.values():
        if d.encoded is not enc:
            d.encoded = Unresolved("SmemDescriptor", st.lineno, f"init() in the loop at line {st.lineno}, which the "
                                   "walk does not unroll (its first iteration walked): after the loop it holds the "
                                   "last iteration's descriptor")
    for n in loop_vars:
        if n in before:
            env[n] = before[n]
    for n in sorted((set(assigned) - loop_vars) | fi.assigns):
        v = env.get(n)
        if v is None or isinstance(v, keep_types) or isinstance(v, Unresolved) or \
                (n in before and before[n] is v):
            continue
        if n not in fi.assigns and loop_state._invariant(assigned[n], names):
            continue
        env[n] = Unresolved(n, st.lineno, f"assigned in the loop at line {st.lineno}, which the walk does not "
                            "unroll (its first iteration walked): after the loop it holds the last iteration's value")
