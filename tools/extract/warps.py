"""Thread indices and the warps that execute a statement.

TIRx kernels pick the warps that issue an op with branches on thread indices:

    wg_id = T.warpgroup_id([3])        warp w of the CTA has wg_id = w // 4
    warp_id = T.warp_id_in_wg([4])     ... warp_id = w % 4
    lane_id = T.lane_id([32])          ... lane_id in 0..31 (varies inside the warp)
    if (wg_id == 0) & (warp_id == 0):  -> executed by warp 0 only
        T.ptx.tcgen05.alloc...(...)

A thread index is a ThreadIndex in the environment.  It is a runtime value: an expression
that uses it stays undetermined (Unresolved, as before), except in one place, the test of an
`if`: there the test is evaluated once per warp of the CTA and lane of the warp, with the
thread indices taking those values, and the branch is walked with the set of warps for which
some lane takes it.  Values derived from thread indices (`is_leader = warp_id == 0`) keep
their expression (Unresolved.expr) so that a later test can be evaluated the same way.

    declaration                                 value at (warp w, lane l)    CTA warps
    ------------------------------------------  --------------------------   -----------
    T.warpgroup_id([N])                         w // 4                       4 N
    T.warp_id_in_wg([4])                        w % 4
    T.warp_id([N]) / K.warp_id()                w                            N
    T.lane_id([32]) / K.lane_id()               l
    T.thread_id([N])                            32 w + l                     N / 32
    T.thread_id_in_wg([128])                    32 (w % 4) + l
    T.cuda.elect_sync() / K.elect_sync()        l == 0 (one lane of the warp: which one does
                                                not change which warps issue)

The CTA's warp count comes from the first declaration that fixes it; without one, the
warps of a branch on a thread index stay undetermined.  At most MAX_WARPS warps are walked.
"""
from __future__ import annotations

import ast

from corpus_notation import dotted

MAX_WARPS = 32
LANES = 32

THREAD_FUNCS = {"warpgroup_id": "wg", "warp_id_in_wg": "warp_in_wg", "warp_id": "warp", "lane_id": "lane",
                "thread_id": "thread", "thread_id_in_wg": "thread_in_wg"}


class ThreadIndex:
    def __init__(self, kind: str, line: int):
        self.kind, self.line = kind, line

    def at(self, warp: int, lane: int) -> int:
        return {"wg": warp // 4, "warp_in_wg": warp % 4, "warp": warp, "lane": lane,
                "thread": 32 * warp + lane, "thread_in_wg": 32 * (warp % 4) + lane,
                "elect": lane == 0}[self.kind]


class RoleIndex(ThreadIndex):
    """A kern in-role index (kern_forms.role_index): the warp / thread counted from the role's
    first warp."""

    def __init__(self, kind: str, line: int, first_warp: int):
        super().__init__(kind, line)
        self.first = first_warp

    def at(self, warp: int, lane: int) -> int:
        return warp - self.first if self.kind == "warp" else 32 * (warp - self.first) + lane


def thread_decl(call: ast.Call, ev) -> tuple[ThreadIndex, int | None] | None:
    """(index, CTA warps it implies or None) when `call` declares a thread index."""
    d = dotted(call.func) or ""
    short = d.split(".")[-1]
    if short in ("warp_id_in_role", "tid_in_role") and d.startswith(("K.", "Kern.")) and not call.args:
        import kern_forms
        return kern_forms.role_index(short, call.lineno), None
    if short == "elect_sync":
        return ThreadIndex("elect", call.lineno), None
    kind = THREAD_FUNCS.get(short)
    if kind is None or not (d.startswith(("T.", "Tx.", "K.", "Kern.")) or d == short):
        return None
    extent = None
    if call.args:
        a = call.args[0]
        node = a.elts[0] if isinstance(a, (ast.List, ast.Tuple)) and len(a.elts) == 1 else a
        try:
            extent = ev.as_int(node)
        except Exception:  # noqa: BLE001 - an undetermined extent only leaves the warp count open
            extent = None
    warps = None
    if extent is not None:
        warps = {"wg": 4 * extent, "warp": extent, "thread": extent // 32 if extent % 32 == 0 else None}.get(kind)
    return ThreadIndex(kind, call.lineno), warps


def branch_warps(test, env: dict, warps: frozenset, evaluator_cls):
    """(warps taking the body, warps taking the else branch, lane_dependent) when the test is
    determined at every (warp, lane) of `warps`; None when some value other than a thread index
    is undetermined."""
    body, orelse, lane_dep = set(), set(), False
    for w in sorted(warps):
        seen = set()
        for lane in range(LANES):
            ev = evaluator_cls(env, thread=(w, lane))
            try:
                v = bool(ev.value(test))
            except Exception:  # noqa: BLE001 - undetermined: not a pure thread-index test
                return None
            seen.add(v)
        if True in seen:
            body.add(w)
        if False in seen:
            orelse.add(w)
        lane_dep |= len(seen) == 2
    return frozenset(body), frozenset(orelse), lane_dep


def branch_lanes(test, env: dict, warps, evaluator_cls, current=None):
    """For a lane-dependent test: ({warp: lanes taking the body}, {warp: lanes taking the else branch}),
    each within the lanes `current` gives the warp (None: all 32) -- the threads that execute a
    statement inside it (barrier_phase.py counts mbarrier arrivals by them).  None when the test
    is not determined at some lane."""
    body, orelse = {}, {}
    for w in sorted(warps):
        cur = current.get(w) if current else None
        if current and w in current and cur is None:  # its lanes were not determined: nor are these
            body[w] = orelse[w] = None
            continue
        t, f = set(), set()
        for lane in (sorted(cur) if cur is not None else range(LANES)):
            try:
                v = bool(evaluator_cls(env, thread=(w, lane)).value(test))
            except Exception:  # noqa: BLE001 - undetermined
                return None
            (t if v else f).add(lane)
        body[w], orelse[w] = frozenset(t), frozenset(f)
    return body, orelse
