"""A helper's tuple-display return, element by element.

Host code unpacks what a helper of the file returns: `data, expected = _prepare(...)` where
`_prepare` ends in `return data, expected`.  Python builds that tuple whatever its elements are, so
unpacking it binds each name to its own element.  Evaluated as one value, the display fails as a
whole when one element is not determined (`expected` computed by a module that is not read), and
every name it binds is lost with it (flash_attention_backward's `data`, a record whose "causal"
entry fixes the kernel's `causal`).

So a call of a helper of the file whose **last statement returns a tuple (or list) display** is run
up to that return (its arguments bound lazily, as any helper call) and each element is evaluated on
its own: an element the source does not fix is that element's Unresolved ("element 1 of
_prepare(...)"), the others are their values (an element whose evaluation fails otherwise -- a
Python error there -- fails the whole call, as before).  Used by `a, b = helper(...)` in straight-line code when the display has as
many (non-starred) elements as the target (kernel_env.run_straight), and by a launch's
`*helper(...)` (host_launch._lazy_star).  A `return` the run reaches before the last statement is
the call's value, taken whole, as Python returns it.  Anything else (not a helper of the file, no
display at the end, a different count) is not this form: the caller evaluates the call as before.
"""
import ast


class NotThisForm(Exception):
    """The call is not a helper of the file ending in a tuple display (of the wanted length)."""


def display_of(ev, node, count: int | None = None):
    """(FuncValue, the final return's display) when `node` calls such a helper, else NotThisForm."""
    from kernel_env import FuncValue
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and
            isinstance(ev.env.get(node.func.id), FuncValue)):
        raise NotThisForm(f"{ast.unparse(node)[:60]}: not a call of a helper of the file")
    fv = ev.env[node.func.id]
    body = fv.node.body
    if not body or not isinstance(body[-1], ast.Return) or not isinstance(body[-1].value, (ast.Tuple, ast.List)):
        raise NotThisForm(f"*{ast.unparse(node)}: its helper does not end in a tuple display")
    ret = body[-1].value
    if any(isinstance(e, ast.Starred) for e in ret.elts):
        raise NotThisForm(f"*{ast.unparse(node)}: a starred element in its return")
    if count is not None and len(ret.elts) != count:
        raise NotThisForm(f"{node.func.id}(...) returns {len(ret.elts)} elements, not {count}")
    return fv, ret


class Whole(Exception):
    """The helper returned before its last statement: `value` is the call's value, whole."""

    def __init__(self, value):
        super().__init__("returned early")
        self.value = value


def elements(ev, node, fv, ret) -> list:
    """Run helper `fv` of call `node` up to its final return and evaluate each element of `ret` on its
    own: its value, or its Unresolved when the source does not fix it (any other failure of an
    element is Python's own error there and fails the call).  Raises Whole when a return before the last statement is reached; a
    ConvertError of the run itself (arguments, a statement) propagates as for any helper call."""
    from kernel_env import (MAX_CALL_DEPTH, ConvertError, Evaluator, Unresolved, UnresolvedError, _Return,
                            bind_arguments, run_straight)
    if ev.depth >= MAX_CALL_DEPTH:
        raise ConvertError(f"helper calls nest deeper than {MAX_CALL_DEPTH}")
    args, kwargs = ev.call_args(node, lazy=True)
    env = dict(fv.closure)
    bind_arguments(fv.node, args, kwargs, env, ev)
    sub = Evaluator(env, ev.depth + 1, ev.thread)
    try:
        run_straight(fv.node.body[:-1], env, sub)
    except _Return as r:
        raise Whole(r.value) from None
    out = []
    from kernel_env import LayoutExpr
    from kernel_walk import is_layout_expr
    for k, e in enumerate(ret.elts):
        if is_layout_expr(e):
            # a layout expression (`mma_shared_layout(dt, sw, shape)`) is read where it is used, with
            # the helper's own names (its env), as a layout assigned in a method is (tile_class.store)
            lay = LayoutExpr(e, e.lineno)
            lay.env = env
            out.append(lay)
            continue
        try:
            out.append(sub.value(e))
        except UnresolvedError as u:  # a value the source does not fix: this element only
            out.append(Unresolved(f"element {k} of {node.func.id}(...)", e.lineno, f"depends on {u.item.name}",
                                  u.item))
    return out  # (an element whose evaluation fails otherwise -- Python raises there -- fails the call)


def unpack(ev, target, node, line: int):
    """The value for `target` (a tuple / list of names, no starred element) of `target = node`:
    NotThisForm when `node` is not a call of a helper ending in a display of as many elements;
    else a list (one value or Unresolved per element), the call's whole value (an early return),
    or one Unresolved for every name (the run failed; eval_or_unresolved's reasons)."""
    from kernel_env import call_or_unresolved
    if not isinstance(target, (ast.Tuple, ast.List)) or any(isinstance(t, ast.Starred) for t in target.elts):
        raise NotThisForm("not a tuple target")
    fv, ret = display_of(ev, node, len(target.elts))
    name = "/".join(ast.unparse(t) for t in target.elts)

    def unpacked():
        try:
            return elements(ev, node, fv, ret)
        except Whole as w:
            return w.value

    return call_or_unresolved(unpacked, name, line)
