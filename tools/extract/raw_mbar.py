"""A raw mbarrier wait on a word of a shared buffer, inside sibling warp roles: not followed by the
role order (docs/extract.md, "A helper object constructed in a tile's class_init").

The megakernel's `Barriers.wait(idx, phase)` (spectrometerHBH 8721e86 utils/base.py:93-95) is
`T.ptx.mbarrier.try_wait(self.mbar.ptr_to([idx]), self.init_phase ^ phase)` on a uint64 word of a
buffer its manager allocated, not a wait of TVM's barrier classes (tvm_pipeline.py), whose phases
barrier_phase.py follows.  Those words' phases (mbarrier.init / arrive / expect_tx /
tcgen05.commit on their addresses, and gemm.py's `mbarrier_try_wait` whose result selects a wait,
590-600) are not modelled, so sibling warp roles that wait on them are walked in the walk's order
(one role after the other), which is not the kernel's: a producer's reuse of a ring slot lands
before the consumer's read of it.  Such a wait makes the role's order not established
(role_sched.undecided) and is listed unresolved once per line, naming it, so the model is not
claimed complete; its ops are still written (as for any order not established).

Python 3 standard library only.
"""
from __future__ import annotations

import ast

WAITS = ("mbarrier.try_wait", "mbarrier.try_wait.parity", "mbarrier.test_wait", "mbarrier.test_wait.parity")
SEEN: set = set()  # (file, line) already listed


def reset() -> None:
    SEEN.clear()


def statement(call, env, ex, line: int) -> bool:
    """A raw `T.ptx.mbarrier.try_wait(ptr, parity)` on a shared uint64 word inside a sibling role:
    the role's order is not established, listed unresolved.  True when it was one."""
    from corpus_notation import dotted
    import kernel_env
    import role_sched
    from fragments import Ptr
    name = dotted(call.func) or ""
    if not name.startswith(("T.ptx.", "Tx.ptx.")) or name.split(".ptx.", 1)[1] not in WAITS or not call.args:
        return False
    s = role_sched.STATE.get("sched")
    if s is None or s.current is None or s.current is s.root:
        return False
    try:
        p = kernel_env.Evaluator(env).value(call.args[0])
    except Exception:  # noqa: BLE001 - an address the walk does not evaluate: not this form
        return False
    if not (isinstance(p, Ptr) and "shared" in p.buf.scope):
        return False
    why = (f"the raw mbarrier wait on {p.buf.name}{list(p.coords)} ({ex.current_file()}:{line}) is not followed: "
           "the phases of a shared word's mbarrier are not modelled, so this warp role's ops are placed in the "
           "walk's order (one role after another), not the order its waits give")
    role_sched.undecided(line, why)
    key = (ex.current_file(), line)
    if key not in SEEN:
        SEEN.add(key)
        ex.block("warp-role order", line, None, why)
    return True
