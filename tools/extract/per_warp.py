"""Per-warp buffers: a buffer whose layout or start is computed from a warp index.

Inside a branch on thread indices the walk knows the warps that execute it (warps.py).  A view or
allocation whose arguments depend on a value that differs between those warps but is the same in
every lane of each (`k.tile((1, (-1, 4, 4)))[:, warp_idx - 4, :]` under `elif warpgroup_idx == 1:`,
`T.decl_buffer(..., elem_offset=base + (warp_idx - 4) * 512)`) names one storage per warp: each warp
gets its own buffer.  It is built once per executing warp, with the walk's warps narrowed to that
warp (so the warp index is uniform there, flow_state.uniform_value), and each becomes a model buffer
of its own named after the view and the warp (`k_nope_warp.w4`, the `.wN` suffix the per-warp ops
already carry).  Where the executing warps span several warpgroups, one buffer per warpgroup is
tried first (`X.wg1`: a value such as `wg_id`, uniform in each warpgroup, as
flow_state.record_per_group splits ops), and per warp only when the value differs inside one.  The name is then bound to a PerWarp: a use resolves to the warp's buffer where one
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
    """`build(model_name)` once per warpgroup executing here when several do (`X.wg1`: a value
    uniform in each warpgroup, as record_per_group splits ops), else -- or when the value differs
    inside a warpgroup -- once per warp (`X.w5`), each with the walk narrowed to that group: a
    PerWarp of the buffers (every executing warp -> its group's buffer), or None (nothing emitted)
    when the warps are not several, the block is not a thread index, or a group's build does not
    give a buffer at either level."""
    ws = ex.warps
    if ws is None or len(ws) < 2 or not thread_blocked(item):
        return None
    for level, suffix in ((lambda w: w // 4, "wg"), (lambda w: w, "w")):
        groups: dict = {}
        for w in sorted(ws):
            groups.setdefault(level(w), []).append(w)
        if len(groups) < 2:
            continue
        by = _build_groups(build, name, ex, groups, suffix)
        if by is not None:
            return PerWarp(name, line, by)
    return None


def _build_groups(build, name: str, ex, groups: dict, suffix: str):
    """warp -> BufferRef, each group's buffer built with the walk's warps narrowed to the group;
    None after taking back everything the groups emitted when one does not give a buffer."""
    import tvm_classes
    from kernel_env import BufferRef
    saved = (ex.warps, tvm_classes.WALK.get("warps"))
    n_buffers, n_blocked, emitted = len(ex.buffers), len(ex.blocked), dict(ex.emitted)
    names, issued = dict(ex.names), set(ex.__dict__.get("_issued", ()))
    by = {}
    ok = True
    try:
        for key, members in groups.items():
            ex.warps = frozenset(members)
            tvm_classes.WALK["warps"] = ex.warps
            try:
                b = build(f"{name}.{suffix}{key}")
            except Exception:  # noqa: BLE001 - any failure (UnresolvedError included): not split here
                ok = False
                break
            if not isinstance(b, BufferRef):
                ok = False
                break
            by.update({w: b for w in members})
    finally:
        ex.warps, tvm_classes.WALK["warps"] = saved
    if not ok:  # take back what the groups built
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
    return by
