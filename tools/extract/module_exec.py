"""Module-level code of a kernel file evaluated as Python runs it (extract.module_env).

Plain `NAME = value` statements, function and class definitions and imports are bound by
module_env itself.  Every other module-level statement -- item stores (`CFG["bm"] = 32`),
augmented assignments, method calls that change a container (`CFG.update(bm=32)`,
`L.append(32)`), `for`/`while`/`if`, `del` -- runs through the straight-line evaluator that
helpers use (kernel_env.run_straight), in order, so a later use sees the value Python would
give it.  What that evaluator does not run (`try`, `with`, `match` bodies; an undecidable test)
leaves the names it assigns Unresolved, naming why.

Statements whose effect on the module's names the evaluation cannot follow make names
Unresolved instead of keeping a stale value:

  * `exec(...)`, `eval(...)`, `globals()`, `vars()`, `locals()`, `setattr(...)`,
    `delattr(...)`, `__dict__` anywhere in the statement: every module-level name bound so
    far (the statement may rebind any of them);
  * a call of a function of this file that declares `global X` (X) or stores into / calls a
    method of a module-level name it does not bind locally (that name): the call may change it.
"""
from __future__ import annotations

import ast

from kernel_env import ConvertError, FuncValue, Unresolved, _Return, assigned_in, run_straight

DYNAMIC = {"exec", "eval", "globals", "vars", "locals", "setattr", "delattr", "__import__"}
SKIP = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _nodes(st):
    """The nodes of a module-level statement, not descending into nested defs, classes, lambdas."""
    stack = [st]
    while stack:
        n = stack.pop()
        yield n
        for c in ast.iter_child_nodes(n):
            if not isinstance(c, SKIP):
                stack.append(c)


def _is_dynamic(nodes) -> bool:
    for n in nodes:
        if isinstance(n, ast.Name) and n.id in DYNAMIC:
            return True
        if isinstance(n, ast.Attribute) and n.attr == "__dict__":
            return True
    return False


def _changed_by_function(fn: ast.FunctionDef) -> tuple[set, bool]:
    """(module names `fn` may change, whether it changes names dynamically)."""
    local = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs}
    declared_global, touched = set(), set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Global):
            declared_global.update(n.names)
        elif isinstance(n, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.For, ast.With)):
            tg = n.targets if isinstance(n, ast.Assign) else [getattr(n, "target", None)]
            for t in tg:
                if t is None:
                    continue
                if isinstance(t, ast.Name):
                    local.add(t.id)
                elif isinstance(t, (ast.Subscript, ast.Attribute)):
                    r = _root(t)
                    if r:
                        touched.add(r)
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute):
            r = _root(n.func.value)
            if r:
                touched.add(r)
    dynamic = _is_dynamic(ast.walk(fn))
    return declared_global | (touched - local), dynamic


def _root(node):
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _poison(env: dict, names, line: int, why: str) -> None:
    for n in names:
        if n.startswith("__"):
            continue
        env[n] = Unresolved(n, line, why)


def run_statement(st, env: dict, ev) -> None:
    """Evaluate one module-level statement (see the module docstring) into `env`."""
    nodes = list(_nodes(st))
    if _is_dynamic(nodes):
        _poison(env, [n for n, v in env.items() if not isinstance(v, FuncValue)], st.lineno,
                f"the module's names may be changed dynamically at line {st.lineno} "
                f"({ast.unparse(st)[:80]}), which the static evaluation does not follow")
        return
    for n in nodes:  # calls of the file's own functions that change module names
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and isinstance(env.get(n.func.id), FuncValue):
            changed, dynamic = _changed_by_function(env[n.func.id].node)
            if dynamic:
                changed = {k for k, v in env.items() if not isinstance(v, FuncValue)}
            _poison(env, sorted(k for k in changed if k in env), st.lineno,
                    f"may be changed by the call of {n.func.id}() at line {st.lineno}, which the module-level "
                    "evaluation does not follow")
    if isinstance(st, ast.Delete):
        for t in st.targets:
            if isinstance(t, ast.Name):
                env.pop(t.id, None)
            else:
                r = _root(t)
                if r:
                    env[r] = Unresolved(r, st.lineno, f"changed by `del` at line {st.lineno}")
        return
    if isinstance(st, (ast.Global, ast.Nonlocal, ast.Pass)):
        return
    kind = {"Try": "try statement", "TryStar": "try statement", "With": "with statement",
            "AsyncWith": "with statement", "Match": "match statement"}.get(type(st).__name__)
    if kind is not None:  # not run: what it binds is not determined (extract.explain_undefined's wording)
        for n, _ in assigned_in([st]):
            env[n] = Unresolved(n, st.lineno, f"bound inside the {kind} at line {st.lineno}, which the extraction "
                                "does not run")
        for h in getattr(st, "handlers", []) or []:
            if h.name:
                env[h.name] = Unresolved(h.name, st.lineno, f"bound inside the {kind} at line {st.lineno}, which "
                                         "the extraction does not run")
        return
    try:
        run_straight([st], env, ev)
    except (ConvertError, _Return) as e:
        for n, line in assigned_in([st]):
            env[n] = Unresolved(n, line, f"module-level code at line {st.lineno} was not evaluated statically: {e}")
        for t in getattr(st, "targets", []) or []:
            r = _root(t)
            if r and not isinstance(t, ast.Name):
                env[r] = Unresolved(r, st.lineno, f"stored into at line {st.lineno}, which the static evaluation "
                                    f"does not follow: {e}")
