"""Values of names in a TIRx kernel file, as far as the source determines them.

A kernel's buffer shapes, dtypes and layouts are Python expressions over module constants,
configuration dictionaries, function parameters and locals (`BLK_M = T.meta_var(128)`).
This module evaluates such expressions statically.  It extends the corpus translator
(tools/corpus/corpus_notation.py, `Translator`), which already evaluates integer, dtype
and swizzle expressions and translates layout constructors, with what a whole file needs:

    value in the environment      meaning
    ---------------------------   -------------------------------------------------------
    int, str, DType, tuple, dict  a value the source determines
    Unresolved(name, line, why)   a value the source does not determine (a runtime value,
                                  a loop variable, an import from another file, a parameter
                                  with no default and no call site); using it raises
                                  UnresolvedError naming it, never a guess
    LayoutExpr(node, line)        a layout expression (TileLayout, ComposeLayout, a factory
                                  call) bound to a name: translated where it is used
    BufferRef                     a buffer the kernel allocated (kernel_walk.py)
    FuncValue                     a function defined in the file: helpers that compute a
                                  value (one `return`) are evaluated when called
    Imported(module, name)        a name imported from another module: only the notation's
                                  own vocabulary (SwizzleMode, Axis, dtypes) is known

Python 3 standard library only.
"""
from __future__ import annotations

import ast
import math
import os
import random as _random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus"))

import corpus_notation as cn  # noqa: E402  (reused: the translator and the notation vocabulary)
import eval_limits  # noqa: E402  (bounds on the values built: no runaway integers or strings)
from corpus_notation import ConvertError, Translator, dotted, strip_builder  # noqa: E402
from warps import ThreadIndex  # noqa: E402
import kern_forms  # noqa: E402  (kern DSL roles, loop frames, stage views)
import target_facts  # noqa: E402  (facts of the target machine: hardware_num_sms())
import tvm_classes  # noqa: E402  (TVM's PipelineState / SmemDescriptor, as TVM defines them)
import flow_state  # noqa: E402  (values uniform over the executing warps)
import tvm_pipeline  # noqa: E402  (TVM's Pipeline / MBarrier classes: barrier slots)
import py_classes  # noqa: E402  (the file's @dataclass configuration classes)
from lazy_module import LazyModule  # noqa: E402
partial_values = LazyModule("partial_values")  # noqa: E402  (dicts with undetermined values)
idesc_fold = LazyModule("idesc_fold")  # noqa: E402  (TVM's compile-time instruction descriptor fold)
sdesc_fold = LazyModule("sdesc_fold")  # noqa: E402  (TVM's compile-time shared-memory descriptor base fold)
host_torch = LazyModule("host_torch")  # noqa: E402  (host tensors, tensor maps and devices of the launch code)

# Limits that keep a hostile file bounded: a comprehension or range evaluated statically may
# produce at most this many elements, helper calls nest at most this deep.
MAX_ELEMENTS = 100_000
MAX_CALL_DEPTH = 8
MAX_TOTAL_ITERATIONS = 2_000_000  # for-loop iterations of straight-line code in one extraction


KERN_INT_OPS = {"shift_right": lambda a, b: a >> b, "shift_left": lambda a, b: a << b,
                "bitwise_and": lambda a, b: a & b, "bitwise_or": lambda a, b: a | b,
                "bitwise_xor": lambda a, b: a ^ b,
                # C's division toward zero (apache/tvm python/tvm/tirx/op.py:2564-2610 truncdiv /
                # truncmod, "the default integer division behavior in C"); floordiv / floormod as Python's
                "truncdiv": lambda a, b: abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1),
                "truncmod": lambda a, b: a - abs(a) // abs(b) * (1 if (a < 0) == (b < 0) else -1) * b,
                "floordiv": lambda a, b: a // b, "floormod": lambda a, b: a % b}
# The representative instance an extraction models (docs/extract.md, "Representative
# instance"): extract.py sets these from --instance / --serial-iterations before a walk.
SETTINGS = {"instance": "cta0-first-tile", "serial_iterations": 1, "target": "sm_100a", "overrides": {}}
CONVENTION_USED: dict = {}   # (what, line) -> {"what", "line", "value"}: bindings the convention made
CTA_INDEX_FUNCS = {"cta_id_in_cluster", "cta_id", "cluster_id", "block_id", "cta_rank_in_cluster"}
SREG_CTA = {"cluster_ctarank", "ctaid.x", "ctaid.y", "ctaid.z", "clusterid.x", "clusterid.y", "clusterid.z",
            "cluster_ctaid.x", "cluster_ctaid.y", "cluster_ctaid.z"}


def convention_on() -> bool:
    return SETTINGS.get("instance") == "cta0-first-tile"


def note_convention(what: str, line: int | None, value) -> None:
    CONVENTION_USED.setdefault((what, line), {"what": what, "line": line, "value": value})


class Scheduler:
    """A tile-scheduler object (a class whose name ends in `Scheduler`) under the convention
    "CTA 0 on its first tile": every field it exposes reads 0 (TVM's ClusterPersistentScheduler2D
    starts CTA 0 at work index 0 -> m_idx = n_idx = tile_idx = 0; apache/tvm 5d4dc87
    python/tvm/tirx/lang/tile_scheduler.py:203-275, 437-447), `valid()` is true once."""

    def __init__(self, cls: str, line: int):
        self.cls, self.line = cls, line


class SchedField(int):
    """A field of a Scheduler: 0, and `field[i]` is 0 too (a scheduler keeping its state in a
    one-element register buffer, `fetched_task_idx0[0]`)."""

    def __new__(cls, name: str):
        o = int.__new__(cls, 0)
        o.name = name
        return o

    def __getitem__(self, i):
        return SchedField(f"{self.name}[{i}]")


# int methods evaluated on a value the source fixes ((TASK_COUNT - 1).bit_length())
INT_METHODS = ("bit_length", "bit_count", "to_bytes", "conjugate")
# math functions on values the source fixes (the standard library's own)
MATH_FUNCS = {n: getattr(math, n) for n in ("ceil", "floor", "sqrt", "log", "log2", "log10", "exp", "gcd", "lcm",
                                            "isqrt", "prod", "comb", "perm", "trunc", "pow", "fabs", "isclose",
                                            "inf", "pi", "e")}
PY_BUILTINS = {"abs": abs, "sum": sum, "any": any, "all": all, "sorted": sorted, "round": round, "divmod": divmod,
               "float": float, "bool": bool, "str": str, "dict": dict, "set": set, "frozenset": frozenset,
               "pow": pow, "hex": hex, "bin": bin, "ord": ord, "chr": chr,
               "reversed": lambda x: tuple(reversed(x)), "enumerate": lambda x, start=0: tuple(enumerate(x, start)),
               "zip": lambda *x: tuple(zip(*x))}

KERN_CONSTS = {"int32": "int", "uint32": "int", "int64": "int", "int16": "int", "uint16": "int",
               "float32": "float", "float16": "float", "bfloat16": "float"}


class Unresolved:
    """A value the source does not determine; `cause` is the Unresolved it depends on."""

    def __init__(self, name: str, line: int | None, reason: str, cause: "Unresolved | None" = None):
        self.name, self.line, self.reason, self.cause = name, line, reason, cause
        self.thread = cause.thread if cause is not None else False  # derived from a thread index
        self.expr = None  # (node, env) of a thread-derived value: re-evaluated per warp (warps.py)

    def root(self) -> "Unresolved":
        u = self
        seen = 0
        while u.cause is not None and seen < 64:
            u, seen = u.cause, seen + 1
        return u

    def chain(self) -> list[str]:
        out, u, seen = [], self, 0
        while u is not None and seen < 64:
            out.append(u.name)
            u, seen = u.cause, seen + 1
        return out


class UnresolvedError(ConvertError):
    def __init__(self, item: Unresolved):
        super().__init__(f"{item.name!r} is not determined by the source: {item.reason}")
        self.item = item


class CodeRaises(ConvertError):
    """A `raise` statement the evaluation reached (a validate() rejecting the configuration):
    a fact about the source at this configuration, not an evaluation gap."""


class LayoutExpr:
    def __init__(self, node, line: int):
        self.node, self.line = node, line


class Imported:
    def __init__(self, module: str, name: str, line: int):
        self.module, self.name, self.line = module, name, line


class FuncValue:
    def __init__(self, node: ast.FunctionDef, closure: dict, file: str | None = None):
        self.node, self.closure = node, closure
        self.file = file if file is not None else closure.get(FILE_KEY)  # the file it is defined in


class PartialValue:
    """functools.partial(func, *args, **kwargs) of a function the evaluator can call."""

    def __init__(self, func, args: tuple, kwargs: dict):
        self.func, self.args, self.kwargs = func, args, kwargs


class ModuleValue:
    """A sibling module read from the kernel file's own directory (`from . import X as Y`):
    its module-level names, evaluated as the kernel file's are (sibling_modules)."""

    def __init__(self, name: str, file: str, env: dict):
        self.name, self.file, self.env = name, file, env


FILE_KEY = "__file__"  # the environment's own file (base name): where its functions' lines are


class Pool:
    """An allocator object: kind 'smem' (SMEMPool, K.smem_pool()) or 'tmem' (TMEMPool)."""

    def __init__(self, kind: str, line: int, args: dict):
        self.kind, self.line, self.args = kind, line, args


class BufferRef:
    def __init__(self, name: str, scope: str, shape: tuple, dtype: str, layout: str | None, line: int):
        self.name, self.scope, self.shape, self.dtype, self.layout, self.line = \
            name, scope, shape, dtype, layout, line

    def __getitem__(self, i):
        root = getattr(self, "local_root", None)
        if root is not None and len(self.shape) == 1 and type(i) is int:
            # element i of a fragment's X.local() view (or of a dtype view of it): register i of
            # each thread's storage of X (views.py _local), as a register array's register
            import fragments
            arr = getattr(self, "reg_array", None)
            if arr is None:
                arr = self.reg_array = fragments.RegArray(self.name, self.line, self.shape[0], self.dtype,
                                                                     getattr(self, "local_node", None))
                arr.local_of = root
            return arr[i]
        if i == 0 or i == (0,):
            import reg_cell  # element 0 of a (1,) register buffer used as a scalar (reg_cell.py)
            v = reg_cell.read(self)
            if v is not None:
                return v
        import buffer_regs  # an element of a plain register buffer: one register (buffer_regs.py)
        reg = buffer_regs.element(self, i)
        if reg is not None:
            return reg
        # an element of a model buffer (e.g. the registers of a fragment's X.local() view passed
        # one by one to a raw instruction) is a runtime value, not a register array's slot
        raise ConvertError(f"{self.name}[...] names elements of the model buffer {self.name} (a {self.scope} "
                           "buffer, e.g. a fragment's local() view), not registers of a register array")


def import_reason(v: "Imported") -> str:
    if v.module.startswith("."):
        return (f"imported from {v.module}, a sibling module that is not in the kernel file's directory or "
                "is not valid Python (or does not define it)")
    return (f"imported from {v.module} (only sibling modules and modules of the kernel's own repository "
            "found next to it are read)")


class _Return(Exception):
    def __init__(self, value):
        self.value = value


_INT_BITS = {"int8": 8, "int16": 16, "int32": 32, "int64": 64, "uint8": 8, "uint16": 16, "uint32": 32, "uint64": 64}


def _int_cast(dtype: str, v, node):
    import fragments
    if isinstance(v, fragments.RegElem) and dtype in _INT_BITS:
        v._runtime()  # a register's content cast to an integer type: that runtime value (its root)
    if dtype == "bool" and isinstance(v, (bool, int)):
        return bool(v)
    if isinstance(v, bool) and dtype in _INT_BITS:
        return int(v)  # a condition cast to an integer: 1 or 0 (K.Cast("uint32", kp != 0))
    if dtype not in _INT_BITS or isinstance(v, bool) or not isinstance(v, int):
        raise ConvertError(f"{ast.unparse(node)!r}: a cast the extraction does not evaluate")
    bits = _INT_BITS[dtype]
    v &= (1 << bits) - 1
    if not dtype.startswith("u") and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def _is_zero(v) -> bool:
    return (v is False or type(v) is int and v == 0)


def _bounded(n: int, what: str) -> None:
    if n > MAX_ELEMENTS:
        raise ConvertError(f"{what} has {n} elements, more than the {MAX_ELEMENTS} evaluated statically")


class Evaluator(Translator):
    """Translator over a kernel file's environment (concrete values only)."""

    def __init__(self, env: dict, depth: int = 0, thread: tuple | None = None):
        super().__init__(env, symbolic=False)
        self.depth = depth
        self.thread = thread  # (warp, lane): thread indices take these values (warps.py)

    # -- names ----------------------------------------------------------------------------

    def lookup(self, name: str):
        if name in self.env:
            v = self.env[name]
            if isinstance(v, tvm_classes.TirLocal):
                v = v.get(self.thread)  # a declared TIR scalar: its value at this point of the walk
            if type(v).__name__ == "PerWarp":
                v = v.resolve(self.thread)  # the executing warp's buffer (per_warp.py)
                if isinstance(v, Unresolved):
                    raise UnresolvedError(v)
            if isinstance(v, ThreadIndex):
                if self.thread is not None:
                    return v.at(*self.thread)
                got = flow_state.uniform_value(v, self)
                if got is not flow_state.NOT_UNIFORM:
                    return got  # the same in every thread executing here (flow_state.py)
                u = Unresolved(name, v.line, "a thread index (a runtime value; a branch on it selects warps)")
                u.thread = True
                raise UnresolvedError(u)
            if isinstance(v, Unresolved):
                if self.thread is not None and v.expr is not None:
                    node, env = v.expr
                    return Evaluator(env, self.depth, self.thread).value(node)
                if v.thread and v.expr is not None:
                    got = flow_state.uniform_value(v, self)
                    if got is not flow_state.NOT_UNIFORM:
                        return got
                    v = flow_state.per_thread(v, name)  # names the warps it differs between
                raise UnresolvedError(v)
            if not isinstance(v, Imported):
                self.used.add(name)
                return v
            saved = self.env.pop(name)  # only the notation's own vocabulary may know it
            try:
                return super().lookup(name)
            except ConvertError:
                raise UnresolvedError(Unresolved(name, v.line, import_reason(v))) from None
            finally:
                self.env[name] = saved
        try:
            return super().lookup(name)
        except UnresolvedError:
            raise
        except ConvertError:
            pass
        head = name.split(".")[0]
        hv = self.env.get(head)
        if isinstance(hv, Unresolved):
            raise UnresolvedError(hv)
        if isinstance(hv, Imported):
            raise UnresolvedError(Unresolved(name, hv.line, import_reason(hv)))
        if name == head and (head in cn.BUILDER_PREFIXES or head in ("K", "Kern")):
            raise ConvertError(f"{name} is the builder namespace, not a value")
        import builder_ns
        if builder_ns.kern_member(name) is not None:
            return builder_ns.kern_member(name)  # K.u16: a dtype token (builder_ns.py)
        if head in cn.BUILDER_PREFIXES or head in ("K", "Kern"):
            # the builder namespace itself is known (tvm.script's tirx, the kern DSL), wherever the
            # file imports it; this member of it has no static value here
            raise UnresolvedError(Unresolved(name, None, f"a member of the builder namespace {head} that the "
                                             "extraction does not evaluate (no static value here)"))
        raise UnresolvedError(Unresolved(name, None, "not defined in this file"))

    # -- expressions ----------------------------------------------------------------------

    def value(self, node):
        """The value of `node`, bounded (eval_limits.py: no integer past 256 bits, no sequence past
        10**6 elements; ValueTooLarge, a ConvertError, otherwise)."""
        if isinstance(node, ast.BinOp) and type(node.op) in eval_limits.OPS:
            return eval_limits.binop(node.op, self.value(node.left), self.value(node.right))
        return eval_limits.check(self._value(node))

    def _value(self, node):
        if isinstance(node, ast.Attribute):
            v = host_torch.eval_attr(self, node)  # torch.bfloat16 & co. (host_torch.py)
            if v is not host_torch.NOT_HANDLED:
                return v
            d = dotted(node)
            head = d.split(".")[0] if d else None
            if d in ("math.pi", "math.e", "math.inf", "math.tau") and \
                    (head not in self.env or isinstance(self.env[head], Imported)):
                return getattr(math, node.attr)
            if d is None or (d not in self.env and head in self.env and
                             not isinstance(self.env[head], (Imported, Unresolved))):
                return self.attr_of(self.value(node.value), node.attr, node)
            if d is not None and d not in self.env and head not in self.env and isinstance(node.value, ast.Attribute):
                try:
                    return super().value(node)
                except UnresolvedError as e:
                    # an attribute of a value of the notation's vocabulary (SwizzleMode.X.value)
                    try:
                        base = self.value(node.value)
                    except ConvertError:
                        raise e from None
                    try:
                        return self.attr_of(base, node.attr, node)
                    except ConvertError:
                        raise e from None
            if d is not None and d not in self.env and head not in self.env and \
                    (head in cn.BUILDER_PREFIXES or head in ("K", "Kern")):
                try:
                    return super().value(node)
                except UnresolvedError:
                    raise
                except ConvertError:
                    import builder_ns
                    if builder_ns.kern_member(d) is not None:
                        return builder_ns.kern_member(d)
                    raise UnresolvedError(Unresolved(d, None, f"a member of the builder namespace {head} that the "
                                                     "extraction does not evaluate (no static value here)")) from None
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            return tuple(self.comprehension(node))
        if isinstance(node, (ast.Tuple, ast.List)) and any(isinstance(e, ast.Starred) for e in node.elts):
            out = []
            for e in node.elts:
                if isinstance(e, ast.Starred):
                    v = self.value(e.value)
                    if isinstance(v, dict) or not isinstance(v, (tuple, list, str, frozenset, range)):
                        raise ConvertError(f"*{ast.unparse(e.value)}: not a sequence the source fixes")
                    out.extend(v)
                else:
                    out.append(self.value(e))
            _bounded(len(out), "sequence")
            return tuple(out)
        if isinstance(node, ast.DictComp):
            return dict(self.comprehension(node))
        if isinstance(node, ast.SetComp):
            return frozenset(self.comprehension(node))
        if isinstance(node, ast.Dict):
            # {**a, "k": v}: the mappings merged in order; a value the source does not fix is kept
            # as its Unresolved in a PartialDict (partial_values.py), read only where it is used
            out = []
            for k, v in zip(node.keys, node.values):
                if k is None:
                    m = self.value(v)
                    if not isinstance(m, dict):
                        raise ConvertError(f"**{ast.unparse(v)}: not a dictionary the source fixes")
                    out.extend(partial_values.raw_items(m))
                else:
                    out.append((self.value(k), self._lazy(v)))
            return partial_values.build(out)
        if isinstance(node, ast.JoinedStr):
            import fstrings  # conversions and format specs as Python applies them (fstrings.py)
            return fstrings.joined(node, self)
        if isinstance(node, ast.Compare) and all(isinstance(o, (ast.Eq, ast.NotEq)) for o in node.ops) and \
                len(node.ops) == 1:
            # `x == None`-style tests (a parameter defaulting to None compared with a string):
            # Python's == / != on the two values (the notation's comparison orders them too)
            a, b = self.value(node.left), self.value(node.comparators[0])
            if a is None or b is None or isinstance(a, host_torch.HOST_TYPES + (host_torch.HostDType,)) or \
                    isinstance(b, host_torch.HOST_TYPES + (host_torch.HostDType,)):
                return (a == b) if isinstance(node.ops[0], ast.Eq) else (a != b)
        if isinstance(node, ast.Compare) and any(isinstance(o, (ast.In, ast.NotIn, ast.Is, ast.IsNot))
                                                 for o in node.ops):
            left = self.value(node.left)
            for op, comp in zip(node.ops, node.comparators):
                right = self.value(comp)
                ok = {ast.In: lambda: left in right, ast.NotIn: lambda: left not in right,
                      ast.Is: lambda: left is right, ast.IsNot: lambda: left is not right,
                      ast.Eq: lambda: left == right, ast.NotEq: lambda: left != right,
                      ast.Lt: lambda: left < right, ast.Gt: lambda: left > right,
                      ast.LtE: lambda: left <= right, ast.GtE: lambda: left >= right}[type(op)]()
                if not ok:
                    return False
                left = right
            return True
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not self.value(node.operand)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd):
            # x & 0 is 0 whatever x is (an int or a bool: `(k > 0) & flag` at k = 0 is False), so
            # a side the source fixes at 0 / False decides it even when the other is a runtime value
            try:
                a = self.value(node.left)
            except UnresolvedError:
                b = self.value(node.right)
                if _is_zero(b):
                    return b
                raise
            if _is_zero(a):
                return a
            return a & self.value(node.right)
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitOr, ast.BitXor, ast.Div)):
            a, b = self.value(node.left), self.value(node.right)
            if isinstance(node.op, ast.Div):
                return a / b
            if isinstance(node.op, ast.BitAnd):
                return a & b
            return a | b if isinstance(node.op, ast.BitOr) else a ^ b
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, ast.Slice) and \
                isinstance(node.value, ast.Attribute):
            try:
                base = self.value(node.value)
            except ConvertError:
                base = None
            if isinstance(base, SchedField):
                return base[self.value(node.slice)]
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            base = self.value(node.value)
            s = node.slice
            lo = self.value(s.lower) if s.lower else None
            hi = self.value(s.upper) if s.upper else None
            st = self.value(s.step) if s.step else None
            return base[lo:hi:st]
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Tuple) and \
                any(isinstance(e, ast.Slice) for e in node.slice.elts):
            # a host tensor's multi-dimensional index with slices (`kv_flat[:, n:]`): Python's slice
            # objects, which the tensor's view reads (host_torch.py); other values keep their own forms
            base = self.value(node.value)
            if isinstance(base, host_torch.HostTensor):
                return base[tuple(slice(*(self.value(x) if x is not None else None
                                          for x in (e.lower, e.upper, e.step))) if isinstance(e, ast.Slice)
                                  else self.value(e) for e in node.slice.elts)]
        if isinstance(node, ast.BoolOp):
            # Python's short circuit: `K <= 1024 or total > 2 * num_sms` is decided by its first operand
            # when that is true, whatever the second (which may be a runtime value)
            v = None
            for e in node.values:
                v = self.value(e)
                if bool(v) == isinstance(node.op, ast.Or):
                    return v
            return v
        if isinstance(node, ast.Subscript) and not isinstance(node.slice, (ast.Slice, ast.Tuple)) and \
                isinstance(node.value, ast.Name) and isinstance(self.env.get(node.value.id), BufferRef) and \
                len(self.env[node.value.id].shape) == 3:
            # kern: `tile[stage]` of a staged swizzled tile is the view of that stage (kern_forms.py)
            return kern_forms.StageView(self.env[node.value.id], self.value(node.slice))
        if isinstance(node, ast.Set):
            return frozenset(self.value(e) for e in node.elts)
        if isinstance(node, ast.Name) and node.id in self.env and isinstance(self.env[node.id], BufferRef):
            return self.env[node.id]
        return super().value(node)

    def attr_of(self, base, attr: str, node):
        if isinstance(base, host_torch.HOST_TYPES):
            return base.attr(attr, node)  # a host tensor's shape, a storage place (host_torch.py)
        if isinstance(base, (py_classes.DataInstance, py_classes.DataclassDef)):
            return base.attr(attr, self)
        if isinstance(base, py_classes.FieldInfo) and attr in ("name", "default"):
            return getattr(base, attr)
        if isinstance(base, _random.Random) and attr in ("random", "uniform", "randint", "randrange", "choice"):
            return getattr(base, attr)
        if isinstance(base, int) and not isinstance(base, bool) and attr in INT_METHODS:
            return getattr(base, attr)
        if isinstance(base, dict) and attr in base and isinstance(base[attr], EnumMember):
            return base[attr]
        if isinstance(base, EnumMember) and attr in ("value", "name"):
            return getattr(base, attr)
        if isinstance(base, EnumMember):
            got = enum_member_attr(base, attr, self)
            if got is not NotImplemented:
                return got
        if isinstance(base, tvm_pipeline.VALUE_TYPES):
            return base.attr(attr)
        if isinstance(base, BufferRef) and attr == "elem_offset":
            import flow_pool  # elements from its data pointer: 0 for an allocation, its pool offset (flow_pool.py)
            got = flow_pool.elem_offset(base)
            if got is None:
                why = getattr(base, "start_why", None) or "an SMEMPool offset not followed, or a view without a known start"
                raise ConvertError(f"{ast.unparse(node)!r}: where {base.name} starts from its data pointer is not "
                                   f"derived ({why})")
            import named_offset  # the number remembers its buffer (named_offset.py)
            return named_offset.Toward(got, base)
        if isinstance(base, tvm_classes.PipeState):
            if attr in tvm_classes.STATE_METHODS:
                raise ConvertError(f"{ast.unparse(node)!r}: a PipelineState method (a statement)")
            return base.read(attr, node)
        if isinstance(base, kern_forms.StageView):
            return base.attr(attr)
        if isinstance(base, BufferRef) and attr in ("m8n8", "m8n8x4"):
            return kern_forms.view_attr(base, attr)
        if isinstance(base, kern_forms.Specialize) and attr == "role":
            raise ConvertError("role() is evaluated at its call")
        if isinstance(base, tvm_classes.SmemDescObj):
            if attr == "add_16B_offset":
                return tvm_classes.add_16B_offset(base)
            if attr == "desc":
                return base  # the descriptor register itself (smem_desc.py:31-33)
            raise ConvertError(f"{ast.unparse(node)!r}: a SmemDescriptor method the extraction does not model")
        import tile_class
        if isinstance(base, (tile_class.Instance, tile_class.ClassValue)):
            v = tile_class.attr_of(base, attr)  # Python's attribute lookup (tile_class.py)
            # a register scalar held by the tile (tile_cells.py): its value at this point of the walk
            if isinstance(v, tvm_classes.TirLocal):
                v = v.get(self.thread)
                if isinstance(v, Unresolved):
                    raise UnresolvedError(v)
            return v
        import mgr_pool
        v = mgr_pool.attr(base, attr)  # an SMEMPool's offset, for a driver's manager (mgr_pool.py)
        if v is not mgr_pool.NOT_HANDLED:
            return v
        if isinstance(base, Scheduler) and attr == "worker":
            # ClusterLaunchControlScheduler.worker(prefix): a _CLCWorker, which IS-A
            # ClusterPersistentScheduler2D (apache/tvm 5d4dc87 python/tvm/backend/cuda/lang/
            # tile_scheduler.py:837-922): under the convention its coordinates read 0 as well
            note_convention(f"tile scheduler {base.cls}.worker(...): a ClusterPersistentScheduler2D worker, "
                            "fields 0 (CTA 0 on its first tile)", base.line, 0)
            return lambda *a, **k: Scheduler(f"{base.cls}.worker", base.line)
        if isinstance(base, Scheduler):
            if attr in ("valid", "init", "next_tile", "next_tile_stride"):
                raise ConvertError(f"{ast.unparse(node)!r}: a tile-scheduler method")
            note_convention(f"tile scheduler {base.cls}.{attr} = 0 (CTA 0 on its first tile)", base.line, 0)
            return SchedField(attr)
        if isinstance(base, cn.Swizzle) and attr == "value":
            return base.mode
        if isinstance(base, str) and attr == "bits" and base in cn.DTYPE_BITS:
            return cn.DTYPE_BITS[base]  # a dtype given as its name ("float16".bits, tvm.DataType's field)
        if isinstance(base, cn.DType) and attr == "bits":
            return base.bits
        if isinstance(base, dict) and attr in ("get", "keys", "values", "items", "copy"):
            return getattr(base, attr)
        if isinstance(base, str) and attr in ("upper", "lower", "startswith", "endswith", "replace", "split"):
            return getattr(base, attr)
        if isinstance(base, BufferRef) and attr == "allocated_addr":
            import tmem_ops  # the pool column of a TMEM buffer (tmem_ops.py)
            return tmem_ops.allocated_addr(base)
        if isinstance(base, BufferRef) and attr in ("shape", "dtype"):
            return getattr(base, attr)
        if isinstance(base, BufferRef) and attr == "ptr_to":
            from fragments import ptr_to  # an element's address (fragments.py: ldmatrix rows)
            return ptr_to(base)
        if isinstance(base, ModuleValue):
            if attr not in base.env:
                raise UnresolvedError(Unresolved(f"{base.name}.{attr}", None, f"not defined in {base.file}"))
            v = base.env[attr]
            if isinstance(v, Unresolved):
                raise UnresolvedError(v)
            if isinstance(v, Imported):
                raise UnresolvedError(Unresolved(f"{base.name}.{attr}", v.line, f"imported by {base.file} from "
                                                 f"{v.module} (not read)"))
            return v
        if isinstance(base, Pool) and base.kind == "tmem" and attr == "offset":
            import tmem_ops  # the TMEM pool's bump offset (tmem_ops.py)
            return tmem_ops.pool_offset(base, node)
        if isinstance(base, Pool):
            raise ConvertError(f"{ast.unparse(node)!r}: attribute of an allocator")
        raise ConvertError(f"cannot evaluate attribute {ast.unparse(node)!r}")

    def call(self, node: ast.Call):
        fname = strip_builder(dotted(node.func) or "")
        short = fname.split(".")[-1]
        import mgr_pool  # T.SMEMPool and id()/str() as a driver's manager uses them (mgr_pool.py)
        v = mgr_pool.call(node, self)
        if v is not mgr_pool.NOT_HANDLED:
            return v
        import tmem_ops  # TMEM address arithmetic: get_tmem_addr, casts of an address (tmem_ops.py)
        v = tmem_ops.eval_call(self, node, short)
        if v is not tmem_ops.NOT_HANDLED:
            return v
        import builder_ns  # builder members with a static meaning (builder_ns.py)
        v = builder_ns.shfl_sync(self, node)
        if v is None:
            v = builder_ns.reinterpret(self, node)
        if v is not None:
            return v
        import torch_facts  # torch.empty((), dtype=torch.D).element_size() (torch_facts.py)
        v = torch_facts.eval_call(self, node)
        if v is not torch_facts.NOT_HANDLED:
            return v
        v = host_torch.eval_call(self, node, fname)  # host tensors, maps, devices (host_torch.py)
        if v is not host_torch.NOT_HANDLED:
            return v
        if short in ("meta_var",) and len(node.args) == 1:
            return self.value(node.args[0])
        if short in ("cast", "reinterpret_cast") and len(node.args) == 2 and fname.startswith(("cast", "T.", "Tx.", "K.")):
            v = self.value(node.args[0])  # Tx.cast(x, "uint32") of an integer is the integer
            import fragments
            if isinstance(v, fragments.RegElem):
                v._runtime()  # a register's content: unresolved, naming the register (runtime_data.root_key)
            if isinstance(v, int) and not isinstance(v, bool):
                import named_offset
                return v if isinstance(v, named_offset.Toward) else int(v)
            if isinstance(v, bool) and short == "cast" and isinstance(node.args[1], ast.Constant) and \
                    str(node.args[1].value).startswith(("int", "uint")):
                return int(v)  # a condition cast to an integer type: 1 or 0 (TIR's Cast of a bool)
            import idesc_word  # an instruction descriptor cast into a 64-bit word (idesc_word.py)
            w = idesc_word.cast(v, str(self.value(node.args[1])))
            if w is not None:
                return w
            raise ConvertError(f"{ast.unparse(node)!r}: a cast of a non-integer")
        if short == "filter" and len(node.args) == 2 and fname in ("filter", "T.filter", "Tx.filter"):
            return self.value(node.args[1])  # Tx.filter(lane_id, elect_sync()): the predicate's value
        if short == "address_of" and len(node.args) == 1:
            return self.value(node.args[0])  # the object itself (a tensor map, a descriptor)
        if short in _INT_BITS and len(node.args) == 1 and not node.keywords:
            # T.uint16(1) ... T.int64(x): one DtypeConstructor per integer type (apache/tvm 5d4dc87
            # python/tvm/tirx/script/builder/ir.py:2401-2409, 2422-2452): a constant of that type
            v = self.value(node.args[0])
            if isinstance(v, int):
                return int(v)
            import tmem_cp  # a 64-bit descriptor built by bit arithmetic stays itself in a 64-bit type
            if short in ("uint64", "int64") and isinstance(v, tmem_cp.DescWithStart):
                return v
        if fname in ("tvm.tirx.any", "tirx.any", "tvm.tir.any") and node.args and not node.keywords:
            # the Or of its arguments (apache/tvm 5d4dc87 python/tvm/tirx/op.py:1206-1229)
            return any(bool(self.value(a)) for a in node.args)
        if fname in ("tvm.tirx.all", "tirx.all", "tvm.tir.all") and node.args and not node.keywords:
            return all(bool(self.value(a)) for a in node.args)
        if fname in ("Or", "And", "tirx.Or", "tirx.And") and len(node.args) == 2 and not node.keywords and \
                (dotted(node.func) or "").startswith(("T.", "Tx.", "tvm.", "tirx.")):
            # tirx.Or / tirx.And of two conditions (apache/tvm 5d4dc87 python/tvm/tirx/expr.py): the
            # logical or / and once both sides are fixed
            a, b = (bool(self.value(x)) for x in node.args)
            return (a or b) if short == "Or" else (a and b)
        if short == "bool" and len(node.args) == 1 and not node.keywords and \
                (dotted(node.func) or "").startswith(("T.", "Tx.", "K.")):
            v = self.value(node.args[0])
            if not isinstance(v, (bool, int)):
                raise ConvertError(f"{ast.unparse(node)!r}: a bool of a value that is not a constant")
            return bool(v)
        if short == "Cast" and len(node.args) == 2 and not node.keywords and \
                (dotted(node.func) or "").startswith(("T.", "Tx.", "K.", "Kern.", "tvm.", "tirx.")):
            # tirx.Cast(dtype, value) of an integer the source fixes: the value in that integer
            # type (two's complement wrap-around, as the cast of a constant)
            dt = self.value(node.args[0])
            v = self.value(node.args[1])
            dt = getattr(dt, "name", dt)
            return _int_cast(str(dt), v, node)
        if fname in ("ptx.pred", "K.ptx.pred", "Kern.ptx.pred") and len(node.args) == 1:
            # tags an operand as a .pred register; its value is the operand's
            # (python/tvm/backend/cuda/ptx/engine.py:892-895)
            return self.value(node.args[0])
        if fname == "os.environ.get" and isinstance(self.env.get("os"), Unresolved):
            raise UnresolvedError(self.env["os"])  # the environment was changed where it is not followed
        if fname == "os.environ.get" and len(node.args) in (1, 2) and not node.keywords:
            # the value with the variable unset: the file's own default, None without one
            # (--param NAME overrides)
            return self.value(node.args[1]) if len(node.args) == 2 else None
        if convention_on() and fname in ("K.cta_id", "Kern.cta_id") and not node.args and not node.keywords:
            import kern_grid  # the kernel's grid rank (kern_grid.py)
            v = kern_grid.cta_ids()
            note_convention("K.cta_id() = 0 per grid dimension (CTA 0 of the grid)", node.lineno, v)
            return v
        if convention_on() and short in CTA_INDEX_FUNCS and node.args:
            # "CTA 0 on its first tile": the CTA's (cluster) indices are 0
            ext = node.args[0] if node.args else None
            n = len(ext.elts) if isinstance(ext, (ast.List, ast.Tuple)) else 1
            note_convention(f"{short} = 0 (CTA 0 of the grid, rank 0 of its cluster)", node.lineno, 0)
            return (0,) * n if n > 1 else 0
        if convention_on() and short == "mov_sreg" and len(node.args) == 2 and \
                isinstance(node.args[1], ast.Constant) and node.args[1].value in SREG_CTA:
            note_convention(f"%{node.args[1].value} = 0 (CTA 0 of the grid, rank 0 of its cluster)", node.lineno, 0)
            return 0
        if convention_on() and fname.endswith("nvshmem.my_pe") and not node.args and not node.keywords:
            # a multi-GPU kernel's instance is on PE 0 (flow_state.py)
            note_convention("nvshmem.my_pe() = 0 (the instance's GPU is PE 0 of the NVSHMEM job)", node.lineno, 0)
            return 0
        if convention_on() and "Scheduler" in short and short[:1].isupper():
            return Scheduler(short, node.lineno)
        if isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), Imported) and \
                not node.keywords and not node.args:
            # a fact of the target machine (target_facts.py: hardware_num_sms()), recorded
            got = target_facts.target_call(self.env[node.func.id], [], SETTINGS.get("overrides", {}),
                                           SETTINGS.get("target"))
            if got is not None and got[0] == "value":
                note_convention(got[2], node.lineno, got[1])
                return got[1]
            if got is not None:
                raise UnresolvedError(Unresolved(ast.unparse(node), node.lineno, got[1]))
        if isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), Imported) and \
                idesc_fold.handles(self.env[node.func.id]):
            # TVM's encode_instr_descriptor_{dense,block_scaled}_uint32: the number, from its arguments
            # (idesc_fold.py)
            args = [self.value(a) for a in node.args]
            kwargs = {k.arg: self.value(k.value) for k in node.keywords if k.arg}
            if len(kwargs) != len(node.keywords):
                raise ConvertError(f"{ast.unparse(node)!r}: **kwargs of the descriptor helper")
            return idesc_fold.fold(self.env[node.func.id].name, args, kwargs, node.lineno)
        if isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), Imported) and \
                sdesc_fold.handles(self.env[node.func.id]):
            # TVM's encode_smem_descriptor_base_uint64: the descriptor number without its address (sdesc_fold.py)
            args = [self.value(a) for a in node.args]
            kwargs = {k.arg: self.value(k.value) for k in node.keywords if k.arg}
            if len(kwargs) != len(node.keywords):
                raise ConvertError(f"{ast.unparse(node)!r}: **kwargs of the descriptor helper")
            return sdesc_fold.base(args, kwargs, node.lineno)
        if isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), Imported) and \
                tvm_pipeline.handles(self.env[node.func.id]):
            imp = self.env[node.func.id]  # Pipeline / MBarrier / TMABar / TCGen05Bar (tvm_pipeline.py)
            args, kwargs = self.call_args(node, lazy=True)
            return tvm_pipeline.construct(imp, args, kwargs, node.lineno, f"{imp.name} at line {node.lineno}")
        if isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), Imported) and \
                not node.keywords:
            args = [self.value(a) for a in node.args]
            obj = tvm_classes.construct(self.env[node.func.id], args, node.lineno, "unset")
            if obj is not None:
                return obj
        if fname in ("K.specialize", "Kern.specialize"):
            return kern_forms.Specialize(node.lineno)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "role" and \
                isinstance(node.func.value, ast.Name) and \
                isinstance(self.env.get(node.func.value.id), kern_forms.Specialize):
            return kern_forms.role_of(self.env[node.func.value.id], self, node)
        if fname in ("K.PipelineState", "Kern.PipelineState"):
            # kern re-exports TVM's class (kern/__init__.py:41): the same semantics (tvm_classes.py)
            args = [self.value(a) for a in node.args]
            kw = {k.arg: self.value(k.value) for k in node.keywords if k.arg}
            if set(kw) - {"depth", "phase"} or len(args) + len(kw) > 2:
                raise ConvertError(f"{ast.unparse(node)!r}: PipelineState(depth, phase=None) arguments")
            depth = args[0] if args else kw.get("depth")
            phase = args[1] if len(args) > 1 else kw.get("phase")
            return tvm_classes.construct(Imported(tvm_classes.PIPELINE_MODULES[1], "PipelineState", node.lineno),
                                         [depth, phase] if phase is not None else [depth], node.lineno, "unset")
        if fname in ("K.RingState", "Kern.RingState"):
            import kern_ring  # kern's ring cursor (kern/ring.py), PipelineState's when stage 0, stride 1
            return kern_ring.construct(self, node)
        if fname.startswith(("K.", "Kern.")) and short in ("thread_id", "warp_id", "lane_id", "warp_id_in_role",
                                                           "tid_in_role") and \
                not node.keywords:
            # a kern thread index used inside an expression (`K.cast(K.thread_id(), "uint32")`)
            import warps as _w
            decl = _w.thread_decl(node, self)
            if decl is not None and isinstance(decl[0], Unresolved):
                raise UnresolvedError(decl[0])
            if decl is not None:
                if self.thread is not None:
                    return decl[0].at(*self.thread)
                u = Unresolved(ast.unparse(node), node.lineno, "a thread index (a runtime value)")
                u.thread = True
                raise UnresolvedError(u)
        if short == "elect_sync" and not node.args:
            if self.thread is not None:
                return self.thread[1] == 0
            u = Unresolved(ast.unparse(node), node.lineno, "one elected lane per warp (a runtime value; a branch "
                           "on it selects warps)")
            u.thread = True
            raise UnresolvedError(u)
        if short == "local_scalar" and (fname.startswith(("K.", "Kern.")) or fname == short):
            # kern DSL register: its value is the initializer until a K.assign (kernel_walk.py).
            init = next((k.value for k in node.keywords if k.arg == "init"), None)
            if init is None:
                raise UnresolvedError(Unresolved(ast.unparse(node), node.lineno, "a register declared without an "
                                                 "initial value (a runtime variable)"))
            return self.value(init)
        if short in ("if_then_else",) and len(node.args) == 3 and not node.keywords and \
                (dotted(node.func) or "").startswith(("K.", "Kern.", "T.", "Tx.", "tvm.tirx.", "tirx.")):
            # tirx.if_then_else(cond, t, f): t or f once the condition is fixed (the unselected
            # branch is not evaluated; apache/tvm 5d4dc87 python/tvm/tirx/op.py:2450)
            c = self.value(node.args[0])
            if not isinstance(c, (bool, int)):
                raise ConvertError(f"{ast.unparse(node)!r}: a condition that is not a constant")
            return self.value(node.args[1] if c else node.args[2])
        if short in KERN_INT_OPS and (fname.startswith(("K.", "Kern.", "T.")) or
                                      (dotted(node.func) or "").startswith(("K.", "Kern.", "T.", "Tx."))) and \
                len(node.args) == 2:
            # kern DSL integer ops on values the source fixes (an address's row arithmetic)
            a, b = (self.value(x) for x in node.args)
            if short in ("shift_left", "shift_right"):
                import idesc_word  # a descriptor moved in its 64-bit word (idesc_word.py)
                w = idesc_word.shift(short, a, b)
                if w is not None:
                    return w
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in (a, b)):
                raise ConvertError(f"{ast.unparse(node)!r}: {short} of non-integers")
            return KERN_INT_OPS[short](a, b)
        if short in KERN_CONSTS and fname.startswith(("K.", "Kern.", "T.")) and len(node.args) == 1 and \
                not node.keywords:
            # K.int32(2), K.float32(0.0): a typed constant; its value is the number
            v = self.value(node.args[0])
            import fragments
            if isinstance(v, fragments.RegElem) and KERN_CONSTS[short] == "int":
                v._runtime()  # K.uint32(reg[0]) is tvm::cast of the register (ir.h DEF_DTYPE_CAST): its runtime value
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ConvertError(f"{ast.unparse(node)!r} is not a constant")
            return int(v) if KERN_CONSTS[short] == "int" else float(v)
        if fname in ("str",):
            v = self.value(node.args[0])
            return str(v)
        if fname in ("range",):
            args = [self.value(a) for a in node.args]
            r = range(*args)
            _bounded(max(0, -((r.start - r.stop) // r.step)), "range")  # len() would overflow past 2**63
            return tuple(r)
        if fname in ("isinstance",):
            got = _builtin_isinstance(self, node)
            if got is not None:
                return got
            raise ConvertError("isinstance is not evaluated")
        if isinstance(node.func, ast.Name) and node.func.id not in self.env and node.func.id in PY_BUILTINS:
            args, kwargs = self.call_args(node)
            return PY_BUILTINS[node.func.id](*args, **kwargs)
        mf = self.math_function(node.func)
        if mf is not None:
            args, kwargs = self.call_args(node)
            return mf(*args, **kwargs)
        dc = self.dataclass_function(node.func)
        if dc is not None:
            args, kwargs = self.call_args(node)
            return py_classes.dataclass_function(dc, args, kwargs, self)
        if fname == "random.Random" and ("random" not in self.env or isinstance(self.env["random"], Imported)) or \
                isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), Imported) and \
                self.env[node.func.id].module == "random" and self.env[node.func.id].name == "Random":
            # random.Random(seed): the standard library's generator, deterministic for a seed the
            # source fixes (the random module's documented reproducibility of random())
            args, kwargs = self.call_args(node)
            if len(args) != 1 or kwargs or isinstance(args[0], bool) or not isinstance(args[0], (int, str)):
                raise ConvertError(f"{ast.unparse(node)!r}: a generator without a seed the source fixes")
            return _random.Random(args[0])
        if self.partial_function(node.func):
            # functools.partial(f, *args, **kwargs): f with those arguments first (the functools
            # documentation's equivalent: f(*args, *more, **{**kwargs, **more_kwargs}))
            args, kwargs = self.call_args(node)
            if not args:
                raise ConvertError("partial() without a function")
            return PartialValue(args[0], tuple(args[1:]), kwargs)
        if isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), PartialValue):
            pv = self.env[node.func.id]
            args, kwargs = self.call_args(node)
            args, kwargs = list(pv.args) + args, {**pv.kwargs, **kwargs}
            if isinstance(pv.func, FuncValue):
                return self.run_helper(pv.func, args, kwargs)
            if callable(pv.func) and not isinstance(pv.func, (Imported, Unresolved)):
                return pv.func(*args, **kwargs)
            raise ConvertError(f"{ast.unparse(node.func)!r}: a partial of a function that is not evaluated")
        if isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), FuncValue):
            return self.call_helper(self.env[node.func.id], node)
        import tile_class
        if isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), tile_class.ClassValue):
            c = self.env[node.func.id]  # an instance built by kernel code (class_build.py)
            tile_class.BUILDING.append((c.name, node.lineno))  # (a constructor reaching it: not known to return)
            import class_build
            return class_build.construct(c, node, self)
        m = tile_class.member(node.func, self.env)
        if isinstance(m, FuncValue):  # `self.helper(...)`: a method of the tile task, bound (tile_class.py)
            return self.call_helper(m, node)
        if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Attribute):
            recv = self.value(node.func.value)  # `self.mgr.alloc(...)`: a method of an object the tile holds
            if isinstance(recv, (tile_class.Instance, tile_class.ClassValue)):
                m = tile_class.attr_of(recv, node.func.attr)
                if isinstance(m, FuncValue):
                    return self.call_helper(m, node)
        if isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), py_classes.DataclassDef):
            # a field whose argument the source does not fix holds its Unresolved: reading that
            # field raises it (py_classes._known), the other fields are known
            args, kwargs = self.call_args(node, lazy=True)
            return self.env[node.func.id].construct(args, kwargs, self)
        if isinstance(node.func, ast.Attribute) and (any(isinstance(a, ast.Starred) for a in node.args) or
                                                     any(k.arg is None for k in node.keywords)):
            fn = self.value(node.func)
            args, kwargs = self.call_args(node)
            return fn(*args, **kwargs)
        return super().value(node)

    def call_args(self, node: ast.Call, lazy: bool = False):
        """The call's positional and keyword arguments, `*seq` and `**mapping` expanded.  With
        `lazy` (a helper of the file is called) an argument the source does not fix is passed as
        its Unresolved: the helper fails only if it uses it (_lazy)."""
        one = self._lazy if lazy else self.value
        args, kwargs = [], {}
        for a in node.args:
            if isinstance(a, ast.Starred):
                v = self.value(a.value)
                if isinstance(v, dict) or not isinstance(v, (tuple, list, str, frozenset, range)):
                    raise ConvertError(f"*{ast.unparse(a.value)}: not a sequence the source fixes")
                args.extend(v)
            else:
                args.append(one(a))
        for k in node.keywords:
            v = one(k.value) if k.arg is not None else self.value(k.value)
            if k.arg is not None:
                kwargs[k.arg] = v
            elif isinstance(v, dict):
                for kk, vv in partial_values.raw_items(v):
                    if isinstance(vv, Unresolved) and not lazy:
                        raise UnresolvedError(vv)  # only a lazy call binds an undetermined keyword
                    kwargs[kk] = vv
            else:
                raise ConvertError(f"**{ast.unparse(k.value)}: not a dictionary the source fixes")
        return args, kwargs

    def partial_function(self, func) -> bool:
        """Does `func` name functools.partial (`partial` bound by `from functools import partial`,
        or `functools.partial`)?"""
        if isinstance(func, ast.Name):
            v = self.env.get(func.id)
            return isinstance(v, Imported) and v.module == "functools" and v.name == "partial"
        d = dotted(func) or ""
        return d == "functools.partial" and ("functools" not in self.env or isinstance(self.env["functools"], Imported))

    def math_function(self, func):
        """A function of the standard `math` module named by `func` (`math.log2`, or a name bound
        by `from math import log2`), or None."""
        if isinstance(func, ast.Name):
            v = self.env.get(func.id)
            if isinstance(v, Imported) and v.module == "math" and v.name in MATH_FUNCS:
                return MATH_FUNCS[v.name]
            if func.id in ("prod", "ceil") and func.id not in self.env:
                return MATH_FUNCS[func.id]  # as before: the corpus spelling without the module
            return None
        d = dotted(func) or ""
        head, _, rest = d.partition(".")
        if head == "math" and rest in MATH_FUNCS and (head not in self.env or isinstance(self.env[head], Imported)):
            return MATH_FUNCS[rest]
        return None

    def dataclass_function(self, func):
        """The name of a `dataclasses` function (`asdict`, `fields`, `replace`, ...) that `func`
        names, or None."""
        if isinstance(func, ast.Name):
            v = self.env.get(func.id)
            if isinstance(v, Imported) and v.module == "dataclasses" and v.name in py_classes.DATACLASS_FUNCS:
                return v.name
            return None
        d = dotted(func) or ""
        head, _, rest = d.partition(".")
        if head == "dataclasses" and rest in py_classes.DATACLASS_FUNCS and \
                (head not in self.env or isinstance(self.env[head], Imported)):
            return rest
        return None
    def _lazy(self, node):
        """An argument's value, or its Unresolved: the helper fails only if it uses it (Python's
        `a or b` in the helper may never read b: `4 if K <= 1024 or ctas > 2 * num_sms else 8`)."""
        try:
            return self.value(node)
        except UnresolvedError as e:
            return e.item

    def call_helper(self, fv: FuncValue, node: ast.Call):
        """One level of helper calls: run a helper defined in the file on concrete arguments."""
        args, kwargs = self.call_args(node, lazy=True)
        return self.run_helper(fv, args, kwargs)

    def run_helper(self, fv: FuncValue, args: list, kwargs: dict):
        if self.depth >= MAX_CALL_DEPTH:
            raise ConvertError(f"helper calls nest deeper than {MAX_CALL_DEPTH}")
        env = dict(fv.closure)
        bind_arguments(fv.node, args, kwargs, env, self)
        sub = Evaluator(env, self.depth + 1, self.thread)  # a helper evaluated for one lane sees its indices
        try:
            run_straight(fv.node.body, env, sub)
        except _Return as r:
            return r.value
        return None

    def comprehension(self, node):
        out = []

        def gen(i, env):
            if i == len(node.generators):
                sub = Evaluator(env, self.depth)
                out.append((sub.value(node.key), sub.value(node.value)) if isinstance(node, ast.DictComp)
                           else sub.value(node.elt))
                _bounded(len(out), "comprehension")
                return
            g = node.generators[i]
            for item in Evaluator(env, self.depth).value(g.iter):
                eval_limits.step()
                e2 = dict(env)
                assign_target(g.target, item, e2)
                if all(Evaluator(e2, self.depth).value(c) for c in g.ifs):
                    gen(i + 1, e2)

        gen(0, self.env)
        return out

    # -- layouts bound to names -------------------------------------------------------------

    def layout(self, node):
        import tile_class
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
                isinstance(self.env.get(node.value.id), (tile_class.Instance, tile_class.ClassValue)):
            v = tile_class.attr_of(self.env[node.value.id], node.attr)  # `layout=self.A_layout` (tile_class.py)
            if isinstance(v, LayoutExpr):
                import builder_ns
                return Evaluator(getattr(v, "env", self.env)).layout(builder_ns.unwrap_meta_var(v.node))
            if not isinstance(v, (ast.AST,)) and v is not None and not isinstance(v, (int, str, tuple)):
                return v
        if isinstance(node, (ast.Name, ast.Attribute)):
            name = dotted(node)
            v = self.env.get(name) if name else None
            if isinstance(v, LayoutExpr):
                import builder_ns  # read where it was written: a tile-task attribute's LayoutExpr, a layout a helper returned
                return (Evaluator(v.env) if getattr(v, "env", None) is not None else self).layout(
                    builder_ns.unwrap_meta_var(v.node))
            if isinstance(v, Unresolved):
                raise UnresolvedError(v)
            if name is not None and v is None and name not in self.env:
                self.lookup(name)  # raises the precise reason
        import builder_ns  # L.unpack(4) of a name bound to a layout value (builder_ns.py)
        chain = builder_ns.substitute_layout_receiver(node, self.env, LayoutExpr)
        if chain is not None:
            return self.layout(chain)
        return super().layout(builder_ns.unwrap_meta_var(node))


def assign_target(target, value, env: dict) -> None:
    """Bind `value` to a Name / Tuple target (tuple unpacking)."""
    if isinstance(target, ast.Name):
        env[target.id] = value
    elif isinstance(target, (ast.Tuple, ast.List)):
        if isinstance(value, Unresolved):
            for t in target.elts:
                assign_target(t, value, env)
            return
        try:
            vals = list(value)
        except TypeError:  # `a, [], b = 1, 2, 3`: the [] takes 2, which is no sequence
            raise ConvertError(f"cannot unpack {type(value).__name__ if isinstance(value, (int, float, str, bool)) else 'a value'} "
                               f"into {ast.unparse(target)}") from None
        if len(vals) != len(target.elts):
            raise ConvertError("tuple unpacking of the wrong length")
        for t, v in zip(target.elts, vals):
            assign_target(t, v, env)
    elif isinstance(target, ast.Attribute) and dotted(target):
        import tile_class  # `self.X = v` on a tile-task instance is stored on it (tile_class.py)
        if not tile_class.store(target, value, env):
            env[dotted(target)] = value
    elif isinstance(target, ast.Starred):
        raise ConvertError("starred assignment")


def names_of(target) -> list[str]:
    if isinstance(target, ast.Name):
        return [target.id]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for t in target.elts for n in names_of(t)]
    if isinstance(target, ast.Attribute) and dotted(target):
        return [dotted(target)]
    if isinstance(target, ast.Starred):
        return names_of(target.value)
    return []


def bind_arguments(fn: ast.FunctionDef, args: list, kwargs: dict, env: dict, ev: Evaluator) -> None:
    """Bind a call's arguments to `fn`'s parameters as Python does: positional, then keyword, then
    defaults; extra positional arguments form `*args` (a tuple), extra keywords `**kwargs` (a
    dict).  Extra arguments without such a parameter, or two values for one, are a TypeError in
    Python: a ConvertError here.  A parameter left without a value is Unresolved; a container
    holding an undetermined argument is undetermined as a whole (it would hand it out as a value)."""
    a = fn.args
    params = a.posonlyargs + a.args
    defaults = [None] * (len(params) - len(a.defaults)) + list(a.defaults)
    kwargs = dict(kwargs)
    for i, p in enumerate(params):
        if i < len(args):
            env[p.arg] = args[i]
            if p.arg in kwargs and p not in a.posonlyargs:
                raise ConvertError(f"{fn.name}() got multiple values for argument {p.arg!r}")
        elif p.arg in kwargs and p not in a.posonlyargs:
            env[p.arg] = kwargs.pop(p.arg)
        elif defaults[i] is not None:
            env[p.arg] = _safe_value(ev, defaults[i], p.arg, fn)
        else:
            env[p.arg] = Unresolved(p.arg, fn.lineno, f"parameter of {fn.name} not passed")
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        if p.arg in kwargs:
            env[p.arg] = kwargs.pop(p.arg)
        elif d is not None:
            env[p.arg] = _safe_value(ev, d, p.arg, fn)
        else:
            env[p.arg] = Unresolved(p.arg, fn.lineno, f"parameter of {fn.name} not passed")

    def packed(name, v, items):
        bad = next((x for x in items if isinstance(x, Unresolved)), None)
        return Unresolved(name, fn.lineno, f"an argument packed into {name} is not determined", bad) \
            if bad is not None else v

    extra = tuple(args[len(params):])
    if a.vararg is not None:  # def f(*rest): the positional arguments past the named ones
        env[a.vararg.arg] = packed(a.vararg.arg, extra, extra)
    elif extra:
        raise ConvertError(f"{fn.name}() takes {len(params)} positional arguments but {len(args)} were given")
    if a.kwarg is not None:  # def f(**rest): the keyword arguments no named parameter takes
        env[a.kwarg.arg] = packed(a.kwarg.arg, kwargs, kwargs.values())
    elif kwargs:
        raise ConvertError(f"{fn.name}() got an unexpected keyword argument {next(iter(kwargs))!r}")


def _safe_value(ev: Evaluator, node, name: str, fn) -> object:
    try:
        return ev.value(node)
    except UnresolvedError as e:
        return Unresolved(name, node.lineno, f"default of {fn.name}'s parameter depends on {e.item.name}", e.item)
    except (ConvertError, Exception) as e:  # noqa: BLE001 - any evaluation failure is "not determined"
        return Unresolved(name, node.lineno, f"default not evaluated statically ({e})")


def eval_or_unresolved(ev: Evaluator, node, name: str, line: int):
    """The value of `node`, or an Unresolved for `name` saying why not."""
    return call_or_unresolved(lambda: ev.value(node), name, line)


def call_or_unresolved(fn, name: str, line: int):
    """fn(), or an Unresolved for `name` saying why its static evaluation failed."""
    try:
        return fn()
    except UnresolvedError as e:
        return Unresolved(name, line, f"depends on {e.item.name}", e.item)
    except RecursionError:
        return Unresolved(name, line, "expression nests too deeply")
    except CodeRaises as e:
        return Unresolved(name, line, str(e))
    except (ConvertError, ArithmeticError, TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        return Unresolved(name, line, f"not evaluated statically: {e}")


def _quiet_value(ev, node):
    try:
        return ev.value(node)
    except Exception:  # noqa: BLE001 - not evaluable: not this form
        return None


def _builtin_isinstance(ev: "Evaluator", node: ast.Call):
    """`isinstance(v, C)` for a value v of a Python builtin type (int, float, str, bool, None,
    tuple, list, dict) and C a class imported from TVM (`from tvm.tirx import Expr`; a tuple of
    such classes too): False, since TVM's classes are tvm.runtime.Object subclasses, none of them
    a subclass of a builtin type (`ceildiv`'s `isinstance(a, Expr)` on a Python int).  None when
    not this form."""
    if len(node.args) != 2 or node.keywords or "isinstance" in ev.env:
        return None
    try:
        v = ev.value(node.args[0])
    except Exception:  # noqa: BLE001 - a value not fixed: not this form
        return None
    if v is not None and type(v) not in (int, float, str, bool, tuple, list, dict):
        return None
    cls = node.args[1]
    parts = cls.elts if isinstance(cls, ast.Tuple) else [cls]
    for c in parts:
        imp = ev.env.get(c.id) if isinstance(c, ast.Name) else None
        if not (isinstance(imp, Imported) and (imp.module == "tvm" or imp.module.startswith("tvm."))):
            return None
    return False


def _is_instance(node, ev: Evaluator) -> bool:
    """Does `node` name a configuration object (py_classes.DataInstance)?"""
    import mgr_pool
    try:
        return isinstance(ev.value(node), (py_classes.DataInstance, mgr_pool.PoolModel))
    except Exception:  # noqa: BLE001 - not evaluable: not such an object
        return False


MAX_STRAIGHT_ITERATIONS = MAX_ELEMENTS  # loop iterations one helper evaluation may run


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


def assigned_in(stmts) -> list[tuple[str, int]]:
    """(name, line) of every name the statements bind: assignments, augmented assignments,
    loop targets, `with ... as`, walrus."""
    out = []
    for sub in ast.walk(ast.Module(body=list(stmts), type_ignores=[])):
        targets = []
        if isinstance(sub, ast.Assign):
            targets = sub.targets
        elif isinstance(sub, (ast.AnnAssign, ast.AugAssign, ast.For, ast.AsyncFor)):
            targets = [sub.target]
        elif isinstance(sub, (ast.With, ast.AsyncWith)):
            targets = [i.optional_vars for i in sub.items if i.optional_vars is not None]
        elif isinstance(sub, ast.NamedExpr):
            targets = [sub.target]
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and \
                isinstance(sub.func.value, ast.Name) and sub.func.attr in set(LIST_METHODS) | set(DICT_METHODS):
            targets = [sub.func.value]  # cfg.update(...) / xs.append(...) changes cfg / xs in place
        for t in targets:
            while isinstance(t, ast.Subscript):
                t = t.value  # cfg[key] = v changes cfg (the container stored into)
            out.extend((n, sub.lineno) for n in names_of(t))
    return out


def _straight_value(ev: Evaluator, node, name: str, line: int):
    """A right-hand side in straight-line code: a list display is a Python list (mutable by
    `.append` / `.extend` further down, as in Python); everything else as eval_or_unresolved."""
    if isinstance(node, ast.List):
        v = eval_or_unresolved(ev, node, name, line)
        return _displays(node, v) if isinstance(v, (tuple, list)) else v
    return eval_or_unresolved(ev, node, name, line)


def _displays(node, v):
    """The containers a list display's elements write as Python builds them: a nested list display
    or list comprehension is a list, a dict display a dict whose values are converted alike (the
    evaluator's own values are immutable tuples; a manager's `self.tiles[t] = [-1, {"exclusive":
    []}, [0 for _ in range(n)]]` is then changed in place, base.py:255-259)."""
    if isinstance(node, ast.List) and isinstance(v, (tuple, list)):
        if any(isinstance(e, ast.Starred) for e in node.elts) or len(node.elts) != len(v):
            return list(v)
        return [_displays(e, x) for e, x in zip(node.elts, v)]
    if isinstance(node, ast.ListComp) and isinstance(v, (tuple, list)):
        return [_displays(node.elt, x) if isinstance(node.elt, (ast.List, ast.ListComp, ast.Dict)) else x for x in v]
    if isinstance(node, ast.Dict) and isinstance(v, dict) and all(isinstance(k, ast.Constant) for k in node.keys) \
            and len(node.keys) == len(v):
        return {k.value: _displays(vn, v[k.value]) for k, vn in zip(node.keys, node.values)}
    return v


LIST_METHODS = ("append", "extend", "insert", "pop", "sort", "reverse", "clear")
DICT_METHODS = ("update", "setdefault", "pop", "clear")


def _count_iteration(budget: list) -> None:
    """One more iteration of a loop in helper code: bounded per evaluation and per extraction
    (MAX_STRAIGHT_ITERATIONS / MAX_TOTAL_ITERATIONS at the top of this file); raises ConvertError past either."""
    budget[0] += 1
    SIBLINGS["iterations"] = SIBLINGS.get("iterations", 0) + 1
    if budget[0] > MAX_STRAIGHT_ITERATIONS:
        raise ConvertError(f"more than {MAX_STRAIGHT_ITERATIONS} loop iterations in one evaluation")
    if SIBLINGS["iterations"] > MAX_TOTAL_ITERATIONS:
        raise ConvertError(f"more than {MAX_TOTAL_ITERATIONS} loop iterations of helper code in this extraction")


def _run_iteration(body: list, env: dict, ev, budget: list) -> bool:
    """Run one iteration of a loop body; True when it ended in `break`."""
    try:
        run_straight(body, env, ev, budget)
    except _Continue:
        pass
    except _Break:
        return True
    return False


def run_straight(body: list, env: dict, ev: Evaluator, budget: list | None = None) -> None:
    """Execute straight-line code of a helper or a kernel builder as Python does: assignments
    (a list display is a mutable list), augmented assignments, ifs with decidable tests, `for`
    loops over values the source fixes (with break / continue / else; at most
    MAX_STRAIGHT_ITERATIONS iterations in one evaluation), `assert`, returns, raises (a
    CodeRaises), `x.append(...)`-style calls on local lists and dicts and method calls on
    configuration objects.  Names assigned under an undecidable test, in a loop over values
    the source does not fix, or in a statement not run here (while, with, try) become
    Unresolved, naming why; nothing is skipped silently."""
    if budget is None:
        budget = [0]
    for st in body:
        if isinstance(st, ast.Return):
            v = ev.value(st.value) if st.value is not None else None
            raise _Return(tuple(v) if isinstance(v, list) else v)
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Name):
            import reg_values  # a register array of helper code (reg_values.py)
            arr = reg_values.new_array(st.value, ev, st.lineno, st.targets[0].id)
            if arr is not None:
                env[st.targets[0].id] = arr
                continue
        if isinstance(st, ast.Expr) and __import__("reg_values").run(st, env, ev):
            continue
        if isinstance(st, ast.Assign):
            import tuple_return  # `a, b = helper(...)`: the helper's final tuple display element by element
            try:
                if len(st.targets) != 1:
                    raise tuple_return.NotThisForm("chained assignment")
                v = tuple_return.unpack(ev, st.targets[0], st.value, st.lineno)
            except tuple_return.NotThisForm:
                v = _straight_value(ev, st.value, "/".join(n for t in st.targets for n in names_of(t)), st.lineno)
            for t in st.targets:
                if isinstance(t, ast.Subscript):
                    try:
                        _store_item(t, v, ev, st.lineno)
                    except ConvertError as e:
                        # a store the evaluation does not model (os.environ["X"] = v): what it
                        # changes is not followed, so the stored-into name is no longer known
                        root = _root_name(t)
                        if root is None:
                            raise
                        u = Unresolved(root, st.lineno, f"stored into at line {st.lineno} "
                                       f"({ast.unparse(t)[:80]}), a store the evaluation does not follow: {e}")
                        if not _lose_member(t, env, u):
                            env[root] = u
                    continue
                try:
                    assign_target(t, v, env)
                except ConvertError as e:
                    for n in names_of(t):
                        env[n] = Unresolved(n, st.lineno, str(e))
        elif isinstance(st, ast.AnnAssign) and st.value is not None:
            v = _straight_value(ev, st.value, "/".join(names_of(st.target)), st.lineno)
            assign_target(st.target, v, env)
        elif isinstance(st, ast.AugAssign) and isinstance(st.op, ast.Add) and isinstance(st.target, ast.Name) and \
                isinstance(env.get(st.target.id), list):
            # `lst += seq` is list.extend(seq) in Python (any iterable; a display evaluates to a tuple here)
            v = eval_or_unresolved(ev, st.value, st.target.id, st.lineno)
            if isinstance(v, Unresolved):
                env[st.target.id] = Unresolved(st.target.id, st.lineno, f"extended at line {st.lineno} by a value "
                                               "the source does not fix", v)
            elif isinstance(v, (list, tuple, str, range)):
                env[st.target.id].extend(v)
                eval_limits.check(env[st.target.id])
            else:
                env[st.target.id] = Unresolved(st.target.id, st.lineno, f"extended at line {st.lineno} by a "
                                               f"{type(v).__name__}, not a sequence")
        elif isinstance(st, ast.AugAssign):
            expr = ast.BinOp(left=_load(st.target), op=st.op, right=st.value)
            ast.copy_location(expr, st)
            ast.fix_missing_locations(expr)
            v = eval_or_unresolved(ev, expr, "/".join(names_of(st.target)), st.lineno)
            if isinstance(st.target, ast.Subscript):
                _store_item(st.target, v, ev, st.lineno)
            else:
                assign_target(st.target, v, env)
        elif isinstance(st, ast.If):
            test = eval_or_unresolved(ev, st.test, "condition", st.lineno)
            if isinstance(test, Unresolved):
                _no_exit_under(st.body + st.orelse, f"the condition at line {st.lineno}, which depends on "
                               f"{test.root().name}", test)
                for n, line in assigned_in(st.body + st.orelse):
                    env[n] = Unresolved(n, line, f"assigned under the condition at line {st.lineno}, which depends "
                                        f"on {test.root().name}", test)
            else:
                run_straight(st.body if test else st.orelse, env, ev, budget)
        elif isinstance(st, ast.For):
            items = eval_or_unresolved(ev, st.iter, "loop", st.lineno)
            if isinstance(items, Unresolved) or not isinstance(items, (tuple, list, dict, str, frozenset, range)):
                why = items.root().name if isinstance(items, Unresolved) else "a value that is not a sequence"
                _no_exit_under(st.body + st.orelse, f"the loop at line {st.lineno}, whose values depend on {why}",
                               items if isinstance(items, Unresolved) else None, loop=True)
                for n, line in assigned_in([st]):
                    env[n] = Unresolved(n, line, f"assigned in the loop at line {st.lineno}, whose values depend on "
                                        f"{why}", items if isinstance(items, Unresolved) else None)
                continue
            broke = False
            for item in list(items):
                _count_iteration(budget)
                assign_target(st.target, item, env)
                if _run_iteration(st.body, env, ev, budget):
                    broke = True
                    break
            if not broke:
                run_straight(st.orelse, env, ev, budget)
        elif isinstance(st, ast.While):
            broke = False
            while True:
                test = eval_or_unresolved(ev, st.test, "condition", st.lineno)
                if isinstance(test, Unresolved):
                    # from here on the loop's effect is not determined
                    _no_exit_under(st.body + st.orelse, f"the while loop at line {st.lineno}, whose condition "
                                   f"depends on {test.root().name}", test, loop=True)
                    for n, line in assigned_in(st.body + st.orelse):
                        env[n] = Unresolved(n, line, f"assigned in the while loop at line {st.lineno}, whose "
                                            f"condition depends on {test.root().name}", test)
                    broke = True
                    break
                if not test:
                    break
                _count_iteration(budget)
                if _run_iteration(st.body, env, ev, budget):
                    broke = True
                    break
            if not broke:
                run_straight(st.orelse, env, ev, budget)
        elif isinstance(st, ast.Break):
            raise _Break()
        elif isinstance(st, ast.Continue):
            raise _Continue()
        elif isinstance(st, ast.Assert):
            ok = eval_or_unresolved(ev, st.test, "assertion", st.lineno)
            if not isinstance(ok, Unresolved) and not ok:
                raise CodeRaises(f"the file's own assert at line {st.lineno} fails at this configuration"
                                 + (f": {ast.unparse(st.msg)[:160]}" if st.msg is not None else ""))
        elif isinstance(st, ast.Raise):
            raise CodeRaises(f"the file's own code raises at line {st.lineno} at this configuration" +
                             (f": {ast.unparse(st.exc)[:160]}" if st.exc is not None else ""))
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                isinstance(st.value.func, ast.Attribute) and _is_instance(st.value.func.value, ev):
            ev.value(st.value)  # cfg.validate(): a method of a configuration object, run (it may raise)
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                isinstance(st.value.func, ast.Attribute) and isinstance(st.value.func.value, ast.Name) and \
                (isinstance(env.get(st.value.func.value.id), list) and st.value.func.attr in LIST_METHODS or
                 isinstance(env.get(st.value.func.value.id), dict) and st.value.func.attr in DICT_METHODS):
            # a local list (a list display) or dict changed in place, as Python does (aliases see it)
            obj, name = env[st.value.func.value.id], st.value.func.value.id
            try:
                args, kwargs = ev.call_args(st.value)
                getattr(obj, st.value.func.attr)(*args, **kwargs)
                if isinstance(obj, list):
                    _bounded(len(obj), "list")
            except UnresolvedError as e:
                env[name] = Unresolved(name, st.lineno, f"changed by {name}.{st.value.func.attr}(...) with arguments "
                                       "the source does not fix", e.item)
            except (ConvertError, TypeError, ValueError, KeyError, IndexError) as e:
                env[name] = Unresolved(name, st.lineno, f"changed in place by {name}.{st.value.func.attr}(...): {e}")
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                isinstance(st.value.func, ast.Attribute) and isinstance(st.value.func.value, ast.Name) and \
                isinstance(env.get(st.value.func.value.id), (dict, list, tuple)):
            mutate_in_place(st.value, env, ev)  # any other method of a container: followed or unresolved
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                isinstance(st.value.func, ast.Attribute) and st.value.func.attr in LIST_METHODS and \
                isinstance(st.value.func.value, ast.Subscript) and \
                isinstance(_quiet_value(ev, st.value.func.value), list):
            # `self.tiles[t][1]["shared"].append(x)`: a list built by a display, reached by subscripts,
            # changed in place as Python does
            args, kwargs = ev.call_args(st.value)
            obj = ev.value(st.value.func.value)
            getattr(obj, st.value.func.attr)(*args, **kwargs)
            _bounded(len(obj), "list")
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and host_torch.is_effect(st.value, env):
            host_torch.run_effect(st.value, env, ev)  # a host tensor-map encoder call fills its place
        elif isinstance(st, ast.FunctionDef):
            env[st.name] = FuncValue(st, env)
        elif isinstance(st, (ast.Import, ast.ImportFrom)):
            bind_imports(st, env)
        elif isinstance(st, (ast.With, ast.AsyncWith, ast.Try, ast.AsyncFor)) or \
                type(st).__name__ in ("Match", "TryStar"):
            _no_exit_under([st], f"a {type(st).__name__.lower()} statement at line {st.lineno}, which the "
                           "static evaluation does not run", None)
            for n, line in assigned_in([st]):
                env[n] = Unresolved(n, line, f"assigned in a {type(st).__name__.lower()} statement at line "
                                    f"{st.lineno}, which the static evaluation does not run")


def _control_exits(stmts, in_loop: bool = False):
    """`return` statements in `stmts`, and `break` / `continue` that leave them (not those of a
    loop inside), not looking into nested functions or classes."""
    for st in stmts:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(st, ast.Return) or isinstance(st, (ast.Break, ast.Continue)) and not in_loop:
            yield st
            continue
        loop = isinstance(st, (ast.For, ast.AsyncFor, ast.While))
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            sub = getattr(st, field, None)
            if isinstance(sub, list):
                inner = [x for x in sub if isinstance(x, ast.stmt)]
                for h in sub:
                    if not isinstance(h, ast.stmt) and hasattr(h, "body"):
                        inner.extend(h.body)  # except handlers, match cases
                yield from _control_exits(inner, in_loop or (loop and field == "body"))


def _no_exit_under(stmts, where: str, cause, loop: bool = False) -> None:
    """Code that the evaluation does not run (an undecided branch or loop, a while/with/try) must not
    decide the function's control flow: a `return` in it (or a `break` / `continue` leaving it)
    makes the result undetermined, never the value of the code after it."""
    for ex in _control_exits(stmts, in_loop=loop):
        what = "return" if isinstance(ex, ast.Return) else type(ex).__name__.lower()
        raise UnresolvedError(Unresolved(f"{what} at line {ex.lineno}", ex.lineno, f"a {what} under {where}: "
                                         "which way the function leaves is not determined", cause))


def _load(target):
    """The target of an augmented assignment as an expression (its current value)."""
    t = ast.parse(ast.unparse(target), mode="eval").body
    return ast.copy_location(t, target)


def _lose_member(target, env: dict, u) -> bool:
    """A store not followed into `recv.X[...]` where recv is a class instance (tile_class): the
    object is shared with every method, so its attribute X is what becomes unknown, not only this
    function's name for it.  True when so."""
    import tile_class
    node = target
    while isinstance(node, ast.Subscript):
        node = node.value
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            isinstance(env.get(node.value.id), (tile_class.Instance, tile_class.ClassValue)):
        env[node.value.id].attrs[node.attr] = Unresolved(f"{node.value.id}.{node.attr}", u.line, u.reason)
        return True
    return False


def _root_name(node):
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _store_item(target: ast.Subscript, value, ev: Evaluator, line: int) -> None:
    """`d[k] = v` on a local dict or list the source fixes; else a ConvertError."""
    obj = ev.value(target.value)
    if isinstance(obj, host_torch.HostTensor):
        return  # `t[...] = v` changes a host tensor's values only, which are not modelled (host_torch.py)
    if isinstance(obj, (dict, list)) and not isinstance(target.slice, ast.Slice):
        key = ev.value(target.slice)
        if isinstance(key, Unresolved):
            raise UnresolvedError(key)
        obj[key] = value  # an Unresolved value is stored as such: a later read of the item names it
        return
    if isinstance(value, Unresolved):
        raise UnresolvedError(value)
    raise ConvertError(f"line {line}: item assignment to {ast.unparse(target.value)!r}, not a local dict or list")


def mutate_in_place(call: ast.Call, env: dict, ev: Evaluator) -> None:
    """`spec.update({...})`, `xs.append(v)`, `xs.extend(vs)` as statements of a helper: the name is
    rebound to the changed value (values are kept immutable: the new dict/tuple is a copy).  Any
    other method call on a dict or list as a statement, or arguments the source does not fix, make
    the name unresolved (its value after the call is not followed) -- never the old value kept."""
    name, meth, line = call.func.value.id, call.func.attr, call.lineno
    old = env[name]
    try:
        args = [ev.value(a) for a in call.args]
        kw = {k.arg: ev.value(k.value) for k in call.keywords if k.arg is not None}
        if any(k.arg is None for k in call.keywords):
            raise ConvertError("**arguments")
        if isinstance(old, dict) and meth == "update" and len(args) <= 1:
            new = dict(old)
            if args:
                if not isinstance(args[0], dict):
                    raise ConvertError("update() of a non-dict")
                new.update(args[0])
            new.update(kw)
        elif isinstance(old, (list, tuple)) and meth == "append" and len(args) == 1 and not kw:
            new = type(old)(list(old) + [args[0]])
        elif isinstance(old, (list, tuple)) and meth == "extend" and len(args) == 1 and not kw and \
                isinstance(args[0], (list, tuple)):
            new = type(old)(list(old) + list(args[0]))
        else:
            raise ConvertError(f"{meth}() is not followed")
        _bounded(len(new), meth)
        env[name] = new
    except UnresolvedError as e:
        env[name] = Unresolved(name, line, f"changed by {name}.{meth}(...) with arguments the source does not fix",
                               e.item)
    except ConvertError as e:
        env[name] = Unresolved(name, line, f"changed in place by {name}.{meth}(...): {e}")


KNOWN_MODULE_HEADS = ("tvm", "tirx_kernels.kern")


# Sibling modules: a relative import (`from . import X as Y`, `from .X import a`) names a file in
# the kernel file's own directory.  It is read (at most MAX_SIBLING_BYTES, UTF-8) and its
# module-level names evaluated like the kernel file's, at most MAX_SIBLING_DEPTH imports deep;
# a file that is missing, unreadable or not Python leaves the names Imported (undetermined).
MAX_SIBLING_BYTES = 4 << 20
MAX_SIBLING_DEPTH = 2
SIBLINGS = {"dir": None, "cache": {}, "loading": set(), "depth": 0}


def set_source_dir(path: str | None) -> None:
    SIBLINGS["dir"] = path
    SIBLINGS["cache"] = {}
    SIBLINGS["loading"] = set()
    SIBLINGS["stack"] = []
    SIBLINGS["iterations"] = 0


def _current_dir():
    """The directory relative imports name: the module being read's own, else the kernel file's."""
    return SIBLINGS["stack"][-1] if SIBLINGS.get("stack") else SIBLINGS["dir"]


DIR_KEY = "__dir__"  # a module environment's own directory (a module read from another directory)


def sibling_module(name: str, base: str | None = None):
    """The ModuleValue of `name` (a module in the importing file's directory `base`, else the one
    being read, else the kernel file's), or None.  A directory `name/` with an `__init__.py` is a
    subpackage: its `__init__.py` is the module (Python's package import)."""
    d = base or _current_dir()
    if d is None or not name or "." in name or "/" in name or name.startswith("_") and name == "__init__":
        return None
    path = os.path.join(d, name + ".py")
    if not os.path.isfile(path) and os.path.isfile(os.path.join(d, name, "__init__.py")):
        return _load_module(os.path.join(d, name, "__init__.py"), name, f"{name}/__init__.py")
    label = name + ".py" if d == SIBLINGS["dir"] else None
    return _load_module(path, name, label)


# Absolute imports of the kernel's own repository (`from tirx_kernels.runner import X`): read when
# the package's directory is next to an ancestor of the kernel file's directory (a checkout, or
# compare_models.py's scratch tree), at most MAX_PACKAGE_UP levels up.  The builder DSL
# (tirx_kernels.kern) and TVM are never read: their names are the notation's vocabulary.
MAX_PACKAGE_UP = 6
NOT_READ_PACKAGES = ("tirx_kernels.kern", "tvm")


def package_module(dotted_name: str):
    """The ModuleValue of an absolutely imported module of the kernel's repository, or None."""
    d = SIBLINGS["dir"]
    if d is None or not dotted_name or any(dotted_name == p or dotted_name.startswith(p + ".")
                                           for p in NOT_READ_PACKAGES):
        return None
    parts = dotted_name.split(".")
    if not all(p.isidentifier() for p in parts):
        return None
    base = os.path.abspath(d)
    for _ in range(MAX_PACKAGE_UP + 1):
        for rel in (os.path.join(*parts) + ".py", os.path.join(*parts, "__init__.py")):
            path = os.path.join(base, rel)
            if os.path.isfile(path):
                return _load_module(path, parts[-1], rel.replace(os.sep, "/"))
        up = os.path.dirname(base)
        if up == base:
            break
        base = up
    return None


def _load_module(path: str, name: str, label: str | None):
    """Read and evaluate a module file (at most MAX_SIBLING_BYTES, UTF-8, valid Python) at most
    MAX_SIBLING_DEPTH imports deep, cycles cut; None when it cannot be read."""
    cache = SIBLINGS["cache"]
    key = os.path.abspath(path)
    if key in cache:
        return cache[key]
    if key in SIBLINGS["loading"] or SIBLINGS["depth"] >= MAX_SIBLING_DEPTH:
        return None
    label = label or os.path.basename(path)
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > MAX_SIBLING_BYTES:
            cache[key] = None
            return None
        with open(path, "rb") as fh:
            tree = ast.parse(fh.read().decode("utf-8"), filename=label)
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError, MemoryError):
        cache[key] = None
        return None
    SIBLINGS["loading"].add(key)
    SIBLINGS["depth"] += 1
    SIBLINGS.setdefault("stack", []).append(os.path.dirname(key))
    try:
        env = module_names(tree, label, os.path.dirname(key))
    finally:
        SIBLINGS["stack"].pop()
        SIBLINGS["depth"] -= 1
        SIBLINGS["loading"].discard(key)
    mv = ModuleValue(name, label, env)
    cache[key] = mv
    return mv


class EnumMember:
    """A member of an `Enum` class of the file whose members are integer/string constants:
    `TaskType.GEMM.value`."""

    def __init__(self, cls: str, name: str, value):
        self.cls, self.name, self.value = cls, name, value


class IntEnumMember(int, EnumMember):
    """A member of an `IntEnum` class: also the integer itself, as in Python (`int(WarpRole.TMA)`,
    `warp_id == WarpRole.MMA`, `WarpRole.TMA + 1`)."""

    def __new__(cls, enum_cls: str, name: str, value: int):
        return int.__new__(cls, value)


class EnumClass(dict):
    """An Enum class of the file: {member name: EnumMember}; calling it with a value is the
    member with that value (Enum's lookup by value, `ModelType("V32")`), a member itself
    gives the member, any other value is a ValueError in Python (a ConvertError here)."""

    def __init__(self, name: str):
        super().__init__()
        self.name = name
        self.methods, self.properties, self.env = {}, set(), {}  # defs of the class body (enum_member_attr)

    def __call__(self, value):
        if isinstance(value, EnumMember) and value.cls == self.name:
            return value
        for m in self.values():
            if m.value == value and type(m.value) is type(value):
                return m
        raise ConvertError(f"{value!r} is not a valid {self.name} (a ValueError in Python)")


def enum_class(st: ast.ClassDef, ev: "Evaluator"):
    """{member: EnumMember} for `class X(Enum | IntEnum): A = 0 ...` with constant members; else None."""
    bases = {(dotted(b) or "").split(".")[-1] for b in st.bases}
    if not bases & {"Enum", "IntEnum"}:
        return None
    members = EnumClass(st.name)
    members.env = ev.env
    for b in st.body:
        if isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant):
            continue  # docstring
        if isinstance(b, ast.FunctionDef):
            # a method or @property of the enum: run on a member (`self`) when read (enum_member_attr)
            decos = {(dotted(d) or "") for d in b.decorator_list}
            if decos - {"property"}:
                return None
            members.methods[b.name] = b
            if decos:
                members.properties.add(b.name)
            continue
        if not (isinstance(b, ast.Assign) and len(b.targets) == 1 and isinstance(b.targets[0], ast.Name) and
                isinstance(b.value, ast.Constant) and isinstance(b.value.value, (int, str))):
            return None
        kind = IntEnumMember if "IntEnum" in bases and type(b.value.value) is int else EnumMember
        members[b.targets[0].id] = kind(st.name, b.targets[0].id, b.value.value)
    for m in members.values():
        m.enum = members
    return members


def enum_member_attr(member, attr: str, ev):
    """`member.prop` / `member.method(...)` of an Enum class with methods: the def's body run with
    `self` the member, in the class's defining environment (Python's attribute lookup on an enum
    member); NotImplemented when the class defines no such name."""
    cls = getattr(member, "enum", None)
    if cls is None or attr not in cls.methods:
        return NotImplemented
    import py_classes
    fn = cls.methods[attr]
    if attr in cls.properties:
        return py_classes.run_function(fn, cls.env, [member], {}, ev)
    return lambda *a, **k: py_classes.run_function(fn, cls.env, [member] + list(a), k, ev)


def class_value(st: ast.ClassDef, env: dict, ev: "Evaluator", why: str):
    """A class of the file: an Enum's members, a @dataclass (py_classes.DataclassDef), else an
    Unresolved saying why."""
    members = enum_class(st, ev)
    if members is not None:
        return members
    hc = host_torch.storage_class(st)  # a host storage class (a tensor-map payload holder)
    if hc is not None:
        return hc
    dc = py_classes.dataclass_def(st, env)
    if dc is not None:
        return dc
    import tile_class  # a plain class (a megakernel tile task): its attributes and methods (tile_class.py)
    if (not st.decorator_list or tile_class.meta_decorated(st)) and not st.keywords:
        return tile_class.ClassValue(st, env, [env.get(b.id) if isinstance(b, ast.Name) else None
                                               for b in st.bases])
    u = Unresolved(st.name, st.lineno, why)
    if st.decorator_list:  # (tile_class.ClassValue.unread_bases says so)
        u.decorated = "decorated " + ", ".join("@" + ast.unparse(d) for d in st.decorator_list) + "; "
    return u


TIR_SCALARS = {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
               "float64", "bfloat16", "bool"}


# the kern DSL's short names of the same types (K.i32 = int32, ...; tirx_kernels/kern/__init__.py)
KERN_SCALARS = {"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "f32", "f64", "bf16"}


def runtime_scalar_reason(p: ast.arg, fn_name: str) -> str | None:
    """For a kernel parameter annotated with a TIR scalar type (`seq_len: T.uint32`): the reason
    it is unresolved (a value given at launch); None for other parameters."""
    ann = p.annotation
    d = strip_builder(dotted(ann) or "") if isinstance(ann, (ast.Name, ast.Attribute)) else ""
    if d in ("TensorMap", "K.TensorMap") or d.endswith(".TensorMap"):
        return (f"a tensor-map parameter of {fn_name} ({ast.unparse(ann)}): the host builds it at launch and "
                "passes it in; only maps encoded in the kernel's own code (cuTensorMapEncodeTiled) are read")
    if (d in TIR_SCALARS or d.split(".")[-1] in KERN_SCALARS) and (dotted(ann) or "").startswith(("T.", "Tx.", "K.")):
        return (f"a runtime scalar parameter of {fn_name} ({ast.unparse(ann)}): its value is passed at launch, "
                "not fixed by the source (--param fixes it)")
    return None


def bind_targets(targets, value, env: dict, line: int) -> None:
    """Assign `value` to each assignment target; a target it cannot take leaves its names
    unresolved with the reason (line = the assignment's)."""
    for t in targets:
        try:
            assign_target(t, value, env)
        except ConvertError as e:
            for n in names_of(t):
                env[n] = Unresolved(n, line, str(e))


def module_names(tree: ast.Module, file: str, directory: str | None = None) -> dict:
    """Module-level names of a sibling file: constants, functions, classes, imports, and every other
    statement run as module_exec runs the kernel file's (item stores, `__all__ += [...]`, ifs).  The
    environment records the module's directory (DIR_KEY), so a relative import inside one of its
    functions names a module next to it."""
    env: dict = {FILE_KEY: file}
    if directory is not None:
        env[DIR_KEY] = directory
    import module_exec
    for st in tree.body:
        ev = Evaluator(env)
        if isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None and \
                not any(isinstance(n, ast.Subscript) for t in (st.targets if isinstance(st, ast.Assign) else
                                                               [st.target]) for n in ast.walk(t)):
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            v = eval_or_unresolved(ev, st.value, "/".join(n for t in targets for n in names_of(t)), st.lineno)
            bind_targets(targets, v, env, st.lineno)
        elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            env[st.name] = FuncValue(st, env, file)
        elif isinstance(st, ast.ClassDef):
            env[st.name] = class_value(st, env, ev, f"a class in {file} (not evaluated: only Enum and @dataclass "
                                       "classes are)")
        elif isinstance(st, (ast.Import, ast.ImportFrom)):
            bind_imports(st, env)
        elif not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant)):
            # every other statement as Python runs it at import (module_exec.py): an item store into
            # a container another module shares (`CONFIG["ROWS"] = 64` on a dict imported from a
            # sibling), a method call that changes one, if/for/while, del -- or the names it may
            # change made unresolved; before, such statements of a sibling module were skipped and
            # a reader of the container saw its value from before them
            module_exec.run_statement(st, env, ev)
    return env


def star_names(mv) -> list:
    """The names `from M import *` binds (Python's import statement): M's `__all__` when it is a
    list or tuple of strings, else its names that do not start with an underscore; None when M
    defines an `__all__` the evaluation did not fix."""
    if "__all__" in mv.env:
        a = mv.env["__all__"]
        if isinstance(a, (list, tuple)) and all(isinstance(x, str) for x in a):
            return list(a)
        return None
    return [n for n in mv.env if not n.startswith("_")]


def bind_imports(st, env: dict) -> None:
    """Imported names are Imported markers; the builder namespaces (T, Tx, K, ...) stay unbound
    so that the notation vocabulary (T.S, K.SW128B, SwizzleMode...) resolves them.  Relative
    imports of a sibling module bind its names (sibling_module)."""
    if isinstance(st, ast.ImportFrom) and st.level == 1:
        base = env.get(DIR_KEY)
        if st.module is not None and [a.name for a in st.names] == ["*"]:
            mv = sibling_module(st.module, base)
            names = star_names(mv) if mv is not None else None
            for n in names or ():
                if n in mv.env:
                    env[n] = mv.env[n]
            return
        for a in st.names:
            bound = a.asname or a.name
            if st.module is None:
                mv = sibling_module(a.name, base)
                env[bound] = mv if mv is not None else Imported(f".{a.name}", a.name, st.lineno)
            else:
                mv = sibling_module(st.module, base)
                if mv is not None and a.name in mv.env and not isinstance(mv.env[a.name], Imported):
                    env[bound] = mv.env[a.name]
                else:
                    env[bound] = Imported(f".{st.module}", a.name, st.lineno)
        return
    if isinstance(st, ast.Import):
        for a in st.names:
            if a.asname and a.asname not in cn.BUILDER_PREFIXES and a.asname not in ("K", "Kern"):
                mv = package_module(a.name)
                env[a.asname] = mv if mv is not None else Imported(a.name, a.asname, st.lineno)
            elif a.asname is None and "." not in a.name and a.name not in cn.BUILDER_PREFIXES and \
                    a.name not in env:
                # `import sys`: the module's name is bound (its members are not read), so a use says
                # where it comes from instead of "not defined"
                env[a.name] = Imported(a.name, a.name, st.lineno)
        return
    mod = st.module or ""
    for a in st.names:
        bound = a.asname or a.name
        if bound in cn.BUILDER_PREFIXES or bound in ("K", "Kern", "SwizzleMode", "Axis", "DataType"):
            continue
        if st.level == 0 and mod and (mod, a.name) not in target_facts.TARGET_FUNCS:
            # (a function that answers a fact of the target, target_facts.py, is that fact, not
            # its body: hardware_num_sms reads process state)
            mv = package_module(mod)
            if mv is not None and a.name in mv.env and not isinstance(mv.env[a.name], Imported):
                env[bound] = mv.env[a.name]  # a name of a module of the kernel's own repository
                continue
            sub = package_module(f"{mod}.{a.name}")
            if sub is not None:
                env[bound] = sub  # `from pkg import module`
                continue
        env[bound] = Imported(mod, a.name, st.lineno)
