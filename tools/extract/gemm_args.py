"""`Tx.gemm_async` arguments bound as TVM's signature binds them (op_sites._gemm).

apache/tvm 5d4dc87 python/tvm/tirx/script/builder/tirx.py:640-653:
    gemm_async(C, A, B, SFA=None, SFB=None, transA=False, transB=False, accum=False,
               workspace=None, dispatch=None, scope=None, **kwargs)
Positional arguments after C, A, B are SFA, SFB, transA, transB, accum, workspace, dispatch,
scope, in that order.  `bind` returns a copy of the call whose extra positional arguments are
keywords of those names; an argument equal to its default (SFA/SFB None, transA/transB False)
is dropped, so what is left is what the op is: a block-scaled or transposed MMA keeps SFA/SFB /
transA / transB, which the model's tile-level `gemm_async` does not express (op_sites lists
them as options not modelled, never a dense K-major MMA silently).  More positional arguments
than the signature has, or one given twice, is a TypeError in Python: refused.
"""
from __future__ import annotations

import ast

from kernel_env import ConvertError

POSITIONAL = ("SFA", "SFB", "transA", "transB", "accum", "workspace", "dispatch", "scope")
DEFAULTS = {"SFA": None, "SFB": None, "transA": False, "transB": False, "workspace": None, "dispatch": None,
            "scope": None}


def bind(call: ast.Call, ev) -> ast.Call:
    extra = call.args[3:]
    if len(extra) > len(POSITIONAL):
        raise ConvertError(f"gemm_async takes at most {3 + len(POSITIONAL)} positional arguments, "
                           f"{len(call.args)} given (a TypeError in Python)")
    kws = list(call.keywords)
    given = {k.arg for k in kws if k.arg}
    for name, node in zip(POSITIONAL, extra):
        if name in given:
            raise ConvertError(f"gemm_async got multiple values for argument {name!r} (a TypeError in Python)")
        kws.append(ast.keyword(arg=name, value=node))
    out = []
    for k in kws:
        if isinstance(k.value, ast.Constant) and k.arg in DEFAULTS and k.value.value is DEFAULTS[k.arg]:
            continue  # the default: the same op as without it
        if k.arg in ("transA", "transB"):
            try:
                if ev.value(k.value) is False:
                    continue
            except Exception:  # noqa: BLE001 - an undetermined flag stays (and blocks the op)
                pass
        if k.arg in ("SFA", "SFB"):
            raise ConvertError("a block-scaled gemm_async (SFA/SFB given), which the model format's tile-level "
                               "gemm_async does not express")
        out.append(k)
    new = ast.Call(func=call.func, args=list(call.args[:3]), keywords=out)
    return ast.copy_location(new, call)
