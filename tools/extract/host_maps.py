"""Tensor maps the host encodes: the places they are written to and TVM's encoder.

    class _AlignedTensorMap:                       a host storage class of the file (HostStorageClass):
        def __init__(self): self.ptr = ...         only `self.X = ...` stores; an instance is a place,
                                                   `holder.ptr` a HostSlot until an encoder fills it
    encode = tvm.get_global_func("runtime.cuTensorMapEncodeTiled")        a HostEncoder
    encode(holder.ptr, dtype, rank, ptr, dims.., strides.., box.., elem.., interleave, swizzle, l2, oob)
                                                   run as a statement: holder.ptr is now a HostMap

The argument order is the CUDA driver's cuTensorMapEncodeTiled (tensorMap, dataType, rank,
globalAddress, globalDim[rank], globalStrides[rank-1] in bytes, boxDim[rank], elementStrides[rank],
interleave, swizzle, l2Promotion, oobFill), as TVM's packed function takes it flattened (the same
order instr_ops.py reads for the in-kernel `call_packed` form).  host_launch.to_tensor_map turns a
HostMap into the model's tensor map.
"""

import ast

from corpus_notation import ConvertError


class HostStorageClass:
    """A plain class of the file whose only method is an `__init__` of `self.X = ...` stores
    (ctypes storage for a tensor-map payload): an instance is a place in host memory; its
    attributes are places (HostSlot) that an encoder call fills."""

    def __init__(self, st: ast.ClassDef):
        self.name, self.line = st.name, st.lineno
        init = next(b for b in st.body if isinstance(b, ast.FunctionDef))
        self.attrs = {t.attr for n in ast.walk(init) if isinstance(n, ast.Assign) for t in n.targets
                      if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"}

    def __call__(self, *args, **kwargs):
        if args or kwargs:
            raise ConvertError(f"{self.name}() takes no arguments")
        return HostStorage(self, self.line)


def storage_class(st: ast.ClassDef):
    """A HostStorageClass for `class X:` with no bases, one method `__init__(self)` (beyond a
    docstring) whose body only assigns; None otherwise."""
    if st.bases or st.keywords or st.decorator_list:
        return None
    body = [b for b in st.body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.FunctionDef) or body[0].name != "__init__":
        return None
    a = body[0].args
    if len(a.args) != 1 or a.vararg or a.kwarg or a.kwonlyargs:
        return None
    if not all(isinstance(s, ast.Assign) for s in body[0].body):
        return None
    return HostStorageClass(st)


class HostStorage:
    def __init__(self, cls: HostStorageClass, line: int):
        self.cls, self.line, self.filled = cls, line, {}

    def attr(self, name, node):
        if name not in self.cls.attrs:
            raise ConvertError(f"{self.cls.name} has no attribute {name!r}")
        return self.filled.get(name) or HostSlot(self, name)


class HostSlot:
    def __init__(self, obj: HostStorage, attr: str):
        self.obj, self.attr_name = obj, attr


class HostEncoder:
    """tvm.get_global_func("runtime.cuTensorMapEncodeTiled"): called as a statement, it fills its
    first argument's place with a HostMap."""


class HostMap:
    """A tensor map encoded on the host: the encoder's fields and the tensor its base points into."""

    def __init__(self, line, dtype, ptr, dims, strides, box, elem, interleave, swizzle, l2, oob):
        self.line, self.dtype, self.ptr = line, dtype, ptr
        self.dims, self.strides, self.box, self.elem = dims, strides, box, elem
        self.interleave, self.swizzle, self.l2, self.oob = interleave, swizzle, l2, oob


# -- the encoder as a statement ------------------------------------------------------------------

def is_effect(call: ast.Call, env: dict) -> bool:
    return isinstance(call.func, ast.Name) and isinstance(env.get(call.func.id), HostEncoder)


def run_effect(call: ast.Call, env: dict, ev) -> None:
    """Run `encode(place, dtype, rank, ptr, dims..., strides..., box..., elem..., interleave,
    swizzle, l2, oob)` (TVM's runtime.cuTensorMapEncodeTiled, the argument order of the CUDA
    driver's cuTensorMapEncodeTiled): the place its first argument names gets a HostMap, or an
    Unresolved saying why."""
    from kernel_env import Unresolved, UnresolvedError
    try:
        place = ev.value(call.args[0]) if call.args else None
    except ConvertError:
        place = None
    if not isinstance(place, HostSlot):
        return  # a place the model does not follow: the map is never read back either
    try:
        hm = _encode(call, ev)
    except UnresolvedError as e:
        hm = Unresolved(place.attr_name, call.lineno, f"the tensor map encoded at line {call.lineno} depends "
                        "on an unresolved value", e.item)
    except (ConvertError, ArithmeticError, TypeError, ValueError, IndexError, KeyError) as e:
        hm = Unresolved(place.attr_name, call.lineno, f"the tensor map encoded at line {call.lineno} is not "
                        f"modelled: {e}")
    place.obj.filled[place.attr_name] = hm


def _encode(call: ast.Call, ev) -> HostMap:
    args, kwargs = ev.call_args(call)
    if kwargs:
        raise ConvertError("keyword arguments to the encoder")
    if len(args) < 4:
        raise ConvertError("cuTensorMapEncodeTiled needs at least 4 arguments")
    dtype, rank, ptr = args[1], args[2], args[3]
    import host_torch  # (host_torch imports this module)
    if isinstance(dtype, host_torch.HostDType):
        dtype = dtype.name
    if not isinstance(dtype, str):
        raise ConvertError(f"the map's dtype {dtype!r} is not a dtype name")
    if not isinstance(rank, int) or not 1 <= rank <= 5:
        raise ConvertError(f"rank {rank!r} is not 1..5")
    want = 4 + rank * 4 - 1 + 4
    if len(args) not in (want, want + 1):
        raise ConvertError(f"{len(args)} arguments for a rank-{rank} map; the encoder takes {want} (or one more: "
                           "force_cu_dtype)")
    if not isinstance(ptr, host_torch.HostPtr):
        raise ConvertError("the map's global address is not a tensor's data pointer")
    ints = args[4:]
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in ints):
        raise ConvertError("the map's sizes are not integers the source fixes")
    dims = ints[0:rank]
    strides = ints[rank:2 * rank - 1]
    box = ints[2 * rank - 1:3 * rank - 1]
    elem = ints[3 * rank - 1:4 * rank - 1]
    interleave, swz, l2, oob = ints[4 * rank - 1:4 * rank + 3]
    if len(ints) > 4 * rank + 3 and ints[4 * rank + 3] != -1:
        raise ConvertError(f"force_cu_dtype {ints[4 * rank + 3]} is not modelled")
    return HostMap(call.lineno, dtype, ptr, dims, strides, box, elem, interleave, swz, l2, oob)
