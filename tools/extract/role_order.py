"""The order in which sibling kern roles are walked: barrier waits before the reads they guard.

kern roles (`with compute:`, `with producer:` after `roles = K.specialize()`) run at the same time
on disjoint warps; the only order between them is their mbarriers.  The model's ops are one pass
of the data flow in program order (docs/model-format.md), so a role whose first pass *waits* on a
barrier that another sibling role completes (a TMA load's mbarrier operand, an arrive) must be
walked after that role, whatever their order in the source (tinygemm2_sm100 (d132501) writes its
compute role, lines 170-297, before the weight / activation producers, lines 299-364, whose TMA
loads the compute role's `weight_ready.wait` waits for).

Edges: role P before role C when C calls `B.wait(...)` on a barrier name B that P uses in any other
way (`B.ptr_to(...)` as a TMA's mbarrier, `B.arrive(...)`, ...), unless B is an "empty" barrier:
declared in the same body as `B = K.MBarrier/TMABar/TCGen05Bar(..., phase_offset=1)` (the offset a
value the source fixes).  TVM's
barrier waits with parity `phase ^ phase_offset` (apache/tvm python/tvm/backend/cuda/lang/
pipeline.py:198), and on a freshly initialized mbarrier a wait for parity 1 completes at once
(PTX ISA §9.7.13.15.16 mbarrier.test_wait/try_wait: the phase before the current one counts as
complete), so the first pass's waits on such a barrier with the usual initial phase 0 do not
block.  The sort is stable (source order among unrelated roles); a cycle keeps the source order.
"""

import ast

from corpus_notation import dotted

BARRIER_CLASSES = ("MBarrier", "TMABar", "TCGen05Bar")


def role_run(body: list, i: int, env: dict, role_type) -> list:
    """The consecutive `with NAME:` statements from body[i] whose NAME is a kern Role in env."""
    out = []
    for st in body[i:]:
        if isinstance(st, ast.With) and len(st.items) == 1 and isinstance(st.items[0].context_expr, ast.Name) \
                and isinstance(env.get(st.items[0].context_expr.id), role_type):
            out.append(st)
        else:
            break
    return out


def _empty_barriers(body: list, env: dict) -> set:
    from kernel_env import Evaluator
    out = set()
    for st in body:
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and \
                isinstance(st.value, ast.Call) and (dotted(st.value.func) or "").split(".")[-1] in BARRIER_CLASSES:
            for k in st.value.keywords:
                if k.arg == "phase_offset":
                    try:
                        v = Evaluator(env).value(k.value)
                    except Exception:  # noqa: BLE001 - an offset the source does not fix: a blocking wait
                        continue
                    if v == 1 and not isinstance(v, bool):
                        out.add(st.targets[0].id)
    return out


def _uses(st) -> tuple[set, set]:
    waits, others = set(), set()
    wait_nodes = set()
    for n in ast.walk(st):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                and n.func.attr == "wait":
            waits.add(n.func.value.id)
            wait_nodes.add(id(n.func.value))
    for n in ast.walk(st):
        if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and id(n.value) not in wait_nodes:
            others.add(n.value.id)
    return waits, others


def order(run: list, body: list, env: dict) -> list:
    """`run` (sibling role statements) in walk order: producers of a barrier before its waiters."""
    empty = _empty_barriers(body, env)
    uses = [_uses(st) for st in run]
    n = len(run)
    before = {c: set() for c in range(n)}
    for c in range(n):
        for p in range(n):
            if p != c and (uses[c][0] - empty) & uses[p][1]:
                before[c].add(p)
    done, out = set(), []
    while len(out) < n:
        ready = [i for i in range(n) if i not in done and before[i] <= done]
        if not ready:  # a cycle: the rest in source order
            out += [i for i in range(n) if i not in done]
            break
        done.add(ready[0])
        out.append(ready[0])
    return [run[i] for i in out]
