"""kern DSL forms of the kernels written with tirx_kernels.kern (mlc-ai/TIRx-kernels d132501).

    in the kernel                                   here
    ----------------------------------------------  -----------------------------------------------
    roles = K.specialize()                          Specialize (kern/specialize.py:485)
    r = roles.role(name, warps=range(a, b), ...)    Role: warps a .. b - 1 (specialize.py:207-260:
                                                      the warps, sorted, one contiguous range)
    with r:                                         a branch taken by exactly those warps: the guard
                                                      `first_warp <= warp_id <= last` (Role.__enter__,
                                                      specialize.py:132-160; kernel_walk)
    with K.unroll(n) as v: / with K.serial(a, b,    a loop over range(a, b) with v bound per
      ...) [as v]:                                    iteration (K forwards unknown names to TIRx's T,
                                                      kern/__init__.py:456-472: T.unroll / T.serial
                                                      frames); `serial` is a runtime loop, sampled
                                                      like `for v in T.serial(...)`
    K.warp_id_in_role() / K.tid_in_role()           warp - first_warp / thread - 32 first_warp of the
                                                      innermost `with role:` (specialize.py:581-598);
                                                      a role of a warpgroup is not followed
    K.PipelineState(depth, phase=p)                 TVM's PipelineState (kern/__init__.py:41 imports
                                                      it from tvm.backend.cuda.lang; tvm_classes.py)
    tile[stage] of a 3-D swizzled smem.alloc        StageView: `.ptr_to(r, c)` / `.m8n8(r, c)` is
                                                      buf.ptr_to([stage, r, c]); `.m8n8x4(r, c,
                                                      lane)` is ptr_to(r + (lane & 15), c + 8 (lane
                                                      >> 4)) (kern/smem.py:223-237, 296-314)
"""
from __future__ import annotations

import ast

from corpus_notation import ConvertError, dotted

LOOP_FRAMES = {"unroll", "serial"}


class Specialize:
    def __init__(self, line: int):
        self.line = line


class Role:
    def __init__(self, name: str, warps: list, line: int, grouped: bool = False):
        self.name, self.warps, self.line = name, warps, line
        self.grouped = grouped  # role(..., group=wg): its in-role indices count from the warpgroup


# The roles whose `with role:` bodies the walk is in, innermost last (kernel_walk.walk_role).
ACTIVE_ROLES: list = []


def role_index(short: str, line: int):
    """`K.warp_id_in_role()` / `K.tid_in_role()` inside `with role:` (kern/specialize.py:581-598):
    for a role without a warpgroup, warp - first_warp and thread - 32 first_warp; a ThreadIndex
    (warps.py) evaluated per warp and lane.  Outside a role, or in a role of a warpgroup
    (`% group.n_warps - ...`, not followed here), an Unresolved saying so."""
    import warps as warps_mod
    from kernel_env import Unresolved
    if not ACTIVE_ROLES:
        return Unresolved(f"K.{short}()", line, "an in-role index outside a `with role:` body (kern raises there)")
    role = ACTIVE_ROLES[-1]
    if role.grouped:
        return Unresolved(f"K.{short}()", line, f"an in-role index in role {role.name}, which belongs to a "
                          "warpgroup: counted from the warpgroup (specialize.py:594-595), not followed here")
    return warps_mod.RoleIndex("warp" if short == "warp_id_in_role" else "thread", line, role.warps[0])


def role_of(spec: Specialize, ev, node: ast.Call) -> Role:
    """`roles.role(name, warps=...)`: the role's warps as kern validates them."""
    kw = {k.arg: k.value for k in node.keywords if k.arg}
    name_node = node.args[0] if node.args else kw.get("name")
    warps_node = node.args[1] if len(node.args) > 1 else kw.get("warps")
    if warps_node is None:
        raise ConvertError("role() without warps=")
    if any(k in kw for k in ("when",)):
        raise ConvertError("role(when=...): a participation condition the extraction does not model")
    grouped = "group" in kw and not (isinstance(kw["group"], ast.Constant) and kw["group"].value is None)
    w = ev.value(warps_node)
    warps = sorted(set(w)) if isinstance(w, (tuple, list, range)) else [w]
    if not warps or not all(isinstance(x, int) and not isinstance(x, bool) for x in warps):
        raise ConvertError(f"role warps {w!r} are not integers")
    if warps != list(range(warps[0], warps[-1] + 1)):
        raise ConvertError(f"role warps {warps} are not one contiguous range (kern refuses them)")
    name = ev.value(name_node) if name_node is not None else "role"
    return Role(str(name), warps, node.lineno, grouped)


class StageView:
    def __init__(self, buf, stage):
        self.buf, self.stage = buf, stage

    def attr(self, attr: str):
        from fragments import ptr_to
        f = ptr_to(self.buf)
        if attr in ("ptr_to", "m8n8"):
            return lambda r, c: f(self.stage, r, c)
        if attr == "m8n8x4":
            return lambda r, c, lane: f(self.stage, r + (lane & 15), c + 8 * (lane >> 4))
        raise ConvertError(f"the stage view's {attr!r} is not modelled (ptr_to, m8n8, m8n8x4 are)")


def view_attr(buf, attr: str):
    """`.m8n8(r, c)` / `.m8n8x4(r, c, lane)` of an unstaged (2-D) swizzled tile: it is its own view."""
    from fragments import ptr_to
    f = ptr_to(buf)
    if attr == "m8n8":
        return lambda r, c: f(r, c)
    if attr == "m8n8x4":
        return lambda r, c, lane: f(r + (lane & 15), c + 8 * (lane >> 4))
    return None


def loop_frame(st) -> ast.For | None:
    """`with K.unroll(n) as v:` / `with K.serial(a, b, ...) [as v]:` as the `for` loop it is."""
    if len(st.items) != 1 or not isinstance(st.items[0].context_expr, ast.Call):
        return None
    call = st.items[0].context_expr
    d = dotted(call.func) or ""
    head, _, short = d.rpartition(".")
    if short not in LOOP_FRAMES or head not in ("K", "Kern", "T", "Tx"):
        return None
    var = st.items[0].optional_vars
    target = var if var is not None else ast.Name(id=f"_loop_{st.lineno}", ctx=ast.Store())
    loop = ast.For(target=target, iter=ast.Call(func=call.func, args=call.args, keywords=[]), body=st.body,
                   orelse=[], lineno=st.lineno, col_offset=st.col_offset)
    return loop
