"""State across helper calls, loops and branches: the forms kernel_walk.py defers to here.

* `x = T.local_scalar(dtype)` / `T.alloc_scalar(dtype, scope="local")` with no value: a one-element
  local buffer (apache/tvm 5d4dc87 python/tvm/tirx/script/builder/ir.py:2057-2095, alloc_scalar:
  shape (1,), `buf[0]` bound to the name).  A later `x = expr` anywhere the name resolves to it --
  also inside an `@T.inline` body, which resolves names in the defining scope's frames -- is a
  store into that buffer, not a new binding (parser.py:617-650, visit_assign: a name whose value is
  a scalar BufferLoad of a (1,)-shaped buffer is stored through).  So it is a declared TIR scalar
  (tvm_classes.TirLocal): it holds the value of the last store the walk followed exactly on the
  path walked (definite assignment in program order), and is unresolved before the first store,
  after a store under an undecided condition, and for warps other than those that stored it (loops
  the walk does not unroll: runtime_loop_enter / runtime_store_exact / runtime_loop_exit below).
* A helper called through a parameter (`def loop(body): ... body(False, ks)` called as
  `loop(tma_load)`): the function walked is the argument's; it counts as called under its own name
  (before, only the parameter's name was recorded, and the helper was walked a second time on its
  own with every parameter unresolved).
* A nested def that the enclosing function calls by name but the walk never reached is dead code at
  this configuration (called_by_name): not walked on its own.
* Thread indices uniform over the warps executing a statement are that value (uniform_value); an op
  blocked only by a thread index is recorded once per warpgroup / warp (record_per_group).
* The state of a PipelineState / declared scalar at the exit of a sampled T.serial loop, proven from
  a fixed change per iteration (exit_state); declared scalars in loops the walk does not unroll.
docs/extract.md, "State across loops, branches and helper calls", states each rule and its source.
"""
from __future__ import annotations

import ast

from corpus_notation import dotted

SCALAR_DECLS = {"local_scalar": "local", "alloc_scalar": None}
TIR_PREFIXES = ("T.", "Tx.", "tirx.", "tvm.tirx.")


def scalar_declaration(call) -> bool:
    """True when `call` is `T.local_scalar(dtype)` or `T.alloc_scalar(dtype, scope="local")`: a
    register scalar declared without a value (neither builder takes one)."""
    if not isinstance(call, ast.Call):
        return False
    name = dotted(call.func) or ""
    short = name.split(".")[-1]
    if short not in SCALAR_DECLS or not name.startswith(TIR_PREFIXES):
        return False
    if len(call.args) > (1 if short == "local_scalar" else 2):
        return False
    kw = {k.arg for k in call.keywords}
    if short == "local_scalar":
        return kw <= {"dtype"}
    scope = next((k.value for k in call.keywords if k.arg == "scope"), call.args[1] if len(call.args) > 1 else None)
    return kw <= {"dtype", "scope"} and isinstance(scope, ast.Constant) and scope.value == "local"


def callee_names(call, fv) -> set:
    """The names under which a helper call counts as called: the name written at the call and the
    name of the function definition it reaches (a parameter bound to a nested def)."""
    out = {ast.unparse(call.func)}
    name = getattr(getattr(fv, "node", None), "name", None)
    if name:
        out.add(name)
    return out


def called_by_name(outer, fn) -> bool:
    """Does code of `outer` other than `fn` itself call `fn` by its name (`fn(...)`)?  A nested def
    the walk never reached although `outer` calls it has all its calls in code that the
    configuration does not run -- a branch its test rules out (flash_attention4's `if apply_mask:`
    with apply_mask False); an undecided branch or a runtime loop is walked, so its calls are
    reached.  Such a def is dead code here: it is not walked on its own with unresolved parameters
    (which listed its items as unresolved although they are not in the kernel at this
    configuration)."""
    name = fn.name
    stack = [outer]
    while stack:  # not inside fn itself, nor inside a lambda (whose calls the walk does not follow)
        n = stack.pop()
        if n is fn or isinstance(n, ast.Lambda):
            continue
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name:
            return True
        stack.extend(ast.iter_child_nodes(n))
    return False


# -- thread indices over the warps that execute a statement --------------------------------------

NOT_UNIFORM = object()
LANE_FREE = ("wg", "warp_in_wg", "warp")   # warps.ThreadIndex kinds that do not vary inside a warp
MAX_UNIFORM_EVALS = 4096                   # (warp, lane) evaluations of one derived value


def uniform_value(v, ev):
    """The value a thread index (warps.ThreadIndex) or a value derived from one (an Unresolved
    with `thread` and `expr`) has in every thread that executes the current statement -- the warps
    of the enclosing thread-index branches (tvm_classes.WALK) -- or NOT_UNIFORM.  Inside
    `if wg_id == 1:` the warpgroup index IS 1 for every thread there; lane-dependent values
    (lane_id, thread_id, elect_sync) are never uniform over a warp's 32 lanes.  Outside any such
    branch (every warp) nothing is folded."""
    import tvm_classes
    import warps as warps_mod
    ws = tvm_classes.WALK.get("warps")
    if not ws:
        return NOT_UNIFORM
    key = frozenset(ws)
    cache = getattr(v, "_uniform", None)
    if cache is None:
        cache = {}
        try:
            v._uniform = cache
        except AttributeError:
            return NOT_UNIFORM
    if key in cache:
        return cache[key]
    got = NOT_UNIFORM
    if isinstance(v, warps_mod.ThreadIndex):
        if v.kind in LANE_FREE:
            vals = {v.at(w, 0) for w in key}
            if len(vals) == 1:
                got = vals.pop()
    elif len(key) * warps_mod.LANES <= MAX_UNIFORM_EVALS:
        node, env = v.expr
        vals, ok = set(), True
        for w in sorted(key):
            for lane in range(warps_mod.LANES):
                try:
                    x = type(ev)(env, ev.depth, (w, lane)).value(node)
                    hash(x)
                except Exception:  # noqa: BLE001 - not determined at this thread: not uniform
                    ok = False
                    break
                vals.add(x)
                if len(vals) > 1:
                    ok = False
                    break
            if not ok:
                break
        if ok and len(vals) == 1:
            got = vals.pop()
    cache[key] = got
    return got


THREAD_REASON = "a thread index"


def record_per_group(record, ex) -> None:
    """Run `record` (op_sites: recognise one op site and append its ops).  When it is blocked only by
    a thread index and the statement's warps span several warpgroups, the op is recorded once per
    warpgroup instead, each with the warps of that group (which fixes `wg_id` there, uniform_value);
    a group still blocked by a per-warp index is split per warp.  The split ops are consecutive at
    the op's place in program order, as the warpgroups issue the same instruction each on its own
    operands (flash_attention4's softmax warpgroups: `S_region[wg_id, ...]`)."""
    import tvm_classes
    n_blocked, n_ops = len(ex.blocked), len(ex.ops)
    record()
    ws = ex.warps
    new = ex.blocked[n_blocked:]
    if not new or len(ex.ops) != n_ops or ws is None or len(ws) < 2 or \
            not all(e.get("reason", "").startswith(THREAD_REASON) for e in new):
        return
    for level in (lambda w: w // 4, lambda w: w):
        groups: dict = {}
        for w in sorted(ws):
            groups.setdefault(level(w), set()).add(w)
        if len(groups) > 1:
            break
    else:
        return
    for e in new:  # retried below, per group
        ex.blocked.remove(e)
        ex.blocked_keys.discard((e["item"], e["line"], e.get("name"), e["reason"]))
    saved = (ex.warps, tvm_classes.WALK.get("warps"))
    n_blocked2 = len(ex.blocked)
    try:
        for g in groups.values():
            ex.warps = frozenset(g)
            tvm_classes.WALK["warps"] = ex.warps
            record_per_group(record, ex)
    finally:
        ex.warps, tvm_classes.WALK["warps"] = saved
    again = ex.blocked[n_blocked2:]
    if len(ex.ops) == n_ops and again and all(e.get("reason", "").startswith(THREAD_REASON) for e in again):
        # no group's op resolved (a value that varies between the lanes of a warp): the one entry as before
        for e in again:
            ex.blocked.remove(e)
            ex.blocked_keys.discard((e["item"], e["line"], e.get("name"), e["reason"]))
        for e in new:
            ex.blocked.append(e)
            ex.blocked_keys.add((e["item"], e["line"], e.get("name"), e["reason"]))


# -- state at the exit of a sampled T.serial loop -------------------------------------------------

BRANCHING = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try)


class LoopFrame:
    """A sampled `T.serial` loop being walked: the PipelineStates in scope at its entry (their
    state then), the state after each walked iteration, and how the body changed them."""

    def __init__(self, st, env: dict, ex):
        import tvm_classes
        self.line = st.lineno
        self.depth = getattr(ex, "flow_depth", 0)   # the loop statement's own depth: its body's top level
        self.entry = {id(v): (v, snapshot(v)) for v in env.values() if isinstance(v, tvm_classes.PipeState)}
        self.after: list[dict] = []                 # per walked iteration: id -> snapshot
        self.kinds: dict = {}                       # id -> {"advance", "init", ...} changes seen
        self.nested: set = set()                    # ids changed inside a branch or loop of the body
        self.warps: dict = {}                       # id -> warps that changed it (None: every warp)
        self.exits = _has_exit(st.body)
        self.stores: dict = {}                      # id -> statements that stored a declared scalar
        self.body_stmts = {id(n) for b in st.body for n in ast.walk(b)}
        import loop_state
        from kernel_walk import names_of
        self.assigned = set(loop_state.assigned_names(st.body)) | set(names_of(getattr(st, "target", None)))
        # also what the file's helpers it calls may store (a branch test on such a name is not invariant)
        self.assigned_deep = self.assigned | _stored_names(st.body, env)


def _has_exit(body) -> bool:
    """break / continue of this loop (not of a loop nested in it), or a return, in the loop body."""
    import loop_jumps
    return loop_jumps.leaves_loop(body, (ast.Break, ast.Continue, ast.Return))


def snapshot(obj):
    return (obj.stage, obj.phase, dict(obj.copies), obj.stale, dict(obj.lane_lost))


def enter_sampled(st, env, ex) -> LoopFrame:
    frame = LoopFrame(st, env, ex)
    ex.flow_frames = getattr(ex, "flow_frames", []) + [frame]
    return frame


def leave_sampled(frame, ex) -> None:
    ex.flow_frames = [f for f in getattr(ex, "flow_frames", []) if f is not frame]


def iteration_done(frame) -> None:
    frame.after.append({k: snapshot(v) for k, (v, _s) in frame.entry.items()})


CURRENT = {"stmt": None}   # the statement kernel_walk is walking (a store's own statement)


def note_change(ex, obj, kind: str) -> None:
    """A PipelineState changed (kernel_walk.state_call): recorded in every sampled loop being walked,
    with whether it happened in the loop body's straight-line code (helper calls included) or inside
    a branch or nested loop of it."""
    depth = getattr(ex, "flow_depth", 0)
    for f in getattr(ex, "flow_frames", []):
        f.kinds.setdefault(id(obj), set()).add(kind)
        if depth > f.depth:
            f.nested.add(id(obj))
        if kind == "store":
            f.stores.setdefault(id(obj), []).append(CURRENT["stmt"])
        prev = f.warps.get(id(obj), ())
        f.warps[id(obj)] = None if ex.warps is None or prev is None else (set(prev) | set(ex.warps))


def _pos(stage, phase, depth):
    """The ring position of (stage, phase): advance() adds 1 modulo 2 depth (depth 1: the phase bit)."""
    if stage is None or phase is None or not isinstance(phase, int) or isinstance(phase, bool) or phase not in (0, 1):
        return None
    return phase if depth == 1 else stage + depth * phase


def _state(pos, depth):
    return (0, pos) if depth == 1 else (pos % depth, pos // depth)


def _holders(snap):
    """(key, (stage, phase, why)) for the base state (key None) and each per-warp copy."""
    stage, phase, copies, _stale, _lost = snap
    out = [(None, (stage, phase, None))]
    out += sorted(copies.items())
    return out


def exit_state(frame, obj, iterations: int, finished: bool) -> bool:
    """Set `obj` to its state after all `iterations` of the loop, when that is a fixed function of
    the walked iterations: the body changes it only by `advance()` calls in its straight-line code
    (the same calls in every iteration: no branch or nested loop of the body contains one, no
    break/continue/return), it is not stale, and every walked iteration moved each holder (the
    state, and each warp's copy) by the same number d of ring positions modulo 2 depth -- then
    after n iterations a holder at position p0 is at p0 + n d (mod 2 depth): stage (p mod depth),
    phase (p div depth).  False: not proven (the caller makes it stale as before)."""
    import tvm_classes
    if isinstance(obj, tvm_classes.TirLocal):
        return _local_exit(frame, obj, iterations, finished)
    key = id(obj)
    if not finished or frame.exits or key not in frame.entry or key in frame.nested or \
            frame.kinds.get(key, set()) - {"advance"} or obj.stale is not None or not frame.after:
        return False
    depth = obj.depth
    modulus = 2 * depth if depth > 1 else 2
    entry = dict(_holders(frame.entry[key][1]))
    snaps = [frame.entry[key][1]] + [a[key] for a in frame.after]
    if any(s[3] is not None for s in snaps):
        return False
    keys = set(entry)
    for s in snaps:
        keys |= set(dict(_holders(s)))
    final = {}
    for k in sorted(keys, key=lambda x: -1 if x is None else x):
        ps = []
        for s in snaps:
            h = dict(_holders(s))
            st, ph, _why = h.get(k, h[None])
            p = _pos(st, ph, depth)
            if p is None:
                return False
            ps.append(p)
        deltas = {(b - a) % modulus for a, b in zip(ps, ps[1:])}
        if len(deltas) != 1:
            return False
        d = deltas.pop()
        last = dict(_holders(snaps[-1])).get(k, dict(_holders(snaps[-1]))[None])
        why = last[2]
        st0 = dict(_holders(snaps[0])).get(k, dict(_holders(snaps[0]))[None])[0]
        if k is not None and why is None and depth > 1 and st0 + iterations * d >= depth:
            # a per-warp copy that wraps around its ring in the loop's iterations: the ring-wrap rule of
            # PipeState.advance_copies (no wrap inside the walked iteration, so d < depth is its real step)
            # (judged when read: tvm_classes.wrap_reason)
            why = ("wrap", k, depth, f"in the T.serial loop at line {frame.line} ({iterations} iterations;")
        final[k] = _state((ps[0] + iterations * d) % modulus, depth) + (why,)
    base = final.pop(None)
    obj.stage, obj.phase = base[0], base[1]
    obj.copies = {w: v for w, v in final.items()}
    return True


def lose_changed(frame, obj, line: int, why: str) -> None:
    """Not proven: the warps whose copies the loop changed lose them (only those, when the loop ran
    in a warp branch on per-warp copies), else the whole state is stale."""
    ws = frame.warps.get(id(obj))
    if ws and getattr(obj, "copies", None) and all(w in obj.copies for w in ws):
        obj.lose_copies(sorted(ws), why)
    else:
        obj.lose(line, why)


def _local_exit(frame, cell, iterations: int, finished: bool) -> bool:
    """A declared scalar stored in the loop keeps the value the walked iteration left when every
    iteration leaves the same one: every store to it is a statement of the loop body itself (not
    of a helper), in its straight-line code (no branch or nested loop around it, no break /
    continue / return in the body), of an expression with no call and no name the body assigns
    (nor the loop variable), and the loop runs at least once.  Then each iteration ends with the
    same last store, so after the loop it holds that store's value (flash_attention_backward's
    `accum_dk = 1` in its M-tile loop).  The read before the store inside the loop is the walked
    iteration's (the first: its value on entry)."""
    import loop_state
    from kernel_env import Unresolved
    key = id(cell)
    stmts = frame.stores.get(key, [])
    if not finished or frame.exits or iterations < 1 or not stmts or key in frame.nested or \
            frame.kinds.get(key, set()) - {"store"} or isinstance(cell.value, Unresolved):
        return False
    for st in stmts:
        if st is None or id(st) not in frame.body_stmts or not isinstance(st, (ast.Assign, ast.AnnAssign)):
            return False
        if not loop_state._invariant([st], frame.assigned):
            return False
        targets = st.targets if isinstance(st, ast.Assign) else [st.target]
        if any(not isinstance(t, ast.Name) for t in targets) and any(
                isinstance(n, (ast.Attribute, ast.Subscript)) for n in ast.walk(st.value)):
            # a cell stored through `recv.X` / `X[0]` (tile_cells.py, reg_cell.py) whose value reads an
            # attribute or element: it may read the cell itself (`self.phase[0] = self.phase[0] ^ 1`),
            # which the name test above cannot see -- not proven the same every iteration
            return False
    return True


def transparent_if(ex, st, env) -> bool:
    """An `if` that every iteration of the sampled loops being walked decides the same way: a
    statement of each such loop's own body (not of a helper it calls) whose test the source
    decides, with no call and no name the loop body assigns (nor a loop variable).  Its branch is
    then straight-line code of those loops for the exit-state proof (`if FLAG:` on a configuration
    constant); any other branch is not."""
    frames = getattr(ex, "flow_frames", [])
    if not frames or not isinstance(st, ast.If):
        return False
    import tvm_classes
    for f in frames:
        if id(st) not in f.body_stmts:
            return False
        for n in ast.walk(st.test):
            if isinstance(n, ast.Call) or (isinstance(n, ast.Name) and (
                    n.id in f.assigned_deep or "*" in f.assigned_deep or
                    isinstance(env.get(n.id), tvm_classes.TirLocal))):
                return False
    from kernel_env import Evaluator
    try:
        Evaluator(env).value(st.test)
    except Exception:  # noqa: BLE001 - undecided: a real branch
        return False
    return True


# -- declared scalars in loops the walk does not unroll ----------------------------------------------

MAX_HELPER_SCAN = 8   # helper levels searched for stores into a declared scalar


class RuntimeLoop:
    def __init__(self, st, ex, cells: dict):
        self.line, self.depth, self.cells = st.lineno, getattr(ex, "flow_depth", 0), cells  # id -> (cell, entry)


def _stored_names(body, env, depth=0, seen=None, params=True) -> set:
    """Names a loop body may store: its own assignment targets and those of the helpers of the file
    it calls by name (followed MAX_HELPER_SCAN levels; beyond that every name counts), with the
    helpers' parameter names unless `params` is False."""
    import loop_state
    from kernel_env import FuncValue
    seen = set() if seen is None else seen
    out = set(loop_state.assigned_names(body))
    for n in (x for b in body for x in ast.walk(b)):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
            fv = env.get(n.func.id)
            if isinstance(fv, FuncValue) and id(fv.node) not in seen:
                seen.add(id(fv.node))
                if depth >= MAX_HELPER_SCAN:
                    return {"*"}
                out |= _stored_names(fv.node.body, {**fv.closure, **env}, depth + 1, seen, params)
                if params:
                    out |= {a.arg for a in fv.node.args.args}
    return out


def _kassign_names(body) -> set:
    """Registers `K.assign(x, v)` sets in a loop body (nested defs excluded)."""
    out, stack = set(), list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(n, ast.Call) and (dotted(n.func) or "").split(".")[-1] == "assign" and len(n.args) == 2 and \
                isinstance(n.args[0], ast.Name):
            out.add(n.args[0].id)
        stack.extend(ast.iter_child_nodes(n))
    return out


def runtime_loop_enter(st, env, ex):
    """A loop the walk does not unroll (a runtime T.serial range, a while): the body is walked once
    and stands for every iteration.  A declared scalar (tvm_classes.TirLocal) the body may store
    holds, at the loop head, its value on entry in the first iteration and the previous iteration's
    store in the others: it is unresolved there, naming the loop (before: its value on entry, which
    later iterations need not hold).  A store in the body's straight-line code (runtime_store_exact)
    makes it exact again for the rest of the body.  A PipelineState the body may advance or init is
    stale there for the same reason, and so is a kern register the body sets with `K.assign`.
    (Under the representative instance loop_first.py walks such a loop as its first iteration.)"""
    import tvm_classes
    from kernel_env import Unresolved
    names = _stored_names(st.body, env)
    cells = {}
    for n, v in env.items():
        if isinstance(v, tvm_classes.TirLocal) and ("*" in names or n in names) and id(v) not in cells:
            cells[id(v)] = (v, v.value, v.valid_for)
            if not isinstance(v.value, Unresolved):
                v.value = Unresolved(v.name, st.lineno, f"read in the loop at line {st.lineno}, which the walk does not "
                                     "unroll, where it holds its value on entry or the one an earlier iteration "
                                     "stored")
    # a PipelineState the body (or a helper it calls) may advance / init: at the head its state on entry or
    # the one an earlier iteration left (before: its state on entry, until the walk reached the change)
    why = (f"read in the loop at line {st.lineno}, which the walk does not unroll, where it holds its state on "
           "entry or the one an earlier iteration left")
    ws = ex.warps
    for obj in unexecuted_changes(LoopFrame(st, env, ex), st, env):
        if ws is not None and obj.warps != ws and (obj.warps is None or ws <= obj.warps):
            obj.lose_copies(sorted(ws), why)  # the looping warps' own copies (kernel_walk.state_call's rule)
        else:
            obj.lose(st.lineno, why)
    # a kern register the body sets with K.assign: the same at the head (kernel_walk.register_assign)
    for n in _kassign_names(st.body):
        if n in env and not isinstance(env[n], Unresolved) and n not in ex.overrides:
            env[n] = Unresolved(n, st.lineno, f"read in the loop at line {st.lineno}, which the walk does not unroll, "
                                "where it holds its value on entry or the one an earlier iteration assigned")
    rl = RuntimeLoop(st, ex, cells)
    ex.runtime_frames = getattr(ex, "runtime_frames", []) + [rl]
    return rl


def runtime_store_exact(ex, cell, value) -> bool:
    """A store `x = v` in a loop the walk does not unroll holds exactly for what follows it in the same
    iteration when it is in the straight-line code of every such loop being walked (no branch or
    nested loop of the body around it: every iteration runs it before what follows) and v is
    resolved.  What an earlier iteration left is then overwritten before any later read."""
    from kernel_env import Unresolved
    frames = getattr(ex, "runtime_frames", [])
    if not frames or isinstance(value, Unresolved):
        return False
    # straight-line code of the innermost runtime loop (helper bodies count: they do not nest);
    # a store the entry scan did not foresee is not trusted (its loop-head reads were not made unresolved)
    return getattr(ex, "flow_depth", 0) == frames[-1].depth and all(id(cell) in f.cells for f in frames)


def runtime_loop_exit(rl, ex) -> None:
    """After the loop a stored scalar holds its value on entry (no iteration) or the last store: known
    only when the two agree."""
    from kernel_env import Unresolved
    ex.runtime_frames = [f for f in getattr(ex, "runtime_frames", []) if f is not rl]
    for cell, entry, valid in rl.cells.values():
        after = cell.value
        same = not isinstance(entry, Unresolved) and not isinstance(after, Unresolved) and \
            type(entry) is type(after) and entry == after and cell.valid_for == valid
        if same:
            continue
        if not isinstance(after, Unresolved) or not isinstance(entry, Unresolved):
            cell.value = Unresolved(cell.name, rl.line, f"after the loop at line {rl.line}, which the walk does not "
                                    "unroll: it holds its value on entry or the last iteration's store")


def per_thread(v, name: str):
    """A thread-derived value that is not uniform over the warps executing here (inside a thread-index
    branch): an Unresolved saying so and naming those warps, instead of the first thread index its
    expression met (which may be uniform there: `warp_idx - 4` under `warpgroup_idx == 1` differs by
    warp, not by warpgroup).  It stays thread-derived and re-evaluable per warp."""
    import tvm_classes
    from kernel_env import Unresolved
    ws = tvm_classes.WALK.get("warps")
    if not ws:
        return v
    u = Unresolved(name, v.line, f"a thread index value that differs between the threads executing here (warps "
                   f"{sorted(ws)}): one value per warp or lane")
    u.thread, u.expr = True, v.expr
    return u


def unexecuted_changes(frame, st, env) -> set:
    """Every `X.advance()` / `X.init(...)` of a PipelineState written in the loop body or in a helper
    of the file it calls by name, checked against the walked iterations: one the walked iterations
    did not run (a branch they did not take), or one inside a branch or nested loop of the body (a
    later iteration may take another path), marks its state nested, so exit_state does not prove it
    and it goes stale like any changed state.  An `if` directly in the body whose test every
    iteration decides the same way (transparent_if's rule) counts only its taken branch.  Returns
    the states found that the walked iterations did not change."""
    import tvm_classes
    from kernel_env import Evaluator, FuncValue
    out, seen = set(), set()

    def invariant_test(test, scope):
        for n in ast.walk(test):
            if isinstance(n, ast.Call) or (isinstance(n, ast.Name) and (
                    n.id in frame.assigned_deep or "*" in frame.assigned_deep or
                    isinstance(scope.get(n.id), tvm_classes.TirLocal))):
                return None
        try:
            return bool(Evaluator(scope).value(test))
        except Exception:  # noqa: BLE001 - undecided: a real branch
            return None

    def scan(stmts, scope, in_branch, helper):
        for stmt in stmts:
            if isinstance(stmt, ast.If):
                taken = None if helper or in_branch else invariant_test(stmt.test, scope)
                if taken is None:
                    scan(stmt.body + stmt.orelse, scope, True, helper)
                else:
                    scan(stmt.body if taken else stmt.orelse, scope, in_branch, helper)
                continue
            if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While, ast.Try)):
                inner = [x for x in ast.iter_child_nodes(stmt) if isinstance(x, ast.stmt)]
                scan(inner, scope, True, helper)
                continue
            if isinstance(stmt, (ast.With, ast.AsyncWith)):
                ctx = stmt.items[0].context_expr if stmt.items else None
                is_if = isinstance(ctx, ast.Call) and (dotted(ctx.func) or "").split(".")[-1] == "If"
                scan(stmt.body, scope, in_branch or is_if, helper)
                continue
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            for n in ast.walk(stmt):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and \
                        n.func.attr in ("advance", "init") and isinstance(n.func.value, ast.Name):
                    obj = scope.get(n.func.value.id)
                    if isinstance(obj, tvm_classes.PipeState):
                        if in_branch or id(obj) not in frame.kinds:
                            frame.nested.add(id(obj))
                        if id(obj) not in frame.kinds:
                            out.add(obj)
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name):
                    fv = scope.get(n.func.id)
                    if isinstance(fv, FuncValue) and (id(fv.node), in_branch) not in seen and len(seen) < 128:
                        seen.add((id(fv.node), in_branch))
                        scan(fv.node.body, {**fv.closure, **scope}, in_branch, True)

    scan(st.body, env, False, False)
    return out
