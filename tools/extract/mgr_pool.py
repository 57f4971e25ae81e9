"""A driver's shared-memory manager evaluated from its own source, over TVM's SMEMPool
(docs/extract.md, "The driver's shared-memory manager").

The megakernel tile tasks allocate their shared buffers through the driver's manager object
(`self.A_smem = smem_manager.alloc(shape, dtype, layout=..., align=1024, method="exclusive")`;
spectrometerHBH 8721e86 megakernel/utils/base.py:98-196, `@T.meta_class class SmemManager`).  The
manager is a plain Python class (tile_class.ClassValue): its `__init__`, `set_tile` and `alloc`
run with the extraction's Python evaluator (kernel_env.run_straight), as Python runs them at trace
time.  What they call of TVM is the bump allocator `T.SMEMPool(ptr)` (apache/tvm 5d4dc87
python/tvm/backend/cuda/lang/alloc_pool.py:395-520, read for flow_pool.py), modelled here:

    member                                   semantics (alloc_pool.py)
    ---------------------------------------  ---------------------------------------------------
    T.SMEMPool(ptr=None)                      offset 0 (409-420); `ptr` is kept, not evaluated
    .offset                                   the current byte offset
    .alloc(shape, dtype="float32",            the offset rounded up to `align` when align > 0,
           strides=None, scope="shared.dyn",  the buffer declared there, then ceil(prod(shape) *
           align=0, layout="default")         bits / 8) bytes added (422-450)
    .move_base_to(offset)                     the offset set (473-476)
    .commit()                                 nothing

The buffer `alloc` declares is a model buffer (allocators._allocate, as for a pool's own
`alloc`), named after the tile's target (`self.A_smem` -> A_smem), so the manager's own
bookkeeping (`self.bufs[buf] = ...`, `buffer in self.bufs` in its waits) sees the very buffer
the tile uses.  Python identity the manager uses: `id(obj)` of an instance is an opaque token,
unique per object, that only formats and compares (any arithmetic on it is not evaluated);
`str(inst)` runs the class's `__str__` (Tile.__str__ formats that token); `str(C)` of a class is
`<class 'C'>`; `inst.__class__` and `C.__name__` are Python's.

The pool's offset is known from `T.SMEMPool()` or `move_base_to(n)` on; the manager is built by
the driver before *every* tile's `init` / `class_init` runs (base.py:655-659, 644-648), so on
entry to this tile's methods each pool's offset is what the driver's other tiles left: unknown
(`forget`), until a `move_base_to` (the manager's `set_tile`, base.py:263, for the regular pool)
fixes it again.  A buffer allocated at an unknown offset is declared (its shape, dtype, layout
are the source's) without a placement; reading `.offset` then is unresolved.

Python 3 standard library only.
"""
from __future__ import annotations

import ast
import math

from corpus_notation import DTYPE_BITS, ConvertError, dotted, strip_builder

NOT_HANDLED = object()
CONTEXT: list = []  # (ex, name, line, call, env) of the tile statement whose manager call is evaluated


class ObjToken:
    """`id(obj)`: unique per object, only formatted (`f"{i:x}"`) and compared."""

    _next = [1]

    def __init__(self):
        self.n = ObjToken._next[0]
        ObjToken._next[0] += 1

    def __format__(self, spec):
        return f"obj{self.n}"

    def __str__(self):
        return f"obj{self.n}"

    def __eq__(self, other):
        return self is other

    def __hash__(self):
        return hash(("ObjToken", self.n))


class PoolModel:
    """TVM's SMEMPool as the manager's Python code sees it (module docstring)."""

    def __init__(self, ptr, line: int):
        self.ptr, self.line = ptr, line
        self.offset_value, self.why = 0, None
        self.placed: list = []  # (buffer name, byte offset or None)

    def forget(self, why: str) -> None:
        self.offset_value, self.why = None, why

    @property
    def offset(self):
        if self.offset_value is None:
            import kernel_env
            raise kernel_env.UnresolvedError(kernel_env.Unresolved("SMEMPool.offset", self.line, self.why))
        return self.offset_value

    def move_base_to(self, offset):
        if isinstance(offset, bool) or not isinstance(offset, int) or offset < 0:
            raise ConvertError(f"move_base_to({offset!r}): not a byte offset the source fixes")
        self.offset_value, self.why = offset, None

    def commit(self):
        return None

    def alloc(self, shape, dtype="float32", strides=None, scope="shared.dyn", align=0, layout="default"):
        shape = tuple(shape) if isinstance(shape, (list, tuple)) else (shape,)
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in shape):
            raise ConvertError(f"SMEMPool.alloc shape {shape!r}: not fixed by the source")
        dtype = str(dtype)
        if dtype not in DTYPE_BITS:
            raise ConvertError(f"SMEMPool.alloc dtype {dtype!r}: not a dtype the model knows")
        if isinstance(align, bool) or not isinstance(align, int):
            raise ConvertError(f"SMEMPool.alloc align {align!r}: not fixed by the source")
        start = self.offset_value
        if start is not None and align > 0:
            start = (start + align - 1) // align * align
        buf = declare(self, shape, dtype, strides, scope, layout, start)
        self.offset_value = None if start is None else start + (math.prod(shape) * DTYPE_BITS[dtype] + 7) // 8
        return buf


def declare(pool: PoolModel, shape, dtype, strides, scope, layout, start):
    """The model buffer a manager allocation declares (allocators._allocate over a pool's own
    `alloc`), named after the tile statement's target; outside a tile statement, not declared."""
    import allocators
    import kernel_env
    if not CONTEXT:
        raise ConvertError("an SMEMPool allocation outside a statement the walk follows")
    ex, name, line, call, env = CONTEXT[-1]
    senv = dict(env)
    kws = [ast.keyword(arg="dtype", value=ast.Constant(dtype))]
    if isinstance(layout, kernel_env.LayoutExpr):
        senv["__manager_layout"] = layout
        kws.append(ast.keyword(arg="layout", value=ast.Name(id="__manager_layout", ctx=ast.Load())))
    elif layout != "default":
        raise ConvertError(f"SMEMPool.alloc layout {layout!r}: not a layout the extraction reads")
    if strides is not None:
        raise ConvertError("SMEMPool.alloc with strides=: not followed")
    if "shared" not in str(scope):
        raise ConvertError(f"SMEMPool.alloc scope {scope!r}: not a shared scope")
    p = kernel_env.Pool("smem", line, {})
    senv["__manager_pool"] = p
    node = ast.Call(func=ast.Attribute(value=ast.Name(id="__manager_pool", ctx=ast.Load()), attr="alloc",
                                       ctx=ast.Load()),
                    args=[ast.Tuple(elts=[ast.Constant(x) for x in shape], ctx=ast.Load())], keywords=kws)
    ast.copy_location(node, call)
    ast.fix_missing_locations(node)
    ref = allocators._allocate(node, "alloc", "__manager_pool", p, senv, kernel_env.Evaluator(senv), ex, name, line)
    if ref is None:
        raise ConvertError("SMEMPool.alloc: not a model buffer")
    where = (f"byte {start} of the manager's SMEMPool" if start is not None else
             f"an offset of the manager's SMEMPool that is not known ({pool.why})")
    for b in ex.buffers:
        if b["name"] == ref.name and "manager" not in b.get("notes", ""):
            b["origin"] = ex.origin(line, call)
            b["notes"] = (b["notes"] + "; " if b.get("notes") else "") + \
                f"allocated through the driver's manager ({ast.unparse(call.func)}), at {where}"
    ref.start_bytes = None
    ref.manager_why = (f"{ref.name} comes from the driver's manager, whose SMEMPool is built over a pointer the "
                       "driver passes: where that storage starts in shared memory is not derived")
    pool.placed.append((ref.name, start))
    return ref


def smem_pool_call(node: ast.Call) -> bool:
    return strip_builder(dotted(node.func) or "").split(".")[-1] == "SMEMPool" and \
        (dotted(node.func) or "").split(".")[0] in ("T", "Tx", "tirx")


def call(node: ast.Call, ev):
    """Evaluator hook: T.SMEMPool(...), a PoolModel's methods, id(instance)."""
    import kernel_env
    import tile_class
    if smem_pool_call(node):
        args, kwargs = ev.call_args(node, lazy=True)
        if len(args) + len(kwargs) > 1 or set(kwargs) - {"ptr"}:
            raise ConvertError(f"{ast.unparse(node)}: SMEMPool(ptr=None) takes one argument")
        return PoolModel(args[0] if args else kwargs.get("ptr"), node.lineno)
    if isinstance(node.func, ast.Attribute):
        try:
            recv = ev.value(node.func.value) if _may_be_pool(node.func.value, ev) else None
        except Exception:  # noqa: BLE001 - a receiver not evaluated here is not a pool model
            recv = None
        if isinstance(recv, PoolModel):
            if node.func.attr not in ("alloc", "move_base_to", "commit"):
                raise ConvertError(f"SMEMPool.{node.func.attr}: a pool method not modelled")
            args, kwargs = ev.call_args(node)
            return getattr(recv, node.func.attr)(*args, **kwargs)
    if isinstance(node.func, ast.Name) and node.func.id in ("id", "str") and node.func.id not in ev.env and \
            len(node.args) == 1 and not node.keywords:
        try:
            v = ev.value(node.args[0])
        except (ConvertError, kernel_env.UnresolvedError):
            return NOT_HANDLED
        if isinstance(v, (tile_class.Instance, tile_class.ClassValue)):
            if node.func.id == "id":
                return v.__dict__.setdefault("_id_token", ObjToken())
            if isinstance(v, tile_class.ClassValue):
                return f"<class '{v.name}'>"
            got = v.cls.find("__str__")
            if got is None or got[1] != "method":
                raise ConvertError(f"str() of a {v.cls.name} instance without __str__: object.__str__ (an address)")
            return ev.run_helper(tile_class.bound(got[2], got[0], v), [], {})
    return NOT_HANDLED


def _may_be_pool(node, ev) -> bool:
    """Cheap test before evaluating a receiver: a name or attribute chain (no call, no subscript,
    so evaluating it has no effect)."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


def attr(base, name: str):
    """`pool.offset`; NOT_HANDLED for other values."""
    if isinstance(base, PoolModel) and name == "offset":
        return base.offset
    return NOT_HANDLED


def forget_all(inst, why: str) -> None:
    """Every PoolModel the manager instance holds: offset unknown (module docstring)."""
    for v in list(inst.attrs.values()):
        if isinstance(v, PoolModel):
            v.forget(why)


def manager_alloc(call, env: dict, ev, ex, name, line: int):
    """`X = mgr.alloc(...)` where mgr is an instance of a class of the kernel's repository with an
    `alloc` method (a driver's manager): the method run (kernel_env's evaluator) with this
    statement as the context of the SMEMPool allocation it makes; the BufferRef it returns, an
    Unresolved saying why not, or NOT_HANDLED for other calls."""
    import kernel_env
    import tile_class
    from kernel_env import BufferRef, Unresolved, UnresolvedError
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "alloc" and
            _may_be_pool(call.func.value, ev)):
        return NOT_HANDLED
    try:
        recv = ev.value(call.func.value)
    except Exception:  # noqa: BLE001 - not an object of the file: not this form
        return NOT_HANDLED
    if not isinstance(recv, tile_class.Instance):
        return NOT_HANDLED
    got = recv.cls.find("alloc")
    if got is None or got[1] != "method":
        return NOT_HANDLED
    name = name or f"buffer@{line}"
    CONTEXT.append((ex, name, line, call, env))
    try:
        v = ev.value(call)
    except UnresolvedError as e:
        ex.block(f"buffer {name}", line, e.item)
        return Unresolved(name, line, f"allocation at line {line} through {recv.cls.name}.alloc is undecided", e.item)
    except (ConvertError, kernel_env.CodeRaises, ArithmeticError, TypeError, ValueError, KeyError, IndexError,
            AttributeError) as e:
        where = f"{recv.cls.name}.alloc ({got[0].env.get(kernel_env.FILE_KEY)})"
        if not isinstance(e, (ConvertError, kernel_env.CodeRaises)):
            e = f"{type(e).__name__} {e} in Python (the method's own code fails here)"
        ex.block(f"buffer {name}", line, None, f"not extracted: {where}: {e}")
        return Unresolved(name, line, f"allocation at line {line} through {where} was not extracted ({e})")
    finally:
        CONTEXT.pop()
    if isinstance(v, BufferRef):
        return v
    return Unresolved(name, line, f"{recv.cls.name}.alloc at line {line} returned no buffer the extraction declared")
