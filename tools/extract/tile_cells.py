"""Declared TIR scalars held as tile-task attributes (docs/extract.md, "A register scalar held as a
tile-task attribute").

A megakernel tile keeps a per-thread counter as a class attribute (spectrometerHBH 8721e86
megakernel/tile_tasks/gemm.py:186 `GemmTile.tile_idx = T.local_scalar("int32")`, 201
`cls.tile_idx = 0` in class_init, 332 / 631 `self.tile_idx += 1` in run).  TVM's parser treats an
assignment to any target that is not a subscript alike: it evaluates the target as a load, and
when that is a scalar of a (1,)-shaped buffer (T.local_scalar's scalar_wrapper) the assignment is
`T.buffer_store(buffer, rhs, [0])`, else a Python binding (apache/tvm 5d4dc87
python/tvm/tirx/script/parser/parser.py:617-654 visit_assign; 660-720 visit_aug_assign, `x op= e`
stored as `x = x op e`).  So:

  * `recv.X = T.local_scalar(dtype)` (recv an Instance / ClassValue, tile_class.py) binds X to a
    declared scalar (tvm_classes.TirLocal, as `x = T.local_scalar(dtype)` does for a name:
    flow_state.py), stored on the object;
  * a later `recv.X = v` / `recv.X op= v` whose attribute is such a cell is a store into it, with
    the rules of a store into a named scalar (kernel_walk.bind: the warps running it, lost under an
    undecided condition or in a loop not unrolled);
  * reading `recv.X` reads the cell's value at this point (TirLocal.get);
  * the driver calls `run` once per tile in its scheduler loop (base.py run_tile, moe.py:590-615),
    so at `run`'s entry a cell holds what class_init / init stored only on the CTA's first tile;
    later tiles see the stores of the earlier runs.  Under the representative instance ("CTA 0 on
    its first tile") that value is taken and recorded in extraction.instance.bindings; with
    `--instance none` the cell is unresolved at `run`'s entry.
"""
from __future__ import annotations

import ast


def _receiver(target, env):
    import tile_class
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
        recv = env.get(target.value.id)
        if isinstance(recv, (tile_class.Instance, tile_class.ClassValue)):
            return recv
    return None


def _raw(recv, name: str):
    """The attribute's stored value (instance, then the class along its MRO), unwrapped: None when absent."""
    import tile_class
    if isinstance(recv, tile_class.Instance):
        if name in recv.attrs:
            return recv.attrs[name]
        recv = recv.cls
    got = recv.find(name)
    if got is None or got[1] != "attr":
        return None
    return got[2]


def cell_of(target, env):
    """The TirLocal that `recv.X` holds, or None."""
    import tvm_classes
    recv = _receiver(target, env)
    if recv is None:
        return None
    v = _raw(recv, target.attr)
    return v if isinstance(v, tvm_classes.TirLocal) else None


def declare(target, value, env: dict, ex, line: int) -> bool:
    """`recv.X = T.local_scalar(dtype)`: X becomes a declared scalar stored on the object."""
    import flow_state
    import tile_class
    import tvm_classes
    from kernel_env import Unresolved
    if _receiver(target, env) is None or not flow_state.scalar_declaration(value):
        return False
    n = ast.unparse(target)
    cell = tvm_classes.TirLocal(n, line, ex.warps, Unresolved(
        n, line, "declared by T.local_scalar without a value; read before a store the walk follows"))
    cell.lane_depth = len(ex.lane_changes)
    return tile_class.store(target, cell, env)


def cells(cls, inst) -> list:
    """(name, cell) for each declared scalar held by the instance or its class (along the MRO)."""
    import reg_cell
    import tvm_classes
    out, seen = [], set()
    for holder in [inst.attrs] + [c.attrs for c in cls.mro()]:
        for k, v in holder.items():
            cs = reg_cell.cells_of([v])  # X[0] of a (1,) register buffer held by the tile (reg_cell.py)
            if cs:
                v = cs[0]
            if isinstance(v, tvm_classes.TirLocal) and id(v) not in seen:
                seen.add(id(v))
                out.append((k, v))
    return out


def reachable(values, depth: int = 3, seen=None) -> list:
    """The cells held by the Instances / ClassValues among `values` and by the Instances their
    attributes hold, `depth` levels down (a tile's manager, `self.smem_manager.cur_phase[0]`:
    each role gets its own copy; thread_cells.collect)."""
    import tile_class
    seen = set() if seen is None else seen
    out = []
    for v in values:
        if id(v) in seen:
            continue
        if isinstance(v, tile_class.Instance):
            seen.add(id(v))
            out += [c for _, c in cells(v.cls, v)]
            if depth > 1:
                out += reachable(list(v.attrs.values()), depth - 1, seen)
        elif isinstance(v, tile_class.ClassValue):
            seen.add(id(v))
            out += [c for _, c in cells(v, tile_class.Instance(v))]
            if depth > 1:
                out += reachable([x for c in v.mro() for x in c.attrs.values()
                                  if isinstance(x, tile_class.Instance)], depth - 1, seen)
    return out


def enter_run(cls, inst, entry: str) -> None:
    """Before the driver's per-tile `run`: each cell's value is the first tile's only (module docstring)."""
    import kernel_env
    if entry != "run":
        return
    for name, cell in cells(cls, inst):
        v = cell.value
        if isinstance(v, kernel_env.Unresolved):
            continue
        why = (f"{cls.name}.{name}: a register scalar the tile's methods store into; the driver calls {entry} once "
               f"per tile in its scheduler loop, so the value stored at line {cell.set_line} holds at {entry}'s "
               "entry on the CTA's first tile only")
        if kernel_env.convention_on():
            kernel_env.note_convention(why + " (the first tile's)", cell.set_line, v if isinstance(
                v, (int, float, bool, str)) else ast.unparse(v) if isinstance(v, ast.AST) else str(v))
        else:
            cell.lose(cell.set_line, why + "; --instance none: not bound")
