"""TVM's printed form of a `T.ptx` instruction, read as the instruction it prints.

TVMScript prints a `T.ptx` call as the family and its operands followed by the modifier tokens
as trailing string arguments, in the entry's slot order ("" for a slot left out), and a last
string, the marker (apache/tvm 5d4dc87 python/tvm/backend/cuda/ptx/engine.py:31-37 and
`_InstrChain.__call__`, 759-790):

    T.ptx.cp(dst, tmap, c0, c1, bar, hint, "async", "bulk", "tensor", "2d", "shared::cluster",
             "global", "", "mbarrier::complete_tx::bytes", "", "cta_group::2", "L2::cache_hint", "")

is `cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.cta_group::2.
L2::cache_hint` with the six operands.  The marker is a comma list of flags: "pred" (the last
operand is the guard predicate), "pN" (operand N is a predicate register, `T.ptx.pred(x)`),
"keep" (the destination is preserved: no change to what moves), "sN" (a sunk lane: an operand
the printed text does not carry).  normalize() rewrites such a call into the string form
`T.ptx["TEXT"](operands...)` the op handlers read (op_sites._ptx_text), with "pN" operands
wrapped in `T.ptx.pred(...)` and a "pred" operand passed as `pred=`; a call with "sN" flags,
with no trailing strings, or in the attribute-chain form (`T.ptx.ld.shared.b32(...)`) is
returned unchanged.
"""
from __future__ import annotations

import ast

from corpus_notation import dotted

PREFIXES = ("T.ptx.", "Tx.ptx.", "K.ptx.", "Kern.ptx.")


def normalize(call: ast.Call) -> ast.Call:
    d = dotted(call.func) or ""
    if not d.startswith(PREFIXES):
        return call
    ns, family = d.rsplit(".", 1)
    if not ns.endswith(".ptx") or not family or family in ("pred", "addr"):
        return call
    k = len(call.args)
    while k > 0 and isinstance(call.args[k - 1], ast.Constant) and isinstance(call.args[k - 1].value, str):
        k -= 1
    trailing = [a.value for a in call.args[k:]]
    if not trailing or any(isinstance(a, ast.Starred) for a in call.args[:k]):
        return call
    *tokens, marker = trailing
    flags = [f for f in marker.split(",") if f] if marker else []
    if any(f.startswith("s") for f in flags):
        return call
    operands = list(call.args[:k])
    keywords = list(call.keywords)
    for f in flags:
        if f.startswith("p") and f != "pred":
            try:
                i = int(f[1:])
            except ValueError:
                return call
            if not 0 <= i < len(operands):
                return call
            pred = ast.Attribute(value=_dotted_node(ns), attr="pred", ctx=ast.Load())
            operands[i] = ast.copy_location(ast.Call(func=pred, args=[operands[i]], keywords=[]), operands[i])
        elif f not in ("pred", "keep"):
            return call
    if "pred" in flags:
        if not operands or any(kw.arg == "pred" for kw in keywords):
            return call
        keywords.append(ast.keyword(arg="pred", value=operands.pop()))
    text = ".".join([family] + [t for t in tokens if t])
    head = _dotted_node(ns)
    func = ast.Subscript(value=head, slice=ast.Constant(text), ctx=ast.Load())
    out = ast.Call(func=func, args=operands, keywords=keywords)
    ast.copy_location(out, call)
    ast.fix_missing_locations(out)
    out._source = getattr(call, "_source", call)  # origins keep the text the source wrote
    return out


def _dotted_node(name: str):
    parts = name.split(".")
    node = ast.Name(id=parts[0], ctx=ast.Load())
    for p in parts[1:]:
        node = ast.Attribute(value=node, attr=p, ctx=ast.Load())
    return node


def expand_starred(call: ast.Call, env: dict) -> ast.Call:
    """`T.ptx[...](a, *coords, p)` with `coords` a sequence the source fixes: the same call with
    `coords[0], coords[1], ...` in its place, so the operand handlers count and read each
    operand (Python's call semantics: a starred argument is its elements, in order).  A
    starred value the source does not fix is left as written (the handler then names the
    operand count it sees); one that depends on a value the source does not fix raises that
    UnresolvedError (the op is unresolved for that reason)."""
    if not any(isinstance(a, ast.Starred) for a in call.args):
        return call
    from kernel_env import ConvertError, Evaluator, UnresolvedError
    args = []
    for a in call.args:
        if not isinstance(a, ast.Starred):
            args.append(a)
            continue
        try:
            v = Evaluator(env).value(a.value)
        except UnresolvedError:
            raise  # the operands depend on what the source does not fix: that is the reason to name
        except ConvertError:
            return call
        if not isinstance(v, (tuple, list)) or len(v) > 64:
            return call
        for i in range(len(v)):
            sub = ast.Subscript(value=a.value, slice=ast.Constant(i), ctx=ast.Load())
            args.append(ast.copy_location(sub, a))
    out = ast.Call(func=call.func, args=args, keywords=call.keywords)
    ast.copy_location(out, call)
    ast.fix_missing_locations(out)
    out._source = getattr(call, "_source", call)
    return out
