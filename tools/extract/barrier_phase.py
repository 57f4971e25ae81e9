"""mbarrier phases as the walk runs: which `B.wait(stage, phase)` of TVM's barrier classes would pass.

The walk (kernel_walk.py) places a kernel's ops in one pass; role_sched.py runs sibling warp roles
as coroutines so that a role whose wait is not yet satisfied is suspended until other roles'
arrives complete the phase it waits for.  This module is the barrier side of that: per barrier
slot, how many phases have completed and how many arrivals the current phase has, from the
barrier objects of tvm_pipeline.py (apache/tvm 4b5598a74f python/tvm/backend/cuda/lang/
pipeline.py:142-376):

    B.init(count)                       every slot expects `count` arrivals per phase
                                        (Pipeline(...): init_full / init_empty, pipeline.py:360-376)
    B.wait(stage, phase)                mbarrier.try_wait.parity(slot, phase ^ phase_offset)
                                        (pipeline.py:198): passes once the phase of that parity
                                        has completed -- with n phases completed, the current
                                        (incomplete) phase has parity n mod 2, so a wait for
                                        parity P passes iff P != n mod 2 (PTX ISA
                                        mbarrier.test_wait/try_wait: the phase before the current
                                        one counts as complete, so on a fresh barrier a wait for
                                        parity 1 passes at once)
    MBarrier.arrive(stage)              mbarrier.arrive: one arrival per executing thread
    TMABar.arrive(stage, tx_count)      mbarrier.arrive.expect_tx: one arrival per executing
                                        thread (the byte count the TMA completes is not checked:
                                        the copies that complete it are issued by the same thread
                                        before the arrive in the kernels read; see "weak" below)
    TCGen05Bar.arrive(stage, cta_group, tcgen05.commit: one arrival per executing thread on the
                      cta_mask=M)       barriers of the CTAs in M (this CTA's when bit 0, the
                                        representative instance's CTA rank 0, is set)

A phase completes when its arrivals reach the slot's count.  The executing threads are the walk's
warps (Extraction.warps) times the lanes of each that take the enclosing lane branches
(`elect_sync()`: lane 0; `tid_in_wg == 0`: ...; Extraction.lane_sets).

A wait is *decided* when the slot index and parity are values the source fixes and the slot's
state is followed; else it is undecided (the waiting role goes on, but role_sched records that
its order is not established, and a PipelineState copy of it that wraps its ring stays unresolved
as before).  A slot's state is no longer followed (`lost`) after: an arrive under an undecided
condition or in a loop the walk does not unroll, an arrive whose thread count or CTA mask is not
fixed, an arrive form not modelled (`cta_id=`, `count=`, `pred=`), an arrival past the expected
count, a count not fixed, or a use of the barrier's slot address by an instruction the extraction
does not follow (`B.ptr_to([i])` passed anywhere but a copy's `mbar=` option: a raw
`mbarrier.arrive` on that address arrives unseen).
"""
from __future__ import annotations

import ast

LANES = 32


class SlotState:
    __slots__ = ("phases", "arrivals", "lost", "assumed")

    def __init__(self):
        self.phases, self.arrivals, self.lost = 0, 0, None
        self.assumed: list = []   # (what, line, value): instance assumptions its arrivals rest on


class Phases:
    """The walk's barrier state: Barrier -> expected count, slot -> SlotState."""

    def __init__(self):
        self.counts: dict = {}    # id(bar) -> count (or None: not fixed)
        self.lost: dict = {}      # id(bar) -> why the whole barrier is not followed
        self.slots: dict = {}     # (id(bar), index) -> SlotState
        self.keep: list = []      # barrier objects seen (ids stay valid)

    def slot(self, bar, index) -> SlotState:
        s = self.slots.get((id(bar), index))
        if s is None:
            s = self.slots[(id(bar), index)] = SlotState()
            self.keep.append(bar)
        return s

    def count(self, bar):
        if id(bar) in self.counts:
            return self.counts[id(bar)]
        return getattr(bar, "count", None)

    def lose(self, bar, why: str, index=None) -> None:
        if index is None or not isinstance(index, int):
            self.lost.setdefault(id(bar), why)
            self.keep.append(bar)
        else:
            s = self.slot(bar, index)
            s.lost = s.lost or why

    def why_lost(self, bar, index):
        if id(bar) in self.lost:
            return self.lost[id(bar)]
        s = self.slots.get((id(bar), index))
        return s.lost if s is not None else None

    def passes(self, bar, index, parity):
        """True / False (would block) / a str: why it is undecided."""
        why = self.why_lost(bar, index)
        if why is not None:
            return why
        return self.slot(bar, index).phases % 2 != parity

    def arrive(self, bar, index, threads: int) -> str | None:
        """Add `threads` arrivals to slot `index`; a why when its state is no longer followed."""
        why = self.why_lost(bar, index)
        if why is not None:
            return why
        c = self.count(bar)
        if not isinstance(c, int) or isinstance(c, bool) or c < 1:
            self.lose(bar, f"{bar.label}: its arrival count is not fixed (no init(count) the walk followed)")
            return self.lost[id(bar)]
        s = self.slot(bar, index)
        s.arrivals += threads
        if s.arrivals > c:
            s.lost = (f"{bar.label} slot {index}: {s.arrivals} arrivals in one phase, past its count {c} "
                      "(arrivals the walk places before the waits they pair with)")
            return s.lost
        if s.arrivals == c:
            s.phases, s.arrivals = s.phases + 1, 0
        return None


STATE = {"phases": None}   # the current extraction's Phases (reset by kernel_walk.Extraction)


def phases() -> Phases:
    if STATE["phases"] is None:
        STATE["phases"] = Phases()
    return STATE["phases"]


def reset() -> None:
    STATE["phases"] = Phases()


def _barrier_of(node, env):
    """The tvm_pipeline.Barrier `node` (B / P.full / P.empty) evaluates to, or None."""
    import tvm_pipeline
    from kernel_env import Evaluator
    if not isinstance(node, (ast.Name, ast.Attribute)):
        return None
    try:
        v = Evaluator(env).value(node)
    except Exception:  # noqa: BLE001 - not a barrier object
        return None
    return v if isinstance(v, tvm_pipeline.Barrier) else None


def threads(ex) -> int | None:
    """Threads executing the current statement: per executing warp, its lanes (Extraction.lane_sets)."""
    ws = ex.executing_warps()
    if ws is None:
        return None
    lanes = getattr(ex, "lane_sets", None) or {}
    if ex.lane_branches and not lanes:
        return None
    total = 0
    for w in ws:
        ls = lanes.get(w)
        if ls is None and ex.lane_branches:
            return None
        total += LANES if ls is None else len(ls)
    return total


ARRIVE_FORMS = {"TCGen05Bar": ({"cta_group", "cta_mask"}, 1), "TMABar": ({"tx_count"}, 2), "MBarrier": (set(), 1)}


def _form_not_modelled(bar, call, line: int) -> str | None:
    """Why `bar.arrive(...)` is a form the phase count does not model (another CTA's barrier: cta_id= /
    remote=, an explicit count= or pred=), or None."""
    kws, nargs = ARRIVE_FORMS.get(bar.cls, (set(), 1))
    extra = {k.arg for k in call.keywords} - kws
    if extra or len(call.args) > nargs or any(k.arg is None for k in call.keywords):
        return (f"an arrive at line {line} with {', '.join(sorted(str(e) + '=' for e in extra)) or 'arguments'} "
                "not modelled (another CTA's barrier, an explicit count or predicate)")
    return None


def prescan(bodies, env, depth=0, seen=None) -> None:
    """Before sibling roles are walked as coroutines: a barrier that some statement of theirs (or of a
    helper of the file they call, 4 levels) arrives on in a form not modelled, or uses other than by
    init / wait / arrive, is not followed from the start -- so that a role does not wait on it for an
    arrival the walk will never count (a deadlock that is not the kernel's).  A branch whose test the
    source decides counts only its taken side."""
    import kernel_env
    from kernel_env import Evaluator, FuncValue
    seen = set() if seen is None else seen

    def stmts(body):
        for st in body:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(st, ast.If):
                try:
                    t = Evaluator(env).value(st.test)
                    taken = None if isinstance(t, kernel_env.Unresolved) else bool(t)
                except Exception:  # noqa: BLE001 - undecided: both sides
                    taken = None
                stmts(st.body if taken is None or taken else [])
                stmts(st.orelse if taken is None or not taken else [])
                calls(st.test)
                continue
            inner = [x for x in ast.iter_child_nodes(st) if isinstance(x, ast.stmt)]
            if inner:
                stmts(inner)
                for x in ast.iter_child_nodes(st):
                    if not isinstance(x, ast.stmt):
                        calls(x)
                continue
            if isinstance(st, (ast.Assign, ast.AnnAssign, ast.Expr)):
                address_uses(st, env, st.lineno)
            calls(st)

    def calls(node):
        for n in ast.walk(node):
            if not isinstance(n, ast.Call):
                continue
            import raw_phase
            raw_phase.prescan_call(n, env)  # a raw word's arrive in a form not modelled (raw_phase.py)
            if isinstance(n.func, ast.Attribute) and n.func.attr == "arrive":
                bar = _barrier_of(n.func.value, env)
                why = _form_not_modelled(bar, n, n.lineno) if bar is not None else None
                if why is not None:
                    phases().lose(bar, f"{bar.label}: {why}")
            fv = env.get(n.func.id) if isinstance(n.func, ast.Name) else None
            if isinstance(fv, FuncValue) and id(fv.node) not in seen and depth < 4:
                seen.add(id(fv.node))
                prescan([fv.node.body], {**fv.closure, **env}, depth + 1, seen)

    for b in bodies:
        stmts(b)


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def statement(call, env, ex, cond, line: int):
    """`B.init(count)` / `B.arrive(...)` / `B.wait(stage, phase)` on a barrier object: the phase
    bookkeeping.  Returns None when `call` is none of these, else ("wait", bar, index, parity-or-why)
    for a wait (the caller decides whether it blocks), ("waits", [("wait", ...), ...]) for a wait whose
    slot or phase is fixed per warpgroup (per_group), or ("other",)."""
    import kernel_env
    from kernel_env import Evaluator
    f = call.func
    if not (isinstance(f, ast.Attribute) and f.attr in ("init", "arrive", "wait")):
        return None
    bar = _barrier_of(f.value, env)
    if bar is None:
        return None
    ph = phases()
    ev = Evaluator(env)

    def val(node):
        try:
            v = ev.value(node)
        except Exception:  # noqa: BLE001 - not fixed
            return None
        return None if isinstance(v, kernel_env.Unresolved) else v

    if f.attr == "init":
        c = val(call.args[0]) if len(call.args) == 1 and not call.keywords else None
        if cond is not None or ex.runtime_loops or not _int(c) or c < 1:
            ph.counts[id(bar)] = None
            ph.lose(bar, f"{bar.label}: init() at line {line} with a count the walk does not fix")
        else:
            ph.counts[id(bar)] = c
            ph.keep.append(bar)
        return ("other",)
    idx = val(call.args[0]) if call.args else None
    fixed = _int(idx) and (f.attr != "wait" or (len(call.args) == 2 and _int(val(call.args[1]))))
    if not fixed:
        parts = per_group(ex, lambda: statement(call, env, ex, cond, line))
        if parts is not None:  # a slot or phase fixed per warpgroup (per warp): each group on its own
            return ("waits", parts) if f.attr == "wait" else ("other",)
    if f.attr == "wait":
        par = val(call.args[1]) if len(call.args) == 2 and not call.keywords else None
        off = bar.phase_offset
        if not _int(idx) or not _int(par) or not _int(off) or par not in (0, 1):
            return ("wait", bar, idx, f"the wait at line {line} on {bar.label} has a slot or phase the source "
                    "does not fix")
        if cond is not None:
            return ("wait", bar, idx, f"the wait at line {line} runs under the undecided condition of line "
                    f"{cond.line}")
        parity = (par ^ off) & 1
        got = ph.passes(bar, idx, parity)
        if isinstance(got, str):
            got = f"the wait at line {line} is not decided ({got})"
        return ("wait", bar, idx, got if isinstance(got, str) else (parity, got))
    # arrive
    where = None
    if cond is not None:
        where = f"an arrive at line {line} under the undecided condition of line {cond.line}"
    elif ex.runtime_loops:
        where = f"an arrive at line {line} in a loop the walk does not unroll"
    kws = {k.arg: k.value for k in call.keywords}
    mine = True
    where = where or _form_not_modelled(bar, call, line)
    if bar.cls == "TCGen05Bar":
        if where is None and "cta_mask" in kws:
            m = val(kws["cta_mask"])
            if not _int(m) or kernel_env.SETTINGS.get("instance") == "none":
                where = where or f"an arrive at line {line} whose CTA mask the walk does not fix"
            else:
                mine = bool(m & 1)   # the representative instance's CTA: rank 0 of its cluster
                if _int(idx):  # recorded as a binding once a decided wait reads this slot (used())
                    ph.slot(bar, idx).assumed.append((
                        f"tcgen05.commit at line {line} with cta_mask={m}: the walked CTA is rank 0 of its cluster "
                        "(its mbarrier gets the arrival when bit 0 is set)", line, int(mine)))
    for log in ex.state_log:  # a loop walked for its first iterations: lost after it (Barrier.lose)
        log.add(bar)
    if not _int(idx):
        ph.lose(bar, where or f"an arrive at line {line} on a slot the source does not fix")
        return ("other",)
    if where is not None:
        ph.lose(bar, where, idx)
        return ("other",)
    if not mine:
        return ("other",)
    n = threads(ex)
    if n is None:
        ph.lose(bar, f"an arrive at line {line} by a number of threads the walk does not fix", idx)
        return ("other",)
    ph.arrive(bar, idx, n)
    return ("other",)


def groups(ex) -> list | None:
    """The statement's warps split by warpgroup (else by warp) when they span several -- the level at
    which a thread index such as `wg_id` is uniform (flow_state.record_per_group's split) -- or None."""
    ws = ex.warps
    if ws is None or len(ws) < 2:
        return None
    for level in (lambda w: w // 4, lambda w: w):
        gs: dict = {}
        for w in sorted(ws):
            gs.setdefault(level(w), set()).add(w)
        if len(gs) > 1:
            return [frozenset(g) for g in gs.values()]
    return None


def per_group(ex, fn) -> list | None:
    """`fn()` once per group of `groups(ex)`, each with the walk's warps narrowed to that group (so a
    slot `wg_id` or a barrier id `1 + wg_id` is fixed there: flash_attention4's softmax warpgroups'
    `p_o_rescale.arrive(wg_id)`): the results in group order, or None when the warps do not split.
    The groups arrive one after the other at the statement's place, as they issue it each on its own
    slot; a wait passes when every group's passes."""
    import tvm_classes
    gs = groups(ex)
    if gs is None:
        return None
    saved = (ex.warps, tvm_classes.WALK.get("warps"))
    out = []
    try:
        for g in gs:
            ex.warps = g
            tvm_classes.WALK["warps"] = g
            r = fn()
            out += r[1] if isinstance(r, tuple) and r[0] == "waits" else [r]
    finally:
        ex.warps, tvm_classes.WALK["warps"] = saved
    return out


def _tma_completion(call, env) -> bool:
    """`T.ptx["cp.async.bulk.tensor....mbarrier::complete_tx::bytes"](..., B.ptr_to([i]))`: a TMA copy
    that completes its bytes on that slot (no arrival: the phase still needs its arrive.expect_tx)."""
    from kernel_env import Evaluator
    f = call.func
    if not isinstance(f, ast.Subscript) or (ast.unparse(f.value) not in ("T.ptx", "Tx.ptx")):
        return False
    try:
        text = Evaluator(env).value(f.slice)
    except Exception:  # noqa: BLE001 - not a fixed instruction string
        return False
    return isinstance(text, str) and text.startswith("cp.async.bulk.tensor.") and "mbarrier::complete_tx" in text


BENIGN = ("depth", "phase_offset", "stages", "full", "empty", "buf")


def _root(node):
    while isinstance(node, ast.Attribute):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def assumed(bar, index) -> list:
    """The instance assumptions the arrivals counted on slot `index` rest on (role_sched.py records
    them as bindings where the model depends on them: a wait that suspended its role, a wrapped
    copy resolved by the coroutine walk)."""
    s = phases().slots.get((id(bar), index))
    return list(s.assumed) if s is not None else []


def record(assumptions) -> None:
    import kernel_env
    for what, line, value in assumptions:
        kernel_env.note_convention(what, line, value)


def address_uses(st, env, line: int) -> None:
    """A barrier used other than by its own init / wait / arrive, a copy's `mbar=` option or a TMA
    instruction's mbarrier operand -- its slot address given to mapa or a raw `mbarrier.arrive`, a
    `remote_view(rank)` arrived on through another object: arrivals the walk does not see, so the
    barrier's state is no longer followed (its waits are undecided, never blocking on an arrive
    that happened unseen)."""
    import tvm_pipeline
    roots = [n for n in ast.walk(st) if isinstance(n, ast.Attribute) and
             isinstance(env.get(_root(n)), tvm_pipeline.VALUE_TYPES)]
    if not roots:
        return
    parents = {}
    for n in ast.walk(st):
        for c in ast.iter_child_nodes(n):
            parents[id(c)] = n
    for n in roots:
        if n.attr in BENIGN:
            continue
        bar = _barrier_of(n.value.value if isinstance(n.value, ast.Attribute) and n.value.attr == "buf" else n.value,
                          env)
        if bar is None:
            continue
        p = parents.get(id(n))
        if n.attr in ("init", "arrive", "wait") and isinstance(p, ast.Call) and p.func is n:
            continue
        if n.attr == "ptr_to" and isinstance(p, ast.Call) and p.func is n:
            call, pp = p, parents.get(id(p))
            if isinstance(pp, ast.keyword) and pp.arg == "mbar":
                continue
            if isinstance(pp, ast.Call) and call in pp.args and _tma_completion(pp, env):
                continue
            if isinstance(pp, ast.Dict):
                k = next((k for k, v in zip(pp.keys, pp.values) if v is call), None)
                if isinstance(k, ast.Constant) and k.value == "mbar":
                    continue
        phases().lose(bar, f"{bar.label}: used at line {line} other than by its init / wait / arrive "
                      f"({ast.unparse(n)[:80]}): arrivals there are not seen")
