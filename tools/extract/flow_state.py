"""State across helper calls, loops and branches: the forms kernel_walk.py defers to here.

* `x = T.local_scalar(dtype)` / `T.alloc_scalar(dtype, scope="local")` with no value: a one-element
  local buffer (apache/tvm 5d4dc87 python/tvm/tirx/script/builder/ir.py:2057-2095, alloc_scalar:
  shape (1,), `buf[0]` bound to the name).  A later `x = expr` anywhere the name resolves to it --
  also inside an `@T.inline` body, which resolves names in the defining scope's frames -- is a
  store into that buffer, not a new binding (parser.py:617-650, visit_assign: a name whose value is
  a scalar BufferLoad of a (1,)-shaped buffer is stored through).  So it is a declared TIR scalar
  (tvm_classes.TirLocal): it holds the value of the last store the walk followed exactly on the
  path walked (definite assignment in program order), and is unresolved before the first store,
  after a store under an undecided condition or in a loop the walk does not unroll, and for warps
  other than those that stored it.
* A helper called through a parameter (`def loop(body): ... body(False, ks)` called as
  `loop(tma_load)`): the function walked is the argument's; it counts as called under its own name
  (before, only the parameter's name was recorded, and the helper was walked a second time on its
  own with every parameter unresolved).
"""
from __future__ import annotations

import ast

from corpus_notation import dotted

SCALAR_DECLS = {"local_scalar": "local", "alloc_scalar": None}
TIR_PREFIXES = ("T.", "Tx.", "tirx.", "tvm.tirx.")


def scalar_declaration(call) -> bool:
    """True when `call` is `T.local_scalar(dtype)` or `T.alloc_scalar(dtype, scope="local")`: a
    register scalar declared without a value (neither builder takes one)."""
    if not isinstance(call, ast.Call):
        return False
    name = dotted(call.func) or ""
    short = name.split(".")[-1]
    if short not in SCALAR_DECLS or not name.startswith(TIR_PREFIXES):
        return False
    if len(call.args) > (1 if short == "local_scalar" else 2):
        return False
    kw = {k.arg for k in call.keywords}
    if short == "local_scalar":
        return kw <= {"dtype"}
    scope = next((k.value for k in call.keywords if k.arg == "scope"), call.args[1] if len(call.args) > 1 else None)
    return kw <= {"dtype", "scope"} and isinstance(scope, ast.Constant) and scope.value == "local"


def callee_names(call, fv) -> set:
    """The names under which a helper call counts as called: the name written at the call and the
    name of the function definition it reaches (a parameter bound to a nested def)."""
    out = {ast.unparse(call.func)}
    name = getattr(getattr(fv, "node", None), "name", None)
    if name:
        out.add(name)
    return out
