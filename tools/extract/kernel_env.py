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
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "corpus"))

import corpus_notation as cn  # noqa: E402  (reused: the translator and the notation vocabulary)
import eval_limits  # noqa: E402  (bounds on the values built: no runaway integers or strings)
from corpus_notation import ConvertError, Translator, dotted, strip_builder  # noqa: E402
from warps import ThreadIndex  # noqa: E402
import kern_forms  # noqa: E402  (kern DSL roles, loop frames, stage views)
import target_facts  # noqa: E402  (facts of the target machine: hardware_num_sms())
import tvm_classes  # noqa: E402  (TVM's PipelineState / SmemDescriptor, as TVM defines them)

# Limits that keep a hostile file bounded: a comprehension or range evaluated statically may
# produce at most this many elements, helper calls nest at most this deep.
MAX_ELEMENTS = 100_000
MAX_CALL_DEPTH = 8


KERN_INT_OPS = {"shift_right": lambda a, b: a >> b, "shift_left": lambda a, b: a << b,
                "bitwise_and": lambda a, b: a & b, "bitwise_or": lambda a, b: a | b,
                "bitwise_xor": lambda a, b: a ^ b}
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
        # an element of a model buffer (e.g. the registers of a fragment's X.local() view passed
        # one by one to a raw instruction) is a runtime value, not a register array's slot
        raise ConvertError(f"{self.name}[...] names elements of the model buffer {self.name} (a {self.scope} "
                           "buffer, e.g. a fragment's local() view), not registers of a register array")


def import_reason(v: "Imported") -> str:
    if v.module.startswith("."):
        return (f"imported from {v.module}, a sibling module that is not in the kernel file's directory or "
                "is not valid Python (or does not define it)")
    return f"imported from {v.module} (only sibling modules are read)"


class _Return(Exception):
    def __init__(self, value):
        self.value = value


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
            if isinstance(v, ThreadIndex):
                if self.thread is not None:
                    return v.at(*self.thread)
                u = Unresolved(name, v.line, "a thread index (a runtime value; a branch on it selects warps)")
                u.thread = True
                raise UnresolvedError(u)
            if isinstance(v, Unresolved):
                if self.thread is not None and v.expr is not None:
                    node, env = v.expr
                    return Evaluator(env, self.depth, self.thread).value(node)
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
            d = dotted(node)
            head = d.split(".")[0] if d else None
            if d is None or (d not in self.env and head in self.env and
                             not isinstance(self.env[head], (Imported, Unresolved))):
                return self.attr_of(self.value(node.value), node.attr, node)
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, (ast.ListComp, ast.GeneratorExp)):
            return tuple(self.comprehension(node))
        if isinstance(node, ast.DictComp):  # {k: v for ...}: the pairs, evaluated like a list comprehension
            pairs = self.comprehension(ast.ListComp(elt=ast.Tuple(elts=[node.key, node.value], ctx=ast.Load()),
                                                    generators=node.generators))
            return dict(pairs)
        if isinstance(node, ast.JoinedStr):
            parts = []
            for v in node.values:
                parts.append(v.value if isinstance(v, ast.Constant) else str(self.value(v.value)))
            return "".join(parts)
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
        if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitAnd, ast.BitOr, ast.BitXor, ast.Div)):
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
        if isinstance(base, dict) and attr in base and isinstance(base[attr], EnumMember):
            return base[attr]
        if isinstance(base, EnumMember) and attr in ("value", "name"):
            return getattr(base, attr)
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
        if isinstance(base, dict) and attr in ("get", "keys", "values", "items"):
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
        import tmem_ops  # TMEM address arithmetic: get_tmem_addr, casts of an address (tmem_ops.py)
        v = tmem_ops.eval_call(self, node, short)
        if v is not tmem_ops.NOT_HANDLED:
            return v
        if short in ("meta_var",) and len(node.args) == 1:
            return self.value(node.args[0])
        if short in ("cast", "reinterpret_cast") and len(node.args) == 2 and fname.startswith(("cast", "T.", "Tx.", "K.")):
            v = self.value(node.args[0])  # Tx.cast(x, "uint32") of an integer is the integer
            if isinstance(v, int) and not isinstance(v, bool):
                return int(v)
            raise ConvertError(f"{ast.unparse(node)!r}: a cast of a non-integer")
        if short == "filter" and len(node.args) == 2 and fname in ("filter", "T.filter", "Tx.filter"):
            return self.value(node.args[1])  # Tx.filter(lane_id, elect_sync()): the predicate's value
        if short == "address_of" and len(node.args) == 1:
            return self.value(node.args[0])  # the object itself (a tensor map, a descriptor)
        if short in ("uint32", "int32", "uint64", "int64") and len(node.args) == 1 and not node.keywords:
            v = self.value(node.args[0])
            if isinstance(v, int):
                return int(v)
        if fname in ("tvm.tirx.any", "tirx.any", "tvm.tir.any") and node.args and not node.keywords:
            # the Or of its arguments (apache/tvm 5d4dc87 python/tvm/tirx/op.py:1206-1229)
            return any(bool(self.value(a)) for a in node.args)
        if fname in ("tvm.tirx.all", "tirx.all", "tvm.tir.all") and node.args and not node.keywords:
            return all(bool(self.value(a)) for a in node.args)
        if fname == "ptx.pred" and len(node.args) == 1:
            # tags an operand as a .pred register; its value is the operand's
            # (python/tvm/backend/cuda/ptx/engine.py:892-895)
            return self.value(node.args[0])
        if fname == "os.environ.get" and len(node.args) == 2:
            # the value with the variable unset: the file's own default (--param NAME overrides)
            return self.value(node.args[1])
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
        if fname.startswith(("K.", "Kern.")) and short in ("thread_id", "warp_id", "lane_id") and \
                not node.keywords:
            # a kern thread index used inside an expression (`K.cast(K.thread_id(), "uint32")`)
            import warps as _w
            decl = _w.thread_decl(node, self)
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
        if short in KERN_INT_OPS and fname.startswith(("K.", "Kern.", "T.")) and len(node.args) == 2:
            # kern DSL integer ops on values the source fixes (an address's row arithmetic)
            a, b = (self.value(x) for x in node.args)
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in (a, b)):
                raise ConvertError(f"{ast.unparse(node)!r}: {short} of non-integers")
            return KERN_INT_OPS[short](a, b)
        if short in KERN_CONSTS and fname.startswith(("K.", "Kern.", "T.")) and len(node.args) == 1 and \
                not node.keywords:
            # K.int32(2), K.float32(0.0): a typed constant; its value is the number
            v = self.value(node.args[0])
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
            raise ConvertError("isinstance is not evaluated")
        if fname in ("abs", "sum", "any", "all", "sorted", "reversed", "enumerate", "zip"):
            args = [self.value(a) for a in node.args]
            v = {"abs": abs, "sum": sum, "any": any, "all": all, "sorted": sorted,
                 "reversed": lambda x: list(reversed(x)), "enumerate": lambda x: list(enumerate(x)),
                 "zip": lambda *x: list(zip(*x))}[fname](*args)
            return tuple(v) if isinstance(v, list) else v
        if fname in ("math.prod", "prod"):
            return math.prod(self.value(node.args[0]))
        if fname in ("math.ceil", "ceil"):
            return math.ceil(self.value(node.args[0]))
        if isinstance(node.func, ast.Name) and isinstance(self.env.get(node.func.id), FuncValue):
            return self.call_helper(self.env[node.func.id], node)
        return super().value(node)

    def _lazy(self, node):
        """An argument's value, or its Unresolved: the helper fails only if it uses it (Python's
        `a or b` in the helper may never read b: `4 if K <= 1024 or ctas > 2 * num_sms else 8`)."""
        try:
            return self.value(node)
        except UnresolvedError as e:
            return e.item

    def call_helper(self, fv: FuncValue, node: ast.Call):
        """One level of helper calls: run a helper defined in the file on concrete arguments."""
        if self.depth >= MAX_CALL_DEPTH:
            raise ConvertError(f"helper calls nest deeper than {MAX_CALL_DEPTH}")
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):  # f(*xs): the elements of a tuple the source fixes
                v = self.value(a.value)
                if not isinstance(v, (list, tuple)):
                    raise ConvertError(f"{ast.unparse(a)!r}: *argument that is not a sequence")
                args.extend(v)
            else:
                args.append(self._lazy(a))
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:  # f(**d): the items of a dict the source fixes
                d = self.value(k.value)
                if not isinstance(d, dict):
                    raise ConvertError(f"**{ast.unparse(k.value)}: not a dict")
                kwargs.update(d)
            else:
                kwargs[k.arg] = self._lazy(k.value)
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
                out.append(Evaluator(env, self.depth).value(node.elt))
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
        if isinstance(node, (ast.Name, ast.Attribute)):
            name = dotted(node)
            v = self.env.get(name) if name else None
            if isinstance(v, LayoutExpr):
                return self.layout(v.node)
            if isinstance(v, Unresolved):
                raise UnresolvedError(v)
            if name is not None and v is None and name not in self.env:
                self.lookup(name)  # raises the precise reason
        return super().layout(node)


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
    a = fn.args
    params = a.posonlyargs + a.args
    defaults = [None] * (len(params) - len(a.defaults)) + list(a.defaults)
    for i, p in enumerate(params):
        if i < len(args):
            env[p.arg] = args[i]
        elif p.arg in kwargs:
            env[p.arg] = kwargs[p.arg]
        elif defaults[i] is not None:
            env[p.arg] = _safe_value(ev, defaults[i], p.arg, fn)
        else:
            env[p.arg] = Unresolved(p.arg, fn.lineno, f"parameter of {fn.name} not passed")
    def packed(name, v, items):
        # a container holding an undetermined argument would hand it out as a value: the whole
        # name is undetermined instead
        bad = next((x for x in items if isinstance(x, Unresolved)), None)
        return Unresolved(name, fn.lineno, f"an argument packed into {name} is not determined", bad) \
            if bad is not None else v
    if a.vararg is not None:  # def f(*rest): the positional arguments past the named ones
        rest = tuple(args[len(params):])
        env[a.vararg.arg] = packed(a.vararg.arg, rest, rest)
    elif len(args) > len(params):
        raise ConvertError(f"{fn.name}() takes {len(params)} positional arguments, {len(args)} given")
    if a.kwarg is not None:  # def f(**rest): the keyword arguments no named parameter takes
        named = {p.arg for p in params + a.kwonlyargs}
        rest = {k: v for k, v in kwargs.items() if k not in named}
        env[a.kwarg.arg] = packed(a.kwarg.arg, rest, rest.values())
    for p, d in zip(a.kwonlyargs, a.kw_defaults):
        if p.arg in kwargs:
            env[p.arg] = kwargs[p.arg]
        elif d is not None:
            env[p.arg] = _safe_value(ev, d, p.arg, fn)
        else:
            env[p.arg] = Unresolved(p.arg, fn.lineno, f"parameter of {fn.name} not passed")


def _safe_value(ev: Evaluator, node, name: str, fn) -> object:
    try:
        return ev.value(node)
    except UnresolvedError as e:
        return Unresolved(name, node.lineno, f"default of {fn.name}'s parameter depends on {e.item.name}", e.item)
    except (ConvertError, Exception) as e:  # noqa: BLE001 - any evaluation failure is "not determined"
        return Unresolved(name, node.lineno, f"default not evaluated statically ({e})")


def eval_or_unresolved(ev: Evaluator, node, name: str, line: int):
    """The value of `node`, or an Unresolved for `name` saying why not."""
    try:
        return ev.value(node)
    except UnresolvedError as e:
        return Unresolved(name, line, f"depends on {e.item.name}", e.item)
    except RecursionError:
        return Unresolved(name, line, "expression nests too deeply")
    except (ConvertError, ArithmeticError, TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        return Unresolved(name, line, f"not evaluated statically: {e}")


def run_straight(body: list, env: dict, ev: Evaluator) -> None:
    """Execute straight-line code of a helper or a kernel builder: assignments, ifs with
    decidable tests, returns.  Names assigned under an undecidable test become Unresolved."""
    for st in body:
        if isinstance(st, ast.Return):
            raise _Return(ev.value(st.value) if st.value is not None else None)
        if isinstance(st, ast.Assign):
            v = eval_or_unresolved(ev, st.value, "/".join(n for t in st.targets for n in names_of(t)), st.lineno)
            for t in st.targets:
                try:
                    assign_target(t, v, env)
                except ConvertError as e:
                    for n in names_of(t):
                        env[n] = Unresolved(n, st.lineno, str(e))
        elif isinstance(st, ast.AnnAssign) and st.value is not None:
            v = eval_or_unresolved(ev, st.value, "/".join(names_of(st.target)), st.lineno)
            assign_target(st.target, v, env)
        elif isinstance(st, ast.If):
            test = eval_or_unresolved(ev, st.test, "condition", st.lineno)
            if isinstance(test, Unresolved):
                for sub in ast.walk(ast.Module(body=st.body + st.orelse, type_ignores=[])):
                    if isinstance(sub, (ast.Assign, ast.AnnAssign)):
                        for t in (sub.targets if isinstance(sub, ast.Assign) else [sub.target]):
                            for n in names_of(t):
                                env[n] = Unresolved(n, sub.lineno, f"assigned under the condition at line "
                                                    f"{st.lineno}, which depends on {test.root().name}",
                                                    test)
            else:
                run_straight(st.body if test else st.orelse, env, ev)
        elif isinstance(st, ast.Raise):
            raise ConvertError(f"the code raises at line {st.lineno}")
        elif isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                isinstance(st.value.func, ast.Attribute) and isinstance(st.value.func.value, ast.Name) and \
                isinstance(env.get(st.value.func.value.id), (dict, list, tuple)):
            mutate_in_place(st.value, env, ev)
        elif isinstance(st, ast.FunctionDef):
            env[st.name] = FuncValue(st, env)
        elif isinstance(st, (ast.Import, ast.ImportFrom)):
            bind_imports(st, env)


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


def sibling_module(name: str):
    """The ModuleValue of `name` (a module in the kernel file's directory), or None."""
    d = SIBLINGS["dir"]
    if d is None or not name or "." in name or "/" in name or name.startswith("_") and name == "__init__":
        return None
    cache = SIBLINGS["cache"]
    if name in cache:
        return cache[name]
    if name in SIBLINGS["loading"] or SIBLINGS["depth"] >= MAX_SIBLING_DEPTH:
        return None
    path = os.path.join(d, name + ".py")
    try:
        if not os.path.isfile(path) or os.path.getsize(path) > MAX_SIBLING_BYTES:
            cache[name] = None
            return None
        with open(path, "rb") as fh:
            tree = ast.parse(fh.read().decode("utf-8"), filename=name + ".py")
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError, MemoryError):
        cache[name] = None
        return None
    SIBLINGS["loading"].add(name)
    SIBLINGS["depth"] += 1
    try:
        env = module_names(tree, name + ".py")
    finally:
        SIBLINGS["depth"] -= 1
        SIBLINGS["loading"].discard(name)
    mv = ModuleValue(name, name + ".py", env)
    cache[name] = mv
    return mv


class EnumMember:
    """A member of an `Enum` class of the file whose members are integer/string constants:
    `TaskType.GEMM.value`."""

    def __init__(self, cls: str, name: str, value):
        self.cls, self.name, self.value = cls, name, value


def enum_class(st: ast.ClassDef, ev: "Evaluator"):
    """{member: EnumMember} for `class X(Enum | IntEnum): A = 0 ...` with constant members; else None."""
    if not any((dotted(b) or "").split(".")[-1] in ("Enum", "IntEnum") for b in st.bases):
        return None
    members = {}
    for b in st.body:
        if isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant):
            continue  # docstring
        if not (isinstance(b, ast.Assign) and len(b.targets) == 1 and isinstance(b.targets[0], ast.Name) and
                isinstance(b.value, ast.Constant) and isinstance(b.value.value, (int, str))):
            return None
        members[b.targets[0].id] = EnumMember(st.name, b.targets[0].id, b.value.value)
    return members


def bind_targets(targets, value, env: dict, line: int) -> None:
    """Assign `value` to each assignment target; a target it cannot take leaves its names
    unresolved with the reason (line = the assignment's)."""
    for t in targets:
        try:
            assign_target(t, value, env)
        except ConvertError as e:
            for n in names_of(t):
                env[n] = Unresolved(n, line, str(e))


def module_names(tree: ast.Module, file: str) -> dict:
    """Module-level names of a sibling file: constants, functions, imports, decidable ifs."""
    env: dict = {FILE_KEY: file}
    for st in tree.body:
        ev = Evaluator(env)
        if isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is not None:
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            v = eval_or_unresolved(ev, st.value, "/".join(n for t in targets for n in names_of(t)), st.lineno)
            bind_targets(targets, v, env, st.lineno)
        elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            env[st.name] = FuncValue(st, env, file)
        elif isinstance(st, ast.ClassDef):
            members = enum_class(st, ev)
            env[st.name] = members if members is not None else \
                Unresolved(st.name, st.lineno, f"a class in {file} (not evaluated)")
        elif isinstance(st, (ast.Import, ast.ImportFrom)):
            bind_imports(st, env)
    return env


def bind_imports(st, env: dict) -> None:
    """Imported names are Imported markers; the builder namespaces (T, Tx, K, ...) stay unbound
    so that the notation vocabulary (T.S, K.SW128B, SwizzleMode...) resolves them.  Relative
    imports of a sibling module bind its names (sibling_module)."""
    if isinstance(st, ast.ImportFrom) and st.level == 1:
        for a in st.names:
            bound = a.asname or a.name
            if st.module is None:
                mv = sibling_module(a.name)
                env[bound] = mv if mv is not None else Imported(f".{a.name}", a.name, st.lineno)
            else:
                mv = sibling_module(st.module)
                if mv is not None and a.name in mv.env and not isinstance(mv.env[a.name], Imported):
                    env[bound] = mv.env[a.name]
                else:
                    env[bound] = Imported(f".{st.module}", a.name, st.lineno)
        return
    if isinstance(st, ast.Import):
        for a in st.names:
            if a.asname and a.asname not in cn.BUILDER_PREFIXES and a.asname not in ("K", "Kern"):
                env[a.asname] = Imported(a.name, a.asname, st.lineno)
        return
    mod = st.module or ""
    for a in st.names:
        bound = a.asname or a.name
        if bound in cn.BUILDER_PREFIXES or bound in ("K", "Kern", "SwizzleMode", "Axis", "DataType"):
            continue
        env[bound] = Imported(mod, a.name, st.lineno)
