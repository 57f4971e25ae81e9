"""Per-warp buffers: a buffer whose layout or start is computed from a warp index.

Inside a branch on thread indices the walk knows the warps that execute it (warps.py).  A view or
allocation whose arguments depend on a value that differs between those warps but is the same in
every lane of each (`k.tile((1, (-1, 4, 4)))[:, warp_idx - 4, :]` under `elif warpgroup_idx == 1:`,
`T.decl_buffer(..., elem_offset=base + (warp_idx - 4) * 512)`) names one storage per warp: each warp
gets its own buffer.  It is built once per executing warp, with the walk's warps narrowed to that
warp (so the warp index is uniform there, flow_state.uniform_value), and each becomes a model buffer
of its own named after the view and the warp (`k_nope_warp.w4`, the `.wN` suffix the per-warp ops
already carry).  The name is then bound to a PerWarp: a use resolves to the warp's buffer where one
warp executes the use (a per-warp op, flow_state.record_per_group, narrows to one warp); where several
do, the use is blocked by a thread index (so record_per_group splits it per warp, as for any operand
that differs by warp).  A view of a per-warp buffer is per-warp in turn (`k_nope_warp.sub[...]`).

Refused (the usual unresolved item stays): a value that differs between the lanes of a warp (no one
buffer per warp), a pool allocation (built once per warp it would move the pool's offset once per
warp), and a build that fails for any warp for another reason.
"""
from __future__ import annotations

THREAD_REASON = "a thread index"


class PerWarp:
    """A buffer name bound to one buffer per executing warp: warp -> BufferRef."""

    def __init__(self, name: str, line: int, by_warp: dict):
        self.name, self.line, self.by_warp = name, line, dict(by_warp)

    def resolve(self, thread=None):
        """The buffer of the warp executing here, or an Unresolved (thread-derived) naming the warps."""
        import tvm_classes
        from kernel_env import Unresolved
        if thread is not None:
            b = self.by_warp.get(thread[0])
            if b is not None:
                return b
            ws = {thread[0]}
        else:
            ws = set(tvm_classes.WALK.get("warps") or ())
        if ws and ws <= set(self.by_warp) and len({id(self.by_warp[w]) for w in ws}) == 1:
            return self.by_warp[next(iter(ws))]
        shown = sorted(ws) if ws else "all"
        u = Unresolved(self.name, self.line, f"a thread index value that differs between the threads executing here "
                       f"(warps {shown}): one buffer per warp ({', '.join(b.name for b in self.by_warp.values())})")
        u.thread = True
        return u


def thread_blocked(item) -> bool:
    """Whether an Unresolved is blocked only by a thread index (its root says so)."""
    if item is None:
        return False
    r = item.root()
    return bool(getattr(r, "thread", False)) and (r.reason or "").startswith(THREAD_REASON)


def split(build, name: str, line: int, ex, item) -> "PerWarp | None":
    """`build(model_name)` once per warp executing here, each with the walk narrowed to that warp:
    a PerWarp of the buffers, or None (nothing emitted) when the warps are not several, the block is
    not a thread index, or any warp's build does not give a buffer."""
    import tvm_classes
    from kernel_env import BufferRef
    ws = ex.warps
    if ws is None or len(ws) < 2 or not thread_blocked(item):
        return None
    saved = (ex.warps, tvm_classes.WALK.get("warps"))
    n_buffers, n_blocked, emitted = len(ex.buffers), len(ex.blocked), dict(ex.emitted)
    names, issued = dict(ex.names), set(ex.__dict__.get("_issued", ()))
    by = {}
    ok = True
    try:
        for w in sorted(ws):
            ex.warps = frozenset({w})
            tvm_classes.WALK["warps"] = ex.warps
            try:
                b = build(f"{name}.w{w}")
            except Exception:  # noqa: BLE001 - any failure (UnresolvedError included): not split
                ok = False
                break
            if not isinstance(b, BufferRef):
                ok = False
                break
            by[w] = b
    finally:
        ex.warps, tvm_classes.WALK["warps"] = saved
    if not ok:  # take back what the warps built
        del ex.buffers[n_buffers:]
        for e in ex.blocked[n_blocked:]:
            ex.blocked_keys.discard((e["item"], e["line"], e.get("name"), e["reason"]))
        del ex.blocked[n_blocked:]
        ex.emitted.clear()
        ex.emitted.update(emitted)
        ex.names.clear()
        ex.names.update(names)
        ex.__dict__["_issued"] = issued
        return None
    return PerWarp(name, line, by)
