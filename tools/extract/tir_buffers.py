"""`T.match_buffer(handle, shape, dtype, ...)`: a global buffer bound to a kernel's handle
parameter (docs/extract.md, "Names: builder namespace, match_buffer").

TVM's match_buffer (apache/tvm 5d4dc87 python/tvm/tirx/script/builder/ir.py:452-540) binds a
PrimFunc parameter that is a handle to a buffer of `shape` (a scalar shape is one dimension) and
`dtype` (default "float32") in `scope` (default "global"), with the compact row-major strides
unless `strides=` is given.  The extraction models exactly that case, as a `T.Buffer` parameter
(allocators.global_buffer): `strides=`, `elem_offset=`, `data=`, a layout other than the default,
or a buffer region as the first argument (a sub-region match inside a block) are refused,
naming what; a shape over runtime scalars (`seq_len: T.uint32`) is unresolved through them.

Python 3 standard library only.
"""
from __future__ import annotations

import ast

import allocators
from corpus_notation import dotted, strip_builder
from kernel_env import ConvertError, Unresolved, UnresolvedError

NOT_MATCH = object()
REFUSED_KEYWORDS = ("strides", "elem_offset", "data", "offset_factor")


def match_buffer(call, env, ev, ex, name: str | None, line: int):
    """The buffer of `name = T.match_buffer(...)`, an Unresolved when it is refused or not
    determined (listed in the extraction), or NOT_MATCH for any other call."""
    if not isinstance(call, ast.Call) or strip_builder(dotted(call.func) or "") != "match_buffer" or \
            not (dotted(call.func) or "").startswith(("T.", "Tx.", "tirx.")):
        return NOT_MATCH
    label = name or "match_buffer"
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    why = None
    if name is None:
        why = "a match_buffer not assigned to one name"
    elif not call.args or isinstance(call.args[0], (ast.Subscript, ast.Slice)):
        why = "a match of a buffer region (inside a block), not of a handle parameter"
    elif any(k in kw for k in REFUSED_KEYWORDS) or any(k.arg is None for k in call.keywords):
        why = f"match_buffer with {', '.join(k for k in REFUSED_KEYWORDS if k in kw) or '**'} (not modelled)"
    elif "layout" in kw and not (isinstance(kw["layout"], ast.Constant) and kw["layout"].value == "default"):
        why = "match_buffer with a layout= (not modelled)"
    elif len(call.args) > 3:
        why = "match_buffer with positional arguments past dtype (not modelled)"
    if why is not None:
        ex.block(f"buffer {label}", line, None, f"not extracted: {why}")
        return Unresolved(label, line, why)
    shape = call.args[1] if len(call.args) > 1 else kw.get("shape")
    if shape is None:
        ex.block(f"buffer {label}", line, None, "not extracted: match_buffer of a handle without a shape "
                 "(a ValueError in TVM)")
        return Unresolved(label, line, "match_buffer without a shape")
    if not isinstance(shape, (ast.Tuple, ast.List)):
        shape = ast.copy_location(ast.Tuple(elts=[shape], ctx=ast.Load()), shape)  # a scalar shape: 1-D
    dtype_node = call.args[2] if len(call.args) > 2 else kw.get("dtype")
    try:
        dims = allocators._int_tuple(ev, shape)
        dtype = allocators._dtype(ev, dtype_node) if dtype_node is not None else "float32"
        scope = ev.value(kw["scope"]) if "scope" in kw else "global"
        if scope not in allocators.SCOPES:
            raise ConvertError(f"scope {scope!r} is not one the model format knows")
        ref = allocators._emit(ex, name, scope, dims, dtype, allocators.row_major(dims), line, call)
        ref.start_bytes = 0  # the handle's data pointer is the buffer's first element (no elem_offset=)
        import host_launch  # the tensor the file's launch passes for this handle (host_launch.py)
        bad = host_launch.check_match(call.args[0], dims, dtype)
        if bad is not None:
            ex.block(f"buffer {name}", line, None, bad)
        return ref
    except UnresolvedError as e:
        ex.block(f"buffer {name}", line, e.item)
        return Unresolved(name, line, "match_buffer's shape or dtype is undecided", e.item)
    except (ConvertError, ArithmeticError, TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        ex.block(f"buffer {name}", line, None, f"not extracted: {e}")
        return Unresolved(name, line, f"match_buffer was not extracted ({e})")
