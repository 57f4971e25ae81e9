"""Sibling warp roles walked as coroutines, ordered by their mbarrier waits.

The walk puts a kernel's ops in one pass.  Warp roles (the arms of an `if` on thread indices,
kernel_walk.walk_warp_branch) run at the same time on disjoint warps and are ordered only by
their mbarriers; walking them one after the other (the first arm's whole body, then the next)
puts a producer's reuse of a ring slot before the consumer's release of it, which the kernel's
`empty.wait` forbids.  So when the arms contain a barrier wait, each arm is a coroutine (a Python
thread; a baton lets exactly one run at a time): a role whose `B.wait(stage, phase)` would not
pass yet (barrier_phase.py) is suspended, and the lowest-index runnable role runs (index: the
arm's position, nested arms after their enclosing arm's earlier siblings, lexicographically);
a role suspended on a wait becomes runnable when other roles' arrives complete the phase, and
runs again at once if it is the lowest-index runnable one.  With no wait that blocks the order is
exactly the role-by-role walk of before.  After the last arm the enclosing code goes on (all the
arms' warps have left their branches).

A wait the barrier model does not decide (barrier_phase.py's rules) lets its role go on; the role's
order relative to the others is then not established (`order_lost`), and a PipelineState copy of
its warps that wraps its ring stays unresolved naming that wait (tvm_classes.PipeState.
advance_copies).  When every role waits (a deadlock: a wait no walked arrive completes) the
lowest-index waiting role is listed unresolved ("deadlock ...") and let go on with its order lost,
so the walk always ends.

Each coroutine has its own walk context: the Extraction's per-path fields (warps, lane sets,
branch and loop stacks), the module-level stacks of the walk (tvm_classes.WALK, kern role and grid
stacks, flow_state.CURRENT), the forking Walker's fields, and its view of the forking
environment (a role's bindings are its own; names bound in a TIR branch are frame-local anyway).
"""
from __future__ import annotations

import ast
import threading

PATH_ATTRS = ("warps", "warps_line", "warp_branches", "lane_branches", "flow_depth", "runtime_loops",
              "returned_warps", "lane_sets")
LIST_ATTRS = ("lane_changes", "flow_frames", "runtime_frames", "state_log", "files", "jump_frames",
              "first_iterations", "raw_conds")
WALKER_ATTRS = ("returned", "return_name", "endless")
STACK_SIZE = 64 << 20   # per role thread (Python 3.11 calls between Python functions use no C stack)


class Co:
    def __init__(self, path, parent):
        self.path, self.parent = path, parent
        self.state = "run"        # run, ready, wait, join, done
        self.pred = None          # while waiting: () -> True once it may go on
        self.children: list = []
        self.event = threading.Event()
        self.thread = None
        self.ctx = None           # saved walk context while not running
        self.error = None
        self.order_lost = parent.order_lost if parent is not None else None   # (line, why)
        self.waiting = None       # (line, what) of the wait it is suspended at
        self.envs: list = list(parent.envs) if parent is not None else []     # forking environments
        self.walker = None        # the Walker that forked it (its fields are part of the context)
        self.assumed: list = list(parent.assumed) if parent is not None else []  # barrier_phase.assumed of its waits
        self.cells: list = list(parent.cells) if parent is not None else []   # per-thread scalars of the fork
        self.final = None         # the cells' states when the role ended


class Sched:
    def __init__(self, ex, root):
        self.ex, self.root, self.cos, self.current = ex, root, [root], root


STATE = {"sched": None, "enabled": True}


def reset() -> None:
    STATE["sched"] = None


def current():
    s = STATE["sched"]
    return s.current if s is not None else None


MAX_SCAN_DEPTH = 4   # helper levels searched for a wait


def _has_wait(bodies, env=None, depth=0, seen=None) -> bool:
    """Does code of `bodies` -- or of a helper of the file it calls by name or as a method of an
    object the walk holds (`self.mgr.wait_mine(...)`), MAX_SCAN_DEPTH levels (an `@T.inline def
    producer()` defined before the role branch) -- call `X.wait(...)` or a raw mbarrier wait
    (`T.ptx.mbarrier.try_wait(ptr, parity)`, raw_mbar.py)?"""
    from kernel_env import FuncValue
    import raw_mbar
    from corpus_notation import dotted
    seen = set() if seen is None else seen
    for b in bodies:
        for st in b:
            for n in ast.walk(st):
                if not isinstance(n, ast.Call):
                    continue
                if isinstance(n.func, ast.Attribute) and n.func.attr == "wait" and n.args:
                    return True
                name = dotted(n.func) or ""
                if name.startswith(("T.ptx.", "Tx.ptx.")) and name.split(".ptx.", 1)[1] in raw_mbar.WAITS and n.args:
                    return True
                fv = env.get(n.func.id) if env is not None and isinstance(n.func, ast.Name) else None
                if fv is None and env is not None and isinstance(n.func, ast.Attribute) and \
                        isinstance(n.func.value, ast.Attribute):
                    fv = _method_of(n.func, env)
                if isinstance(fv, FuncValue) and id(fv.node) not in seen and depth < MAX_SCAN_DEPTH:
                    seen.add(id(fv.node))
                    if _has_wait([fv.node.body], {**fv.closure, **env}, depth + 1, seen):
                        return True
    return False


def _method_of(node, env):
    """The bound method `a.b.m` names when the walk holds `a.b` as an object of the file's classes
    (tile_class.Instance), else None; nothing is evaluated but attribute reads of held objects."""
    import tile_class
    parts, cur = [], node
    while isinstance(cur, ast.Attribute):
        parts.insert(0, cur.attr)
        cur = cur.value
    if not isinstance(cur, ast.Name) or len(parts) < 2:
        return None
    obj = env.get(cur.id)
    for p in parts[:-1]:
        if not isinstance(obj, tile_class.Instance):
            return None
        obj = obj.attrs.get(p)
    if not isinstance(obj, tile_class.Instance):
        return None
    got = obj.cls.find(parts[-1])
    if got is None or got[1] != "method":
        return None
    return tile_class.bound(got[2], got[0], obj)


def _modules():
    import flow_state
    import kern_forms
    import kern_grid
    import tvm_classes
    return flow_state, kern_forms, kern_grid, tvm_classes


def _capture(ex, walker, envs, cells=()):
    """The walk context now (envs: the environments whose contents are part of it; cells: the
    per-thread scalars whose states are, thread_cells.py)."""
    import thread_cells
    flow_state, kern_forms, kern_grid, tvm_classes = _modules()
    ctx = {"ex": {a: ex.__dict__.get(a, _MISSING) for a in PATH_ATTRS + LIST_ATTRS},
           "walker": {a: getattr(walker, a, _MISSING) for a in WALKER_ATTRS} if walker is not None else {},
           "walk": tvm_classes.WALK.get("warps"), "stmt": flow_state.CURRENT.get("stmt"),
           "roles": list(kern_forms.ACTIVE_ROLES), "ranks": list(kern_grid.GRID_RANKS),
           "envs": [(e, dict(e)) for e in envs], "cells": thread_cells.states(cells)}
    return ctx


def _install(ex, walker, ctx, copy_lists=False, envs=True):
    flow_state, kern_forms, kern_grid, tvm_classes = _modules()
    for a, v in ctx["ex"].items():
        if v is _MISSING:
            ex.__dict__.pop(a, None)
        else:
            ex.__dict__[a] = list(v) if copy_lists and a in LIST_ATTRS and isinstance(v, list) else v
    for a, v in ctx["walker"].items():
        if v is not _MISSING:
            setattr(walker, a, v)
    tvm_classes.WALK["warps"] = ctx["walk"]
    flow_state.CURRENT["stmt"] = ctx["stmt"]
    kern_forms.ACTIVE_ROLES[:] = ctx["roles"]
    kern_grid.GRID_RANKS[:] = ctx["ranks"]
    if envs:
        for e, snap in ctx["envs"]:
            e.clear()
            e.update(snap)
    import thread_cells
    thread_cells.install(ctx.get("cells", ()))


_MISSING = object()


def _runnable(s: Sched):
    for c in s.cos:
        if c.state == "wait" and c.pred():
            c.state, c.waiting = "ready", None
        elif c.state == "join" and all(ch.state == "done" for ch in c.children):
            c.state = "ready"
    return [c for c in s.cos if c.state in ("ready", "run")]


def _yield(s: Sched, me: Co) -> None:
    """Give the baton to the lowest-index runnable coroutine (me again when that is me).  A parent
    that joins its arms keeps no view of the environment: it goes on with what the last arm left,
    as the one-after-the-other walk did."""
    ready = _runnable(s)
    if not ready:
        waiting = sorted((c for c in s.cos if c.state == "wait"), key=lambda c: c.path)
        if not waiting:  # cannot happen (a joining parent has an unfinished child); never hang on it
            joins = sorted((c for c in s.cos if c.state == "join"), key=lambda c: c.path)
            joins[0].state = "ready"
            ready = [joins[0]]
    if not ready:
        w = waiting[0]
        line, what = w.waiting
        sampled = [c for c in waiting if (s.ex.state_log if c is me else (c.ctx or {}).get("ex", {}).get("state_log"))]
        if sampled:
            # a role inside a loop of which the walk takes the first iterations: the arrive may be in a
            # later iteration, so this is no deadlock of the kernel -- the wait is undecided
            w.order_lost = w.order_lost or (line, f"the wait at line {line} ({what}) waits for an arrive the walked "
                                            "pass does not contain (the walk takes only the first iterations of "
                                            "an enclosing loop)")
        else:
            roles = "; ".join(c.waiting[1] for c in waiting)  # each names its warps, line and barrier
            s.ex.block(f"wait at line {line}", line, None,
                       f"deadlock in the walked pass: every warp role waits and no arrive the walk places completes "
                       f"any of their phases ({len(waiting)} waiting: {roles}); the walk goes on past the wait at "
                       f"line {line} with the roles' order no longer known")
            w.order_lost = w.order_lost or (line, f"the wait at line {line} deadlocks in the walked pass")
        w.state, w.waiting = "ready", None
        ready = [w]
    nxt = min(ready, key=lambda c: c.path)
    if nxt is me:
        me.state = "run"
        return
    if me.state != "done":
        me.ctx = _capture(s.ex, me.walker, [] if me.state == "join" else me.envs,
                          () if me.state == "join" else me.cells)
    s.current = nxt
    nxt.state = "run"
    nxt.event.set()
    if me.state == "done":
        return
    me.event.wait()
    me.event.clear()
    _install(s.ex, me.walker, me.ctx)
    me.ctx = None
    me.state = "run"


def fork(ex, walker, env, arms) -> bool:
    """Walk `arms` (callables, in source order) as coroutines when they contain a barrier wait;
    False (nothing walked) when they do not, or when threads cannot be had: the caller walks them
    one after the other as before."""
    if not STATE["enabled"] or len(arms) < 2 or not _has_wait([b for b, _f in arms], env):
        return False
    import barrier_phase
    barrier_phase.prescan([b for b, _f in arms], env)  # barriers arrived on unseen: not followed (barrier_phase.py)
    s = STATE["sched"]
    top = s is None
    if top:
        root = Co((), None)
        s = STATE["sched"] = Sched(ex, root)
    parent = s.current
    envs = parent.envs + [env] if all(e is not env for e in parent.envs) else parent.envs
    import thread_cells
    cells = thread_cells.collect(envs, parent.cells)  # each role's own copy from here (thread_cells.py)
    base = _capture(ex, walker, [], cells)
    base["start_envs"] = [(e, dict(e)) for e in envs]   # each role starts from the forking view (_run)
    kids = []
    for i, (_body, fn) in enumerate(arms):
        c = Co(parent.path + (i,), parent)
        c.state, c.envs, c.walker, c.cells = "ready", envs, walker, cells
        kids.append((c, fn))
    try:
        threading.stack_size(STACK_SIZE)
        for c, fn in kids:
            c.thread = threading.Thread(target=_run, args=(s, c, fn, walker, base), daemon=True)
    except (RuntimeError, ValueError, MemoryError):
        if top:
            STATE["sched"] = None
        return False
    finally:
        threading.stack_size(0)
    started = []
    try:
        for c, _fn in kids:
            c.thread.start()
            started.append(c)
    except (RuntimeError, MemoryError):
        for c in started:  # not yet given the baton: let them end without walking
            c.state = "done"
            c.skip = True
            c.event.set()
        if top:
            STATE["sched"] = None
        return False
    parent.children = [c for c, _fn in kids]
    s.cos.extend(parent.children)
    parent.state = "join"
    try:
        _yield(s, parent)
    finally:
        _install(ex, walker, base, envs=False)
        thread_cells.join(base["cells"], [c.final for c in parent.children])  # the enclosing code's view
        s.cos = [c for c in s.cos if c not in parent.children]
        lost = next((c.order_lost for c in parent.children if c.order_lost), None)
        parent.order_lost = parent.order_lost or lost
        parent.children = []
        if top:
            STATE["sched"] = None
    err = next((c.error for c, _fn in kids if c.error is not None), None)
    if err is not None:
        raise err
    return True


def _run(s: Sched, me: Co, fn, walker, base) -> None:
    me.event.wait()
    me.event.clear()
    if getattr(me, "skip", False):
        return
    _install(s.ex, walker, base, copy_lists=True, envs=False)  # the context at the fork
    for e, snap in base["start_envs"]:
        # the environment as at the fork: an earlier arm suspended inside its branch has not closed its
        # frame, and its bindings (a scalar it declared) are its own, not this role's
        e.clear()
        e.update(snap)
    me.state = "run"
    try:
        fn()
    except BaseException as e:  # noqa: BLE001 - re-raised by the forking coroutine
        me.error = e
    import thread_cells
    me.final = thread_cells.states(me.cells)
    me.state = "done"
    _yield(s, me)


def wait(ex, got, line: int) -> None:
    """A barrier wait reached by the walk (barrier_phase.statement's ("wait", bar, index, result)):
    suspend the current role until the phase completes, or record an undecided wait."""
    import barrier_phase
    s = STATE["sched"]
    parts = got[1] if got[0] == "waits" else [got]   # one per warpgroup (barrier_phase.per_group)
    me = s.current if s is not None else None
    undecided = next((p[3] for p in parts if isinstance(p[3], str)), None)
    if undecided is not None:  # undecided (outside coroutines nothing depends on it: wrapped copies stay refused)
        if me is not None and me.order_lost is None:
            me.order_lost = (line, undecided)
        return
    if me is not None:
        for _k, bar, idx, _res in parts:
            me.assumed += barrier_phase.assumed(bar, idx)
    blocking = [p for p in parts if not p[3][1]]
    if not blocking:
        return
    if me is None or me is s.root:  # outside sibling roles: walked on as before (wrapped copies stay refused)
        return
    ph = barrier_phase.phases()
    me.state = "wait"
    me.waiting = (line, f"warps {sorted(ex.warps) if ex.warps is not None else 'all'} at line {line} on " +
                  ", ".join(f"{bar.label} slot {idx} for parity {res[0]}" for _k, bar, idx, res in blocking))
    me.pred = lambda: all(ph.passes(bar, idx, res[0]) is not False for _k, bar, idx, res in blocking)
    _yield(s, me)
    for _k, bar, idx, res in blocking:
        barrier_phase.record(barrier_phase.assumed(bar, idx))  # the role was suspended on this state
        me.assumed += barrier_phase.assumed(bar, idx)
        why = ph.passes(bar, idx, res[0])
        if isinstance(why, str) and me.order_lost is None:  # let go because the slot is no longer followed
            me.order_lost = (line, f"the wait at line {line} is not decided ({why})")




def after_arrive(ex) -> None:
    """An arrive may make a lower-index role runnable: it runs now."""
    s = STATE["sched"]
    if s is None or s.current is s.root:
        return
    me = s.current
    if any(c.state == "wait" and c.path < me.path and c.pred() for c in s.cos):
        _yield(s, me)


def ordered(warps) -> tuple[bool, str | None]:
    """Is the current role's order established by the coroutine walk?  (True, None) when it runs as a
    coroutine whose waits were all decided; (False, why) otherwise (why None: not a coroutine)."""
    s = STATE["sched"]
    if s is None or s.current is s.root:
        return False, None
    lost = s.current.order_lost
    if lost is not None:
        return False, lost[1]
    import barrier_phase
    barrier_phase.record(s.current.assumed)  # the resolved copy rests on them
    return True, None


def suspend(ex, line: int, what: str, pred) -> bool:
    """Suspend the current role until `pred()` holds (a named barrier's generation: named_bar.py);
    False, nothing done, outside sibling roles."""
    s = STATE["sched"]
    me = s.current if s is not None else None
    if me is None or me is s.root:
        return False
    if pred():
        return True
    me.state, me.waiting, me.pred = "wait", (line, what), pred
    _yield(s, me)
    return True


def undecided(line: int, why: str) -> None:
    """A synchronisation of the current role that the walk does not decide: its order is not established."""
    s = STATE["sched"]
    me = s.current if s is not None else None
    if me is not None and me is not s.root and me.order_lost is None:
        me.order_lost = (line, why)


def _group_synced(bodies, env, depth=0, seen=None) -> bool:
    """Does code of `bodies` (or of a helper of the file it calls, MAX_SCAN_DEPTH levels) wait on an
    mbarrier slot, or `bar.sync` on a named barrier, that reads the warpgroup index (a name bound to
    `T.warpgroup_id`: flash_attention4's softmax `s_ready.wait(wg_id, ...)`)?  Only a wait can hold
    one group back; an arrive per warpgroup is split where it runs (barrier_phase.per_group)."""
    import named_bar
    import warps as warps_mod
    from kernel_env import FuncValue
    seen = set() if seen is None else seen

    def reads_wg(node):
        return any(isinstance(n, ast.Name) and isinstance(env.get(n.id), warps_mod.ThreadIndex) and
                   env[n.id].kind == "wg" for n in ast.walk(node))

    for b in bodies:
        for st in b:
            for n in ast.walk(st):
                if not isinstance(n, ast.Call):
                    continue
                if ((isinstance(n.func, ast.Attribute) and n.func.attr == "wait") or named_bar.form(n) == "sync") and \
                        n.args and reads_wg(n.args[0]):
                    return True
                fv = env.get(n.func.id) if isinstance(n.func, ast.Name) else None
                if isinstance(fv, FuncValue) and id(fv.node) not in seen and depth < MAX_SCAN_DEPTH:
                    seen.add(id(fv.node))
                    if _group_synced([fv.node.body], {**fv.closure, **env}, depth + 1, seen):
                        return True
    return False


def group_split(body, ws, env) -> list:
    """The warps `ws` of one warp-branch arm as separate roles, one per warpgroup, when they span
    several warpgroups and the arm synchronises on a slot or barrier id read from the warpgroup index:
    the warpgroups then wait for different arrivals and run independently (walked as one role, one
    group's wait would hold back the other, which may be what releases it -- flash_attention4's
    softmax warpgroups and its correction warpgroup's named barriers).  Else [ws]."""
    if not STATE["enabled"] or ws is None or len({w // 4 for w in ws}) < 2 or not _has_wait([body], env) or \
            not _group_synced([body], env):
        return [ws]
    groups: dict = {}
    for w in sorted(ws):
        groups.setdefault(w // 4, set()).add(w)
    return [frozenset(g) for g in groups.values()]
