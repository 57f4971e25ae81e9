"""The one use of PyTorch a kernel's configuration makes that is a fixed fact: an element size.

    torch.empty(SHAPE, dtype=torch.D).element_size()     the bytes of one D element

(tf32_hc_prenorm_gemm's config class at 92240d6, lines 74-143: shared-memory stage sizes and the
swizzle mode are block sizes times `torch.empty((), dtype=torch.float32).element_size()`.)
`Tensor.element_size()` is the size in bytes of one element of the tensor's dtype (PyTorch's
documentation of torch.Tensor.element_size); it depends on nothing but the dtype, so the tensor
is never built.  The dtypes known are PyTorch's fixed-size ones below (torch.float32 is 4 bytes,
...: the sizes of the IEEE / bfloat16 / integer formats they name).  Anything else of torch (a
device query, a random tensor, a dtype not listed) stays unresolved, as every name imported from
a module the extraction does not read.
"""
from __future__ import annotations

import ast

from corpus_notation import dotted
from kernel_env import Imported, Unresolved, UnresolvedError

NOT_HANDLED = object()
ELEMENT_BYTES = {"float32": 4, "float": 4, "float16": 2, "half": 2, "bfloat16": 2, "float64": 8, "double": 8,
                 "int8": 1, "uint8": 1, "int16": 2, "short": 2, "int32": 4, "int": 4, "int64": 8, "long": 8,
                 "bool": 1, "float8_e4m3fn": 1, "float8_e5m2": 1, "uint16": 2, "uint32": 4, "uint64": 8}


def _torch_name(ev, node) -> str | None:
    """The name `node` binds when it is the torch module (`import torch` / `import torch as th`)."""
    if not isinstance(node, ast.Name):
        return None
    v = ev.env.get(node.id)
    if isinstance(v, Imported) and v.module == "torch":
        return node.id
    return None


def eval_call(ev, node: ast.Call):
    """torch.empty(shape, dtype=torch.D).element_size() -> the bytes of D; NOT_HANDLED otherwise."""
    f = node.func
    if not (isinstance(f, ast.Attribute) and f.attr == "element_size" and not node.args and not node.keywords):
        return NOT_HANDLED
    inner = f.value
    if not (isinstance(inner, ast.Call) and isinstance(inner.func, ast.Attribute) and
            inner.func.attr in ("empty", "zeros", "ones") and _torch_name(ev, inner.func.value) is not None):
        return NOT_HANDLED
    dts = [k.value for k in inner.keywords if k.arg == "dtype"]
    if len(dts) != 1 or len(inner.args) != 1:
        raise UnresolvedError(Unresolved(ast.unparse(node), node.lineno, "a torch tensor without one dtype= "
                                         "(its element size is not fixed by the source)"))
    d = dotted(dts[0]) or ""
    head, _, name = d.partition(".")
    if _torch_name(ev, ast.Name(id=head)) is None or name not in ELEMENT_BYTES:
        raise UnresolvedError(Unresolved(ast.unparse(node), node.lineno, f"the element size of {d or '?'} (not a "
                                         "torch dtype the extraction knows)"))
    return ELEMENT_BYTES[name]
