"""Named barriers between sibling warp roles: `T.ptx.bar.sync(id, count)` / `T.ptx.bar.arrive(id, count)`.

role_sched.py walks warp roles as coroutines ordered by their mbarrier waits (barrier_phase.py).
Roles are also ordered by the CTA's named barriers (PTX ISA, barrier / bar: `bar.sync a, b` arrives
and waits until b threads have arrived at barrier a, then the barrier starts its next generation;
`bar.arrive a, b` arrives without waiting; both are `.aligned`, so a warp arrives with all its 32
threads).  Before, the walk did not read them at all: flash_attention4's correction warpgroup, whose
loop is ordered against the softmax warpgroups by `bar.sync(1 + i_q, 256)` / `bar.arrive(1 + wg_id,
256)` only, ran ahead of the softmax steps it waits for whenever it got the baton.

Followed here, per barrier id: the thread count of the current generation (the first arrival's `b`),
the arrivals in it and the generations completed.  A `bar.sync` in a coroutine role arrives and, unless
its arrival completes the generation, suspends the role until that generation has completed; an
arrival that completes a generation lets a lower-index waiting role run at once (as an mbarrier arrive
does).  Not followed, never guessed -- the id is lost, and a `bar.sync` on it is undecided (its role's
order not established): an id or count the source does not fix (per warpgroup it may be:
barrier_phase.per_group), a count that differs within a generation, arrivals past the count, an
arrive under an undecided condition, in a loop the walk does not unroll or in a loop of which it walks
the first iterations (after that loop), by some lanes of a warp only, or by a number of warps not
fixed.  Outside a coroutine walk nothing waits: a `bar.sync` there arrives and, when it does not
complete its generation, the id is lost (what it waits for is not walked as a role).
"""
from __future__ import annotations

import ast

LANES = 32
NUM_BARRIERS = 16  # PTX ISA, bar / barrier: "each CTA instance has sixteen barriers numbered 0..15"
FORMS = {"T.ptx.bar.sync": "sync", "Tx.ptx.bar.sync": "sync", "T.ptx.bar.arrive": "arrive",
         "Tx.ptx.bar.arrive": "arrive"}


class NamedBar:
    """One barrier id of the CTA."""

    def __init__(self, ident: int):
        self.ident, self.count, self.arrivals, self.gens, self.lost = ident, None, 0, 0, None
        self.item = False
        self.label = f"named barrier {ident}"

    def lose(self, line: int, why: str, item: bool = False) -> None:
        """Stop following the barrier.  `item`: for a reason in the source itself (a thread count it
        does not fix, a count that changes within a generation), which makes a bar.sync on it an
        unresolved item; a limit of the walk (an undecided branch, a sampled or runtime loop, ...)
        leaves the role's order not established (role_sched.undecided), as an undecided mbarrier
        wait does."""
        if self.lost is None:
            self.lost, self.item = why, item

    def after_loop(self, line: int) -> None:
        self.lose(line, f"arrived at in the loop at line {line}, of which the walk takes the first iteration(s): "
                  "later iterations' arrivals are not walked")


STATE: dict = {"bars": {}, "all": None}


def reset() -> None:
    STATE["bars"], STATE["all"] = {}, None


def _bar(ident: int) -> NamedBar:
    b = STATE["bars"].get(ident)
    if b is None:
        b = STATE["bars"][ident] = NamedBar(ident)
    return b


def _int(v):
    if isinstance(v, bool):
        return None
    if isinstance(v, int):
        return v
    inner = getattr(v, "value", None)   # a typed TIR constant (T.uint32(5))
    return inner if isinstance(inner, int) and not isinstance(inner, bool) else None


def form(call) -> str | None:
    return FORMS.get(ast.unparse(call.func)) if isinstance(call.func, ast.Attribute) else None


def statement(call, env, ex, cond, line: int) -> bool:
    """Follow `call` when it is a named-barrier instruction (True), else False."""
    import barrier_phase
    import kernel_env
    from kernel_env import Evaluator
    kind = form(call)
    if kind is None:
        return False

    def val(node):
        try:
            v = Evaluator(env).value(node)
        except Exception:  # noqa: BLE001 - not fixed
            return None
        return None if isinstance(v, kernel_env.Unresolved) else _int(v)

    ident = val(call.args[0]) if call.args else None
    count = val(call.args[1]) if len(call.args) == 2 else None
    if kind == "sync" and len(call.args) == 1 and not call.keywords and ex.num_warps:
        count = LANES * ex.num_warps  # `bar.sync a`: every thread of the CTA participates (PTX ISA, bar)
    if (ident is None or count is None) and barrier_phase.per_group(ex, lambda: statement(call, env, ex, cond, line)) \
            is not None:
        return True   # fixed per warpgroup: each group arrives on its own barrier (barrier_phase.per_group)
    if ident is None:
        lose_all(f"a bar.{kind} at line {line} on a barrier id the source does not fix")
        if kind == "sync":
            _not_decided(ex, line, f"the bar.sync at line {line} is not decided (a barrier id the source does not fix)")
        return True
    bad = invalid(kind, ident, count, len(call.args))
    if bad is not None:
        # not an instruction the hardware defines: the kernel is wrong here, and what the roles
        # around it do is not decided either -- an unresolved item, never a silent order
        ex.block(f"bar.{kind} at line {line}", line, None, f"not a valid instruction: {bad}")
        if ident in range(NUM_BARRIERS):
            _bar(ident).lose(line, f"the bar.{kind} at line {line} is not a valid instruction ({bad})")
        else:
            lose_all(f"the bar.{kind} at line {line} names barrier {ident}, which does not exist")
        if kind == "sync":
            import role_sched
            role_sched.undecided(line, f"the bar.sync at line {line} is not a valid instruction ({bad})")
        return True
    b = _bar(ident)
    if STATE["all"] is not None:
        b.lose(line, STATE["all"])
    if count is None or len(call.args) not in (1, 2) or call.keywords or count < LANES or count % LANES:
        b.lose(line, f"a bar.{kind} at line {line} with a thread count the source does not fix", item=True)
    elif cond is not None:
        b.lose(line, f"a bar.{kind} at line {line} under the undecided condition of line {cond.line}")
    elif ex.runtime_loops:
        b.lose(line, f"a bar.{kind} at line {line} in a loop the walk does not unroll")
    elif ex.lane_branches:
        b.lose(line, f"a bar.{kind} at line {line} under a branch some lanes of a warp take")
    for log in ex.state_log:   # a loop walked for its first iterations: lost after it (NamedBar.after_loop)
        log.add(b)
    ws = ex.executing_warps()
    if b.lost is None and ws is None:
        b.lose(line, f"a bar.{kind} at line {line} by a number of warps the walk does not fix")
    if b.lost is None:
        if b.arrivals and b.count != count:
            b.lose(line, f"a bar.{kind} at line {line} expects {count} threads in a generation begun with {b.count}",
                   item=True)
        else:
            b.count = count
            b.arrivals += LANES * len(ws)
            if b.arrivals > count:
                b.lose(line, f"{b.label}: {b.arrivals} threads arrive in one generation of {count} (arrivals the "
                       "walk places before the sync they pair with)")
    import role_sched
    if b.lost is not None:
        if kind == "sync":
            _sync_lost(ex, line, b)
        return True
    mine = b.gens
    if b.arrivals == count:
        b.gens, b.arrivals = b.gens + 1, 0
        role_sched.after_arrive(ex)
        return True
    if kind == "sync":
        waited = role_sched.suspend(ex, line, f"warps {sorted(ws)} at line {line} on {b.label} (generation {mine}, "
                                    f"{count} threads)", lambda: b.lost is not None or b.gens > mine)
        if not waited:  # outside sibling roles nothing completes it: not followed
            b.lose(line, f"a bar.sync at line {line} outside the walked warp roles does not complete its generation")
        elif b.lost is not None:
            _sync_lost(ex, line, b)
    return True


def _not_decided(ex, line: int, why: str) -> None:
    """A bar.sync whose generation the walk does not follow: the role's order is not established
    (role_sched.undecided), and the op order the model gives around it may not be the kernel's, so
    it is an unresolved item (a model is never complete on an order the walk did not establish)."""
    import role_sched
    role_sched.undecided(line, why)
    ex.block(f"bar.sync at line {line}", line, None, why)


def _sync_lost(ex, line: int, b: NamedBar) -> None:
    why = f"the bar.sync at line {line} is not decided ({b.label}: {b.lost})"
    if b.item:
        _not_decided(ex, line, why)
    else:
        import role_sched
        role_sched.undecided(line, why)


def invalid(kind: str, ident: int, count, nargs: int) -> str | None:
    """Why `bar.<kind> ident, count` is not a valid instruction, or None.  PTX ISA, Parallel
    Synchronization and Communication Instructions: bar, barrier: each CTA has sixteen barriers
    numbered 0..15; a thread count, where given, must be a multiple of the warp size, and
    `bar.arrive` requires a non-zero one."""
    if not 0 <= ident < NUM_BARRIERS:
        return f"barrier id {ident} is outside 0..{NUM_BARRIERS - 1} (a CTA has {NUM_BARRIERS} named barriers)"
    if kind == "arrive" and nargs < 2:
        return "bar.arrive takes a thread count"
    if count is not None and (count <= 0 or count % LANES):
        return f"thread count {count} is not a positive multiple of the warp size ({LANES})"
    return None


def lose_all(why: str) -> None:
    STATE["all"] = STATE["all"] or why
    for b in STATE["bars"].values():
        b.lose(0, why)
