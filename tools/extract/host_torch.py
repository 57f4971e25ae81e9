"""A small, exact model of the host objects a kernel file's launch code builds: torch tensors
(shape, dtype, strides, storage offset; never values), their data pointers, ctypes holders,
host storage classes of the file, and TVM's `runtime.cuTensorMapEncodeTiled` encoder.

What is modelled (docs/extract.md "Launch-time values"):

    torch.empty/zeros/ones/randn/rand/full/arange(...)   a contiguous tensor of that shape and dtype
    torch.*_like(t, dtype=...)                            t's shape, contiguous
    t.to(dtype) .bfloat16() .half() .float() ...          the same shape, another dtype, contiguous
    t.view(shape) / t.view(dtype) / t.reshape(shape)      torch's view rules on contiguous storage
    t.contiguous() .t() .transpose(a, b) .unsqueeze(d)    strides as torch computes them
    t[a:b, ...] (constant bounds)                         a strided view, its storage offset moved
    t.shape .size() .stride() .element_size() .dtype      the numbers above
    t.data_ptr(), ctypes.c_void_p(int(p))                 a HostPtr: (tensor, byte offset)
    t op number, t op t (same shape)                      a contiguous tensor of that shape

Anything that reads tensor *values* (`.item()`, `.max()`, `.tolist()`, `torch.equal`) raises
UnresolvedError naming it: a value-dependent size stays unresolved, never guessed.  The device is
the launch's: `torch.cuda.is_available()` is True on the path that reaches a launch (a launch
needs a CUDA device), `get_device_capability()` is the target's (sm_100a: (10, 0)),
`get_device_properties(...).multi_processor_count` the target's SM count (target_facts.py);
every such answer is recorded as an instance binding.
"""

import ast
import math

from corpus_notation import ConvertError, dotted
from host_maps import (HostEncoder, HostMap, HostSlot, HostStorage, HostStorageClass, is_effect,  # noqa: F401
                       run_effect, storage_class)

NOT_HANDLED = object()

# torch dtype attribute -> TIRx dtype string (torch's dtype names; aliases per torch's documented
# table of dtypes: torch.float = float32, torch.half = float16, torch.long = int64, ...)
TORCH_DTYPES = {
    "float32": "float32", "float": "float32", "float16": "float16", "half": "float16", "bfloat16": "bfloat16",
    "float64": "float64", "double": "float64", "int8": "int8", "int16": "int16", "short": "int16",
    "int32": "int32", "int": "int32", "int64": "int64", "long": "int64", "uint8": "uint8", "uint16": "uint16",
    "uint32": "uint32", "uint64": "uint64", "bool": "bool", "float8_e4m3fn": "float8_e4m3fn",
    "float8_e5m2": "float8_e5m2", "float8_e8m0fnu": "float8_e8m0fnu", "float4_e2m1fn_x2": "float4_e2m1fn_x2",
}
ITEMSIZE = {"float32": 4, "float16": 2, "bfloat16": 2, "float64": 8, "int8": 1, "int16": 2, "int32": 4, "int64": 8,
            "uint8": 1, "uint16": 2, "uint32": 4, "uint64": 8, "bool": 1, "float8_e4m3fn": 1, "float8_e5m2": 1,
            "float8_e8m0fnu": 1, "float4_e2m1fn_x2": 1}
CAST_METHODS = {"bfloat16": "bfloat16", "half": "float16", "float": "float32", "double": "float64",
                "int": "int32", "long": "int64", "short": "int16", "bool": "bool", "byte": "uint8", "char": "int8"}
FACTORIES = ("empty", "zeros", "ones", "randn", "rand", "full", "randint")
LIKE = ("empty_like", "zeros_like", "ones_like", "randn_like", "rand_like", "full_like")
VALUE_METHODS = ("item", "max", "min", "sum", "mean", "tolist", "numpy", "cpu", "any", "all", "argmax", "nonzero",
                 "abs", "cumsum", "sort", "topk", "unique")
MAX_ELEMENTS = 1 << 48


class HostDType:
    def __init__(self, name: str):
        self.name = name

    def __eq__(self, o):
        return isinstance(o, HostDType) and o.name == self.name

    def __hash__(self):
        return hash(("dtype", self.name))

    def __repr__(self):
        return f"torch.{self.name}"

    @property
    def itemsize(self):
        return ITEMSIZE[self.name]


def _contig(shape) -> tuple:
    out, acc = [], 1
    for e in reversed(shape):
        out.append(acc)
        acc *= e
    return tuple(reversed(out))


class HostTensor:
    """A torch tensor as shape / dtype / strides (elements) / storage offset (elements) of one
    storage; `name` is the variable its creating statement assigns, `line` that statement."""

    def __init__(self, shape, dtype: str, strides=None, offset: int = 0, name: str | None = None,
                 line: int | None = None, storage=None):
        shape = tuple(int(e) for e in shape)
        if any(e < 0 for e in shape):
            raise ConvertError(f"a tensor of negative size {shape} (a RuntimeError in torch)")
        if math.prod(shape) > MAX_ELEMENTS:
            raise ConvertError(f"a tensor of {math.prod(shape)} elements is not modelled")
        if dtype not in ITEMSIZE:
            raise ConvertError(f"torch dtype {dtype} is not modelled")
        self.shape, self.dtype = shape, dtype
        self.strides = tuple(strides) if strides is not None else _contig(shape)
        self.offset, self.name, self.line = offset, name, line
        self.storage = storage if storage is not None else self  # tensors sharing memory share it

    def __repr__(self):
        return f"tensor{list(self.shape)}:{self.dtype}"

    def is_contiguous(self) -> bool:
        return all(st == c for e, st, c in zip(self.shape, self.strides, _contig(self.shape)) if e != 1)

    def like(self, shape=None, dtype=None):
        return HostTensor(self.shape if shape is None else shape, dtype or self.dtype, name=self.name,
                          line=self.line)

    def view_of(self, shape, strides, offset=None, dtype=None):
        return HostTensor(shape, dtype or self.dtype, strides, self.offset if offset is None else offset,
                          self.name, self.line, self.storage)

    # -- arithmetic: a new tensor of the same shape (values are not modelled) ---------------
    def _arith(self, other, true_div=False):
        if isinstance(other, HostTensor):
            if other.shape != self.shape:
                raise ConvertError(f"elementwise op of tensors {list(self.shape)} and {list(other.shape)} "
                                   "(broadcasting is not modelled)")
            dt = self.dtype if ITEMSIZE[self.dtype] >= ITEMSIZE[other.dtype] else other.dtype
        elif isinstance(other, (int, float)) and not isinstance(other, bool):
            dt = self.dtype
            if self.dtype.startswith(("int", "uint", "bool")) and (true_div or isinstance(other, float)):
                dt = "float32"  # torch's type promotion: an integer tensor with a float is float32
        else:
            raise ConvertError(f"arithmetic of a tensor with {type(other).__name__}")
        return HostTensor(self.shape, dt, name=self.name, line=self.line)

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __floordiv__ = lambda s, o: s._arith(o)
    __truediv__ = __rtruediv__ = lambda s, o: s._arith(o, True)

    def __bool__(self):
        raise ConvertError("the truth value of a tensor depends on its data")

    def __len__(self):
        if not self.shape:
            raise ConvertError("len() of a 0-d tensor")
        return self.shape[0]

    def __getitem__(self, idx):
        if not isinstance(idx, tuple):
            idx = (idx,)
        shape, strides, off, d = [], [], self.offset, 0
        for ix in idx:
            if ix is Ellipsis:
                raise ConvertError("an Ellipsis index is not modelled")
            if ix is None:
                shape.append(1)
                strides.append(0)
                continue
            if d >= len(self.shape):
                raise ConvertError(f"too many indices for a tensor of {len(self.shape)} dimensions")
            n, st = self.shape[d], self.strides[d]
            if isinstance(ix, slice):
                lo, hi, step = ix.indices(n)
                if step <= 0:
                    raise ConvertError("a slice step must be positive (torch)")
                cnt = max(0, (hi - lo + step - 1) // step)
                shape.append(cnt)
                strides.append(st * step)
                off += lo * st
            elif isinstance(ix, int) and not isinstance(ix, bool):
                if not -n <= ix < n:
                    raise ConvertError(f"index {ix} is out of bounds for dimension {d} of size {n}")
                off += (ix % n) * st
            else:
                raise ConvertError(f"a tensor index {ix!r} (only integers and slices are modelled)")
            d += 1
        shape += self.shape[d:]
        strides += self.strides[d:]
        return self.view_of(tuple(shape), tuple(strides), off)

    # -- methods and attributes ------------------------------------------------------------
    def attr(self, name: str, node):
        if name == "shape":
            return tuple(self.shape)
        if name == "dtype":
            return HostDType(self.dtype)
        if name == "ndim":
            return len(self.shape)
        if name == "device":
            return HostDevice("cuda")
        if name == "is_cuda":
            return True
        if name == "T" and len(self.shape) == 2:
            return self.transpose(0, 1)
        if name in CAST_METHODS:
            return lambda: self.like(dtype=CAST_METHODS[name])
        if name in VALUE_METHODS:
            raise _unresolved(f"{ast.unparse(node)}", node, f"{name}() reads the tensor's values, which the "
                              "extraction does not model (only shapes, dtypes and strides)")
        m = getattr(self, "m_" + name, None)
        if m is None:
            raise ConvertError(f"tensor attribute {name!r} is not modelled")
        return m

    def m_size(self, d=None):
        return tuple(self.shape) if d is None else self.shape[d]

    def m_stride(self, d=None):
        return tuple(self.strides) if d is None else self.strides[d]

    def m_element_size(self):
        return ITEMSIZE[self.dtype]

    def m_numel(self):
        return math.prod(self.shape)

    def m_dim(self):
        return len(self.shape)

    def m_data_ptr(self):
        return HostPtr(self, self.offset * ITEMSIZE[self.dtype])

    def m_is_contiguous(self):
        return self.is_contiguous()

    def m_contiguous(self):
        return self if self.is_contiguous() else self.like()

    def m_clone(self):
        return self.like()

    def m_to(self, *args, **kwargs):
        dt = kwargs.get("dtype")
        for a in args:
            if isinstance(a, HostDType):
                dt = a.name
            elif not isinstance(a, (str, HostDevice)):
                raise ConvertError(f"tensor.to({a!r}) is not modelled")
        if isinstance(dt, HostDType):
            dt = dt.name
        return self if dt is None or dt == self.dtype else self.like(dtype=dt)

    def m_cuda(self, *a, **k):
        return self

    def _shape_arg(self, args):
        shape = tuple(args[0]) if len(args) == 1 and isinstance(args[0], (tuple, list)) else tuple(args)
        if not all(isinstance(e, int) and not isinstance(e, bool) for e in shape):
            raise ConvertError(f"a shape {shape!r} that is not integers")
        n = math.prod(self.shape)
        if shape.count(-1) > 1:
            raise ConvertError("only one dimension can be inferred (a RuntimeError in torch)")
        if -1 in shape:
            rest = math.prod(e for e in shape if e != -1)
            if rest == 0 or n % rest:
                raise ConvertError(f"shape {list(shape)} is invalid for input of size {n}")
            shape = tuple(n // rest if e == -1 else e for e in shape)
        if math.prod(shape) != n:
            raise ConvertError(f"shape {list(shape)} is invalid for input of size {n} (a RuntimeError in torch)")
        return shape

    def m_view(self, *args):
        if len(args) == 1 and isinstance(args[0], HostDType):
            return self._view_dtype(args[0].name)
        shape = self._shape_arg(args)
        if not self.is_contiguous():
            raise ConvertError("view() of a non-contiguous tensor is not modelled")
        return self.view_of(shape, _contig(shape))

    def m_reshape(self, *args):
        shape = self._shape_arg(args)
        if self.is_contiguous():
            return self.view_of(shape, _contig(shape))
        return HostTensor(shape, self.dtype, name=self.name, line=self.line)  # a copy

    def _view_dtype(self, dt: str):
        # torch's Tensor.view(dtype): same bytes; the last dimension scales by the size ratio
        a, b = ITEMSIZE[self.dtype], ITEMSIZE[dt]
        if a == b:
            return self.view_of(self.shape, self.strides, dtype=dt)
        if not self.shape or self.strides[-1] != 1:
            raise ConvertError("view(dtype) of a tensor whose last dimension is not contiguous")
        last = self.shape[-1] * a
        if last % b or any(s * a % b for s in self.strides[:-1]) or self.offset * a % b:
            raise ConvertError(f"view({dt}) does not divide the last dimension (a RuntimeError in torch)")
        shape = self.shape[:-1] + (last // b,)
        strides = tuple(s * a // b for s in self.strides[:-1]) + (1,)
        return self.view_of(shape, strides, self.offset * a // b, dt)

    def m_t(self):
        if len(self.shape) > 2:
            raise ConvertError("t() of a tensor of more than 2 dimensions (a RuntimeError in torch)")
        return self.m_transpose(0, 1) if len(self.shape) == 2 else self

    def m_transpose(self, a, b):
        sh, st = list(self.shape), list(self.strides)
        sh[a], sh[b], st[a], st[b] = sh[b], sh[a], st[b], st[a]
        return self.view_of(tuple(sh), tuple(st))

    transpose = m_transpose

    def m_permute(self, *dims):
        dims = tuple(dims[0]) if len(dims) == 1 and isinstance(dims[0], (tuple, list)) else dims
        if sorted(d % len(self.shape) for d in dims) != list(range(len(self.shape))):
            raise ConvertError(f"permute{dims} is not a permutation")
        return self.view_of(tuple(self.shape[d] for d in dims), tuple(self.strides[d] for d in dims))

    def m_unsqueeze(self, d):
        n = len(self.shape) + 1
        d = d % n
        sh, st = list(self.shape), list(self.strides)
        inner = st[d] * sh[d] if d < len(sh) else 1
        sh.insert(d, 1)
        st.insert(d, inner)
        return self.view_of(tuple(sh), tuple(st))

    def m_fill_(self, *a):
        return self

    m_zero_ = m_normal_ = m_uniform_ = m_random_ = m_copy_ = m_fill_

    def span_bytes(self) -> int:
        """Bytes from the data pointer to one past the last element."""
        if 0 in self.shape:
            return 0
        return (sum((e - 1) * s for e, s in zip(self.shape, self.strides)) + 1) * ITEMSIZE[self.dtype]


class HostPtr:
    """A tensor's data pointer: the tensor and a byte offset into its storage."""

    def __init__(self, tensor: HostTensor, byte_offset: int):
        self.tensor, self.byte_offset = tensor, byte_offset

    def __add__(self, n):
        if isinstance(n, int) and not isinstance(n, bool):
            return HostPtr(self.tensor, self.byte_offset + n)
        raise ConvertError("pointer arithmetic with a non-integer")

    __radd__ = __add__

    def __int__(self):
        raise ConvertError("a device address is not a number the source fixes")


class HostDevice:
    def __init__(self, kind: str):
        self.type = kind

    def attr(self, name, node):
        if name == "type":
            return self.type
        if name == "index":
            return 0
        raise ConvertError(f"device attribute {name!r}")


class HostGenerator:
    def attr(self, name, node):
        if name in ("manual_seed", "seed"):
            return lambda *a, **k: self
        raise ConvertError(f"generator attribute {name!r}")


def _unresolved(name, node, why):
    from kernel_env import Unresolved, UnresolvedError
    return UnresolvedError(Unresolved(name, getattr(node, "lineno", None), why))


HOST_TYPES = (HostTensor, HostDevice, HostGenerator, HostStorage)


def _torch_head(ev, fname: str) -> str | None:
    """`torch.X.Y` -> "X.Y" when the name `torch` is the imported torch module."""
    from kernel_env import Imported
    head, _, rest = fname.partition(".")
    hv = ev.env.get(head)
    if rest and isinstance(hv, Imported) and hv.module == "torch" and hv.name == "torch":
        return rest
    return None


def _module_head(ev, fname: str, module: str) -> str | None:
    from kernel_env import Imported
    head, _, rest = fname.partition(".")
    hv = ev.env.get(head)
    if rest and isinstance(hv, Imported) and hv.module == module and hv.name == module:
        return rest
    if rest and module == "tvm" and head == "tvm" and head not in ev.env:
        return rest  # `import tvm` binds nothing here (tvm is a builder prefix, kernel_env.bind_imports)
    return None


def eval_attr(ev, node: ast.Attribute):
    """`torch.bfloat16` & co.; NOT_HANDLED for anything else."""
    d = dotted(node)
    if d is None:
        return NOT_HANDLED
    rest = _torch_head(ev, d)
    if rest is None:
        return NOT_HANDLED
    if rest in TORCH_DTYPES:
        return HostDType(TORCH_DTYPES[rest])
    return NOT_HANDLED


def _dtype_kw(kwargs, default="float32") -> str:
    dt = kwargs.get("dtype", default)
    if isinstance(dt, HostDType):
        return dt.name
    if dt is None:
        return default
    if "dtype" not in kwargs and isinstance(dt, str) and dt in ITEMSIZE:
        return dt  # the default: the like-tensor's dtype or torch's
    raise ConvertError(f"dtype={dt!r} is not a torch dtype")


def _shape_of(args) -> tuple:
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    if not all(isinstance(e, int) and not isinstance(e, bool) for e in args):
        raise ConvertError(f"a tensor shape {args!r} that is not integers")
    return tuple(args)


def _note(what, node, value):
    from kernel_env import note_convention
    note_convention(what, getattr(node, "lineno", None), value)


def eval_call(ev, node: ast.Call, fname: str):
    """Calls of the host model; NOT_HANDLED for everything else."""
    f = node.func
    rest = _torch_head(ev, fname) if fname else None
    if rest is not None:
        return _torch_call(ev, node, rest)
    raw = dotted(f) or ""  # (fname has TVM's prefix stripped)
    if raw:
        tv = _module_head(ev, raw, "tvm")
        if tv == "get_global_func" and len(node.args) == 1:
            name = ev.value(node.args[0])
            if name == "runtime.cuTensorMapEncodeTiled":
                return HostEncoder()
            return NOT_HANDLED
        ct = _module_head(ev, raw, "ctypes")
        if ct in ("c_void_p", "c_uint64", "c_int64") and len(node.args) == 1:
            v = ev.value(node.args[0])
            if isinstance(v, HostPtr) or isinstance(v, int) and not isinstance(v, bool):
                return v
            raise ConvertError(f"ctypes.{ct} of {type(v).__name__}")
    if isinstance(f, ast.Name) and f.id == "getattr" and "getattr" not in ev.env and len(node.args) == 2 and \
            not node.keywords:
        # getattr(torch, "bfloat16"): the torch dtype of that name (a torch attribute that is not a
        # dtype is not modelled)
        from kernel_env import Imported
        base = node.args[0]
        if isinstance(base, ast.Name) and isinstance(ev.env.get(base.id), Imported) and \
                ev.env[base.id].module == "torch" and ev.env[base.id].name == "torch":
            name = ev.value(node.args[1])
            if isinstance(name, str) and name in TORCH_DTYPES:
                return HostDType(TORCH_DTYPES[name])
            raise _unresolved(f"torch.{name}", node, f"torch.{name} is not part of the host model")
        return NOT_HANDLED
    if _memoizer(ev, f, raw) and len(node.args) == 1 and not node.keywords:
        # functools.cache(f) / lru_cache(...)(f): the same function (memoizing a function of the
        # file, whose result depends only on its arguments, changes no value)
        v = ev.value(node.args[0])
        from kernel_env import FuncValue
        if isinstance(v, FuncValue):
            return v
        return NOT_HANDLED
    if isinstance(f, ast.Name) and f.id == "int" and len(node.args) == 1 and not node.keywords and \
            "int" not in ev.env and isinstance(node.args[0], ast.Call) and \
            isinstance(node.args[0].func, ast.Attribute) and node.args[0].func.attr == "data_ptr":
        v = ev.value(node.args[0])
        if isinstance(v, HostPtr):
            return v  # int(t.data_ptr()): the address as a number, still the same place
        return int(v)
    if isinstance(f, ast.Name) and isinstance(ev.env.get(f.id), HostStorageClass) and not node.args:
        return HostStorage(ev.env[f.id], node.lineno)
    if isinstance(f, ast.Name) and isinstance(ev.env.get(f.id), HostEncoder):
        raise ConvertError("the tensor-map encoder returns no value (it is run as a statement)")
    if isinstance(f, ast.Attribute) and f.attr in VALUE_METHODS + ("bfloat16", "half", "float", "to", "view",
                                                                    "contiguous", "t", "transpose", "stride",
                                                                    "size", "element_size", "data_ptr", "numel",
                                                                    "dim", "reshape", "permute", "unsqueeze",
                                                                    "manual_seed", "clone", "cuda", "int", "long",
                                                                    "is_contiguous", "double"):
        head = dotted(f.value) or ""
        if head.split(".")[0] in ("T", "Tx", "K", "Kern", "tir", "tirx"):
            return NOT_HANDLED
        try:
            base = ev.value(f.value)
        except ConvertError:
            return NOT_HANDLED
        if not isinstance(base, (HostTensor, HostGenerator)):
            return NOT_HANDLED
        m = base.attr(f.attr, node)
        args, kwargs = ev.call_args(node)
        return m(*args, **kwargs)
    return NOT_HANDLED


def _memoizer(ev, f, raw: str) -> bool:
    from kernel_env import Imported
    if isinstance(f, ast.Call) and not f.args:  # lru_cache(maxsize=...)(fn)
        f = f.func
        raw = dotted(f) or ""
    if raw in ("functools.cache", "functools.lru_cache"):
        return isinstance(ev.env.get("functools"), Imported)
    if isinstance(f, ast.Name):
        v = ev.env.get(f.id)
        return isinstance(v, Imported) and v.module == "functools" and v.name in ("cache", "lru_cache")
    return False


def _torch_call(ev, node, rest: str):
    if rest.startswith("cuda.") or rest == "device":
        return _device_call(ev, node, rest)
    if rest == "Generator":
        return HostGenerator()
    if rest in FACTORIES or rest == "arange" or rest in LIKE or rest in ("empty_strided",):
        args, kwargs = ev.call_args(node)
        if rest in LIKE:
            if not args or not isinstance(args[0], HostTensor):
                raise ConvertError(f"torch.{rest} of a value that is not a tensor")
            return HostTensor(args[0].shape, _dtype_kw(kwargs, args[0].dtype), line=node.lineno,
                              name=assigned_name(node))
        if rest == "arange":
            nums = [a for a in args]
            if not all(isinstance(a, int) and not isinstance(a, bool) for a in nums) or not 1 <= len(nums) <= 3:
                raise ConvertError("torch.arange with bounds that are not integers")
            n = len(range(*nums))
            return HostTensor((n,), _dtype_kw(kwargs, "int64"), line=node.lineno, name=assigned_name(node))
        if rest == "full":
            shape = _shape_of(args[:1])
            fill = args[1] if len(args) > 1 else kwargs.get("fill_value")
            dflt = "int64" if isinstance(fill, int) and not isinstance(fill, bool) else "float32"
            return HostTensor(shape, _dtype_kw(kwargs, dflt), line=node.lineno, name=assigned_name(node))
        if rest == "randint":
            shape = kwargs.get("size", args[-1] if args else None)
            return HostTensor(_shape_of((shape,)), _dtype_kw(kwargs, "int64"), line=node.lineno,
                              name=assigned_name(node))
        if rest == "empty_strided":
            shape, strides = _shape_of(args[:1]), _shape_of(args[1:2])
            return HostTensor(shape, _dtype_kw(kwargs), strides, line=node.lineno, name=assigned_name(node))
        shape = _shape_of(args) if args else _shape_of((kwargs.get("size", ()),))
        return HostTensor(shape, _dtype_kw(kwargs), line=node.lineno, name=assigned_name(node))
    if rest in ("tensor", "as_tensor") and node.args:
        return _tensor_of(ev, node)
    if rest in TORCH_DTYPES:
        raise ConvertError(f"torch.{rest}(...) is not modelled")
    raise _unresolved(f"torch.{rest}", node, f"torch.{rest}(...) is not part of the host model (only tensor "
                      "creation, views and shape queries are)")


def _display_shape(n):
    """The shape of a nested list/tuple display (its elements not evaluated), or None."""
    if not isinstance(n, (ast.List, ast.Tuple)):
        return None
    if any(isinstance(e, ast.Starred) for e in n.elts):
        return None
    subs = [_display_shape(e) for e in n.elts]
    if not subs or all(x is None for x in subs) and not any(isinstance(e, (ast.List, ast.Tuple)) for e in n.elts):
        return (len(n.elts),)
    if any(x is None for x in subs) or len(set(subs)) != 1:
        return None
    return (len(n.elts),) + subs[0]


def _value_shape(v):
    if isinstance(v, HostTensor):
        return v.shape
    if isinstance(v, (list, tuple)):
        subs = [_value_shape(x) for x in v]
        if not subs:
            return (0,)
        if len(set(subs)) != 1:
            raise ConvertError("torch.tensor of a ragged sequence (a ValueError in torch)")
        return (len(v),) + subs[0]
    if isinstance(v, (int, float)):
        return ()
    raise ConvertError(f"torch.tensor of {type(v).__name__}")


def _tensor_of(ev, node):
    """torch.tensor(data, dtype=...): its shape from the data's nesting (a display's structure when
    its elements are not fixed: the values are not modelled), its dtype from dtype= (else from the
    elements: int64 for integers, float32 otherwise, as torch infers; that needs them fixed)."""
    kw = {k.arg: ev.value(k.value) for k in node.keywords if k.arg in ("dtype", "device")}
    shape = _display_shape(node.args[0])
    if shape is None or "dtype" not in kw:
        v = ev.value(node.args[0])
        shape = _value_shape(v)
        if "dtype" not in kw:
            flat = [v] if not isinstance(v, (list, tuple)) else list(_flatten(v))
            dt = "int64" if all(isinstance(x, int) and not isinstance(x, bool) for x in flat) else "float32"
            if isinstance(v, HostTensor):
                dt = v.dtype
            return HostTensor(shape, dt, line=node.lineno, name=assigned_name(node))
    return HostTensor(shape, _dtype_kw(kw), line=node.lineno, name=assigned_name(node))


def _flatten(v):
    for x in v:
        if isinstance(x, (list, tuple)):
            yield from _flatten(x)
        else:
            yield x


def _device_call(ev, node, rest):
    import kernel_env
    import target_facts
    target = kernel_env.SETTINGS.get("target") or "sm_100a"
    if rest == "device":
        args, _ = ev.call_args(node)
        v = args[0] if args else "cuda"
        if isinstance(v, HostDevice):
            return v
        if isinstance(v, str):
            return HostDevice(v.split(":")[0])
        raise ConvertError(f"torch.device({v!r})")
    if rest == "cuda.is_available":
        _note("torch.cuda.is_available() = True (the launch the extraction follows runs on a CUDA device)",
              node, True)
        return True
    if rest in ("cuda.current_device",):
        return 0
    if rest == "cuda.get_device_capability":
        import re
        m = re.fullmatch(r"sm_(\d+)(\d)[a-z]?", target)
        if m is None:
            raise _unresolved("torch.cuda.get_device_capability", node, f"the target {target} names no compute "
                              "capability")
        cap = (int(m.group(1)), int(m.group(2)))
        _note(f"torch.cuda.get_device_capability() = {cap} (target {target})", node, list(cap))
        return cap
    if rest == "cuda.get_device_properties":
        v, where = target_facts.device_fact(target, "sm_count")
        return DeviceProps(v, where, node)
    raise _unresolved(f"torch.{rest}", node, f"torch.{rest}(...) is a fact of the process's GPU state, not of "
                      "the source")


class DeviceProps:
    def __init__(self, sms, where, node):
        self.sms, self.where, self.node = sms, where, node

    def attr(self, name, node):
        if name == "multi_processor_count":
            if self.sms is None:
                raise _unresolved("multi_processor_count", node, f"a fact of the GPU ({self.where})")
            _note(f"torch.cuda.get_device_properties(...).multi_processor_count = {self.sms} ({self.where})",
                  node, self.sms)
            return self.sms
        raise _unresolved(f"device property {name}", node, "a property of the GPU the process runs on, other "
                          "than the SM count (which the target fixes)")


HOST_TYPES = HOST_TYPES + (DeviceProps,)

# -- names of host tensors: the variable the creating statement assigns ----------------------
ASSIGNS: dict = {}  # file label -> [(first line, last line, name)]


def register_tree(tree: ast.Module, file: str) -> None:
    spans = []
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            spans.append((n.lineno, n.end_lineno or n.lineno, n.targets[0].id))
    ASSIGNS[file] = spans
    ASSIGNS["_current"] = file


def assigned_name(node) -> str | None:
    spans = ASSIGNS.get(ASSIGNS.get("_current"), [])
    best = None
    for lo, hi, name in spans:
        if lo <= node.lineno <= hi and (best is None or hi - lo < best[1] - best[0]):
            best = (lo, hi, name)
    return best[2] if best else None


