"""TVMScript name scoping for the statement walk (kernel_walk.py).

A function that TVM's TVMScript parser reads (decorated @T.prim_func, @T.jit, @T.macro,
@T.inline, and the undecorated defs nested in one) does not follow Python's scoping: the
parser keeps a stack of variable frames and opens one for

  * every `for` loop body, `range(...)` included (apache/tvm 5d4dc87
    python/tvm/tirx/script/parser/parser.py:490-506 turns `range` into `T.serial`; the frame
    is opened at 515),
  * every `while` body (parser.py:533),
  * every `with` statement (parser.py:809, the frame enters before the context expressions),
  * each branch of an `if` whose test is a TIR expression (a runtime value; parser.py:1041-1049).
    An `if` whose test is a Python bool opens no frame: the taken branch's bindings stay
    (parser.py:1050-1055).

Closing a frame pops every name bound in it (python/tvm/script/parser/core/parser.py:303-305:
`pop_frame` pops each name's newest value), so after the statement a name re-bound in the body
has its value from before the statement again, and a name first bound in the body is not
defined.  A later use of such a name makes TVM reject the kernel (the name is undefined); the
extraction does the same: `OutOfScope` values raise `ScopeError` where an item needs them
(extract.py turns it into exit 2, check `extract.scope`, naming the line).

An `if` whose test the walk does not decide and cannot show to be a runtime value (it depends
on a Python value the walk does not know) may be either: the names its branches bind become
Unresolved after it, naming the two possibilities.

Functions executed as Python (module-level helpers without a TVMScript decorator, kern DSL
builders @K.kernel) keep Python's scoping: nothing here applies to them.
"""
from __future__ import annotations

import ast

from kernel_env import FuncValue, Unresolved

TIR_DECORATORS = {"prim_func", "jit", "macro", "inline"}
PY_DECORATORS = {"kernel"}  # kern DSL: a Python builder


class ScopeError(Exception):
    """A name used where TVMScript has dropped it (the kernel does not parse in TVM)."""

    def __init__(self, message: str, line: int | None):
        super().__init__(message)
        self.line = line


class OutOfScope(Unresolved):
    """A name whose binding a closed TVMScript frame dropped; `frame_line`/`what` name the frame."""

    def __init__(self, name: str, bound_line: int | None, frame_line: int, what: str):
        super().__init__(name, bound_line, f"bound inside the {what} at line {frame_line}, whose bindings TVMScript "
                         "drops at its end (the name is not defined after it)")
        self.frame_line, self.what = frame_line, what


EXPANDED_AT_CALLS = {"macro", "inline"}


def _decorator_names(fn: ast.FunctionDef) -> set:
    names = set()
    for d in fn.decorator_list:
        f = d.func if isinstance(d, ast.Call) else d
        if isinstance(f, ast.Attribute):
            names.add(f.attr)
        elif isinstance(f, ast.Name):
            names.add(f.id)
    return names


def expanded_at_calls(fn: ast.FunctionDef) -> bool:
    """True for an @T.inline / @T.macro def: TVMScript expands its body where it is called and
    nowhere else (apache/tvm 5d4dc87 python/tvm/tirx/script/parser/parser.py:913-951: a nested
    @T.inline def only binds a TIRInline to its name; entry.py:136-162: the body is parsed in
    TIRInline.__call__), so one that nothing calls emits no statement."""
    return bool(_decorator_names(fn) & EXPANDED_AT_CALLS)


def tvmscript_mode(fn: ast.FunctionDef, inherited: bool) -> bool:
    """True when TVM's TVMScript parser reads `fn`'s body (see the module docstring)."""
    names = _decorator_names(fn)
    if names & TIR_DECORATORS:
        return True
    if names & PY_DECORATORS:
        return False
    return inherited and not names


RUNTIME_MARKS = ("a runtime scalar parameter", "a thread index", "a runtime variable", "one elected lane",
                 "loop variable of the loop at line")


def runtime_test(u) -> bool:
    """True when the undecided value `u` is known to be a TIR (runtime) expression: it derives
    from a thread index, a runtime scalar parameter, a declared TIR variable or a TIR loop variable."""
    seen = 0
    while isinstance(u, Unresolved) and seen < 64:
        if u.thread or any(m in (u.reason or "") for m in RUNTIME_MARKS):
            return True
        u, seen = u.cause, seen + 1
    return False


def close_frame(env: dict, before: dict, frame_line: int, what: str) -> None:
    """Pop the names the frame bound: `env` (changed in place) gets back `before`'s bindings;
    a name first bound in the frame becomes OutOfScope."""
    inner = dict(env)
    for v in inner.values():  # a def made in the frame keeps seeing the frame's names
        if isinstance(v, FuncValue) and v.closure is env:
            v.closure = inner
    for k, v in inner.items():
        if k in before and before[k] is v:
            continue
        if k in before:
            env[k] = before[k]
        else:
            line = v.line if isinstance(v, Unresolved) else getattr(v, "line", None)
            env[k] = OutOfScope(k, line if isinstance(line, int) else frame_line, frame_line, what)


def check_use(u, line: int, file: str) -> None:
    """Raise ScopeError when the Unresolved `u` (something an item needs) is a dropped binding."""
    seen = 0
    while isinstance(u, Unresolved) and seen < 64:
        if isinstance(u, OutOfScope):
            raise ScopeError(f"{file}:{line}: {u.name!r} is used here, but it was bound at line {u.line} inside the "
                             f"{u.what} at line {u.frame_line}; TVMScript drops that binding at the end of the "
                             "statement (apache/tvm 5d4dc87 python/tvm/script/parser/core/parser.py:313-315), so "
                             "TVM rejects the kernel: the name is not defined here", line)
        u, seen = u.cause, seen + 1


def container_store(targets, value_node, env: dict, ev, line: int, tir: bool) -> bool:
    """`xs[i] = v` where xs is a Python list/dict (not a buffer).  In a TVMScript function the
    parser makes every subscript assignment a `T.buffer_store` (apache/tvm 5d4dc87
    python/tvm/tirx/script/parser/parser.py:605-616), which a Python container is not: the name
    becomes Unresolved saying so.  In Python-executed code the store is made as Python does.
    True when a target was such a store (the statement is handled)."""
    from kernel_env import ConvertError, _root_name, _store_item, eval_or_unresolved
    hit = [t for t in targets if isinstance(t, ast.Subscript) and
           isinstance(env.get(_root_name(t) or ""), (list, dict, tuple))]
    if not hit:
        return False
    for t in hit:
        root = _root_name(t)
        if tir:
            env[root] = Unresolved(root, line, f"item assignment {ast.unparse(t)[:60]} = ... at line {line}: TVMScript "
                                   "parses it as T.buffer_store into a Python container, which TVM rejects")
            continue
        try:
            v = eval_or_unresolved(ev, value_node, root, line)
            if isinstance(env[root], tuple):
                raise ConvertError("a tuple does not support item assignment")
            _store_item(t, v, ev, line)
        except ConvertError as e:
            env[root] = Unresolved(root, line, f"stored into at line {line} ({ast.unparse(t)[:60]}): {e}")
    return True


def scalar_declaration(st: ast.AnnAssign, env: dict, ev, ex, cond) -> bool:
    """`x: T.int32 = v` in a TVMScript function declares a mutable scalar buffer
    (T.local_scalar) and stores v into it (apache/tvm 5d4dc87 parser.py:776-794); a later
    `x = w` is a store into it (parser.py:636-648), not a new Python binding, so it survives
    the frames that drop bindings.  It becomes a tvm_classes.TirLocal holding v (lost when the
    declaration runs under an undecided condition).  `x: T.let[...] = v` stays an immutable
    binding (parser.py:758-772).  True when `st` was such a declaration."""
    del cond
    import tvm_classes
    from corpus_notation import dotted
    from kernel_env import TIR_SCALARS, eval_or_unresolved
    if st.value is None or not isinstance(st.target, ast.Name) or st.target.id in ex.overrides:
        return False
    ann = dotted(st.annotation) or ""
    head, _, tail = ann.rpartition(".")
    if head not in ("T", "Tx", "tirx") or tail not in TIR_SCALARS:
        return False
    name = st.target.id
    v = eval_or_unresolved(ev, st.value, name, st.lineno)
    if isinstance(v, Unresolved) and v.thread:
        v.expr = (st.value, dict(env))  # a thread-derived value: re-evaluated per warp (warps.py), as before
    import range_data
    range_data.keep(v, st.value, env)  # computed from runtime data: re-evaluable by a probe (range_data.py)
    cell = tvm_classes.TirLocal(name, st.lineno, ex.warps, v)
    cell.lane_depth = len(ex.lane_changes)
    env[name] = cell  # (under an undecided condition too: a use of x runs only where the declaration ran)
    return True


_MISSING = object()


def walk_undecided_branches(env: dict, walkers: list, line: int) -> None:
    """An `if` whose test the walk does not decide and cannot show to be a runtime value: TVM
    either opened a frame per branch (a runtime test) or ran one branch with no frame (a Python
    bool).  Each branch is walked from the same state; afterwards a name keeps a value only
    when every possibility agrees: a name first bound in one branch keeps that branch's value (a
    later use runs only where it is defined, i.e. where that branch ran), a name bound before and
    re-bound, or bound differently by both branches, becomes Unresolved."""
    before = dict(env)
    results = []
    for walk in walkers:
        env.clear()
        env.update(before)
        walk()
        inner = dict(env)
        for v in inner.values():
            if isinstance(v, FuncValue) and v.closure is env:
                v.closure = inner
        results.append(inner)
    env.clear()
    env.update(before)
    for k in set().union(*[set(r) for r in results]) if results else ():
        vals = [r.get(k, _MISSING) for r in results]
        if len(results) < 2:
            vals.append(before.get(k, _MISSING))  # no else: the test may be false
        if k in before:
            vals.append(before[k])  # a runtime test: the frame drops the binding
        known = [v for v in vals if v is not _MISSING]
        if all(v is known[0] for v in known):
            env[k] = known[0]
        else:
            env[k] = Unresolved(k, line, f"bound inside the if statement at line {line}, whose test the walk does not "
                                "decide: after it the name holds a branch's value (a Python-bool test) or its value "
                                "from before (a runtime test, whose frames TVMScript pops)")


def reads_tir_value(test, env: dict) -> bool:
    """The test reads a TIR value: a declared scalar (tvm_classes.TirLocal), a thread index, or
    an element of a model buffer (a buffer load) -- so TVMScript sees a TIR expression, not a
    Python bool, and opens frames for its branches."""
    import tvm_classes
    import warps
    from kernel_env import BufferRef
    for n in ast.walk(test):
        if isinstance(n, ast.Name):
            v = env.get(n.id)
            if isinstance(v, (tvm_classes.TirLocal, warps.ThreadIndex)):
                return True
        if isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and isinstance(env.get(n.value.id), BufferRef):
            return True
    return False
