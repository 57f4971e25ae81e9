"""Names after a sampled `T.serial` loop.

A `T.serial` loop is walked for its first `--serial-iterations` iterations only (kernel_walk.
loop_values).  After such a loop the real kernel holds what the LAST iteration left, which the walk
did not see, so a name assigned in the loop body cannot keep the value of the walked iterations
(before this rule it did: a silent first-iteration value).  `after_sampled_loop` makes every such
name unresolved, except when its value is the same in every iteration:

  * the loop body's assignments to it are all plain `NAME = expr` / `NAME: T = expr` whose `expr`
    contains no call and no name that the body assigns (or the loop variable), so each iteration
    computes the same value; or
  * the value is an allocation (a model buffer, a register array, a pool, a layout): "an allocation
    met again in a later iteration is the same buffer" (one storage in TIRx).

The loop variable itself is not visible after a TIR loop; it is unresolved too.  State objects
(PipelineState, declared TIR scalars) have their own rule (tvm_classes.py, the state log).
"""
from __future__ import annotations

import ast


def _targets(node) -> list[str]:
    from kernel_walk import names_of
    if isinstance(node, (ast.Assign,)):
        return [n for t in node.targets for n in names_of(t)]
    if isinstance(node, (ast.AnnAssign, ast.AugAssign)):
        return names_of(node.target)
    if isinstance(node, (ast.For, ast.AsyncFor)):
        return names_of(node.target)
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return [n for it in node.items if it.optional_vars is not None for n in names_of(it.optional_vars)]
    if isinstance(node, ast.NamedExpr):
        return names_of(node.target)
    return []


def assigned_names(body: list) -> dict:
    """name -> list of the assignment nodes in the loop body (nested defs excluded)."""
    out: dict = {}

    def walk(n):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            return
        for name in _targets(n):
            out.setdefault(name, []).append(n)
        for c in ast.iter_child_nodes(n):
            walk(c)
    for st in body:
        walk(st)
    return out


def _invariant(nodes, assigned: set) -> bool:
    for n in nodes:
        if not isinstance(n, (ast.Assign, ast.AnnAssign)) or n.value is None:
            return False
        for sub in ast.walk(n.value):
            if isinstance(sub, ast.Call):
                return False
            if isinstance(sub, ast.Name) and sub.id in assigned:
                return False
    return True


def after_sampled_loop(st, env: dict, sampled: dict, keep_types: tuple) -> None:
    """Apply the rule above to `env` after the sampled loop `st` (sampled: its sampled_loops entry)."""
    from kernel_env import Unresolved
    from kernel_walk import names_of
    assigned = assigned_names(st.body)
    loop_vars = set(names_of(st.target))
    names = set(assigned) | loop_vars
    why = (f"assigned in the T.serial loop at line {st.lineno}, of which the walk takes "
           f"{len(sampled['walked'])} of {sampled['iterations']} iterations: after the loop it holds the last "
           "iteration's value, which the walk did not see")
    for n in sorted(names):
        v = env.get(n)
        if n in loop_vars:
            env[n] = Unresolved(n, st.lineno, f"the variable of the T.serial loop at line {st.lineno} (not "
                                "defined after the loop)")
            continue
        if v is None or isinstance(v, keep_types) or isinstance(v, Unresolved):
            continue
        if _invariant(assigned[n], names):
            continue
        env[n] = Unresolved(n, st.lineno, why)
