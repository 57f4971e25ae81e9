"""A raw mbarrier wait on a word of a shared buffer, inside sibling warp roles: not followed by the
role order (docs/extract.md, "A helper object constructed in a tile's class_init").

The megakernel's `Barriers.wait(idx, phase)` (spectrometerHBH 8721e86 utils/base.py:93-95) is
`T.ptx.mbarrier.try_wait(self.mbar.ptr_to([idx]), self.init_phase ^ phase)` on a uint64 word of a
buffer its manager allocated, not a wait of TVM's barrier classes (tvm_pipeline.py).  raw_phase.py
follows such words' phases (init / arrive / expect_tx / tcgen05.commit on their addresses); a wait
it decides suspends the role like a TVM barrier's wait.  A wait it does not decide (a word not
followed, a parity or index the walk does not fix, an undecided condition other than the
poll-then-wait shape) makes the role's order not established (role_sched.undecided) and is listed
unresolved once per line, naming the reason, so the model is not claimed complete; its ops are still
written (as for any order not established).  Outside sibling roles (at the kernel's top level, or
a lone warp branch) no other role is walked while the wait stands, so a wait is passed only when
it passes where the walk reaches it; one that would block, or that the walk does not decide, is
listed the same way.  A line shared by several waits (base.py:95 serves four
barriers) resolves only when every wait reaching it is decided.

Python 3 standard library only.
"""
from __future__ import annotations

import ast

WAITS = ("mbarrier.try_wait", "mbarrier.try_wait.parity", "mbarrier.test_wait", "mbarrier.test_wait.parity")
SEEN: set = set()  # (file, line) already listed


def reset() -> None:
    SEEN.clear()


def statement(call, env, ex, line: int, cond=None) -> bool:
    """A raw `T.ptx.mbarrier.try_wait(ptr, parity)` on a shared uint64 word inside a sibling role:
    decided by the word's phases (raw_phase.py) -- the role suspended until the phase completes --
    or, when raw_phase does not decide it, the role's order is not established and the line is
    listed unresolved with the reason.  True when it was one."""
    from corpus_notation import dotted
    import kernel_env
    import role_sched
    from fragments import Ptr
    name = dotted(call.func) or ""
    if not name.startswith(("T.ptx.", "Tx.ptx.")) or name.split(".ptx.", 1)[1] not in WAITS or not call.args:
        return False
    s = role_sched.STATE.get("sched")
    at_root = s is None or s.current is None or s.current is s.root
    try:
        p = kernel_env.Evaluator(env).value(call.args[0])
    except Exception as e:  # noqa: BLE001 - an address the walk does not evaluate: undecided, never passed over
        p = kernel_env.Unresolved(ast.unparse(call.args[0]), line, str(e))
    import raw_phase
    cond = raw_phase.enclosing(ex, cond)  # a helper called under an undecided condition runs under it
    if isinstance(p, kernel_env.Unresolved):
        words = raw_phase.lane_words(call.args[0], env, ex)  # one word per lane (raw_phase.lane_words)
        if words is None and at_root and not raw_phase.STATE["words"]:
            return False  # no raw word followed at all: an address of its own (before: never listed)
        if words is None:
            why = p.root().reason + ("; under elect_sync(), whose elected lane PTX does not fix"
                                     if getattr(ex, "elect_depth", 0) else "")
            _list(ex, line, f"the raw mbarrier wait at {ex.current_file()}:{line} is not followed: its address "
                  f"{ast.unparse(call.args[0])[:80]} is not evaluated ({why}); so this warp role's ops "
                  "are placed in the walk's order (one role after another), not the order its waits give")
            return True
        p = next(iter(words.values()))[0]
        got = raw_phase.lane_wait_result(words, call, env, ex, cond, line)
    elif not (isinstance(p, Ptr) and "shared" in p.buf.scope):
        return False
    else:
        got = raw_phase.wait_result(p, call, env, ex, cond, line)
    parts = got[1] if got[0] == "waits" else [got]
    if at_root:  # no sibling roles: nothing the walk could run first completes a phase (module docstring)
        bad = next((g[3] for g in parts if isinstance(g[3], str)), None)
        if bad is None and all(g[3][1] is True for g in parts):
            return True
        _list(ex, line, f"the raw mbarrier wait on {p.buf.name}{list(p.coords)} ({ex.current_file()}:{line}) outside "
              "sibling warp roles " + (f"is not decided: {bad}" if bad is not None else
                                       "does not pass where the walk reaches it (no arrive walked before it completes "
                                       "the phase it waits for, and no other role is walked meanwhile)") +
              "; so the order the walk gives its ops is not established")
        return True
    if not any(isinstance(g[3], str) for g in parts):
        role_sched.wait(ex, got, line)  # suspends this role until the phase completes (role_sched.py)
        lost = next((x for x in (raw_phase.why_lost(g[1]) for g in parts) if x is not None), None)
        if lost is None:
            return True
        # let go because the word stopped being followed while this role waited on it
        got = ("wait", parts[0][1], parts[0][2], f"the wait at line {line} is not decided ({lost})")
    why = (f"the raw mbarrier wait on {p.buf.name}{list(p.coords)} ({ex.current_file()}:{line}) is not followed: "
           f"{got[3]}; so this warp role's ops are placed in the walk's order (one role after another), not the "
           "order its waits give")
    _list(ex, line, why)
    return True


def _list(ex, line: int, why: str) -> None:
    import role_sched
    role_sched.undecided(line, why)
    key = (ex.current_file(), line)
    if key not in SEEN:
        SEEN.add(key)
        ex.block("warp-role order", line, None, why)
