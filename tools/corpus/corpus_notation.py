"""Translate TIRx layout constructors (Python source text) into tirx-verify notation.

The corpus records layouts as the Python expressions the kernels wrote: explicit
TileLayout/ComposeLayout builders, TVM factory calls, and allocator calls whose layout is
implied (see docs/corpus-conversion.md, "Constructor mapping").  This module parses such an
expression with the standard-library `ast` module and prints the layout in the notation the
project's parser reads (include/tirx_verify/layout/notation.hpp):

    source (Python)                                        notation written
    ----------------------------------------------------   ------------------------------------
    T.TileLayout(T.S[(4, 2):(2 @ Axis.laneid, 1)])         S[(4,2):(2@laneid,1)]
    smem.alloc((4, 256, 64), 'float16', swizzle=3)          mma_shared_layout("float16",
                                                              SwizzleMode.SWIZZLE_128B_ATOM,
                                                              (4, 256, 64))
    pool.alloc_tcgen05_mma_AB((2, 128, 64), dt)             mma_shared_layout(dt, <128B>, ...)
    tmem_pool.alloc((64, 128), 'float32', datapath='B')    tmem_datapath_layout("B", 64, 128)
    T.wg_reg_tile(16)                                      wg_local_layout(16)

Integer positions are evaluated with a parameter table (Translator(symbolic=False)), so the
written layout is concrete; Translator(symbolic=True) keeps parameter names instead, which
gives the `layout_symbolic` form.  Every translation also reports the logical size of the
layout when it is computable, for the shape-product self-check.

Errors are ConvertError with a message naming the offending expression.
Python 3 standard library only.
"""
from __future__ import annotations

import ast
import math
import re

# ---------------------------------------------------------------------------------------
# Vocabulary of the notation
# ---------------------------------------------------------------------------------------

AXES = {
    "bx", "by", "bz", "cbx", "cby", "cbz", "tx", "warpid", "laneid", "wgid", "tid_in_wg",
    "wid_in_wg", "m", "P", "F", "Bank", "TCol", "TLane",
}

# Element width in bits of every dtype name the corpus uses.
DTYPE_BITS = {
    "float64": 64, "float32": 32, "float16": 16, "bfloat16": 16, "int64": 64, "uint64": 64, "int32": 32,
    "uint32": 32, "int16": 16, "uint16": 16, "int8": 8, "uint8": 8, "float8_e4m3fn": 8,
    "float8_e5m2": 8, "float8_e8m0fnu": 8, "float4_e2m1fn": 4,
}

# Short spellings the kernels use (kern DSL K.*, old Kern.*).
DTYPE_ALIASES = {
    "f16": "float16", "bf16": "bfloat16", "f32": "float32", "u8": "uint8", "i8": "int8",
    "u32": "uint32", "i32": "int32", "fp16": "float16",
}

SWIZZLE_NAMES = {0: "SWIZZLE_NONE", 1: "SWIZZLE_32B_ATOM", 2: "SWIZZLE_64B_ATOM",
                 3: "SWIZZLE_128B_ATOM"}
SWIZZLE_BY_NAME = {
    "SWIZZLE_NONE": 0, "SWIZZLE_32B_ATOM": 1, "SWIZZLE_64B_ATOM": 2, "SWIZZLE_128B_ATOM": 3,
    "SW32B": 1, "SW64B": 2, "SW128B": 3, "SWNONE": 0, "NONE": 0,
}

FACTORIES = {
    "mma_shared_layout", "tcgen05_atom_layout", "wg_local_layout", "sf_tmem_layout",
    "sf_smem_layout", "tmem_datapath_layout", "tmem_mma_operand_layout",
    "default_tmem_layout",
}

# Identifiers allowed in a concrete layout string (everything else must be a number or a
# quoted string).
ALLOWED_IDENTIFIERS = (
    AXES | FACTORIES
    | {"S", "R", "TileLayout", "ComposeLayout", "SwizzleMode", "swizzle_inner", "True",
       "False", "tile", "unpack", "broadcast", "sub_slab", "rows", "pipe_depth", "sf_reuse",
       "M", "cta_group", "ws", "group"}
    | set(SWIZZLE_NAMES.values())
)


class ConvertError(Exception):
    pass


# ---------------------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------------------


class DType(str):
    """A dtype name that also answers .bits (kernels write ab_type.bits // 8)."""

    @property
    def bits(self) -> int:
        return DTYPE_BITS[str(self)]


def make_dtype(name: str) -> DType:
    name = DTYPE_ALIASES.get(name, name)
    if name not in DTYPE_BITS:
        raise ConvertError(f"unknown dtype {name!r}")
    return DType(name)


class Axis:
    def __init__(self, name: str):
        if name not in AXES:
            raise ConvertError(f"unknown axis {name!r}")
        self.name = name


class AxisStride:
    """k @ axis."""

    def __init__(self, value, axis: Axis):
        self.value = value
        self.axis = axis


class Swizzle:
    """SwizzleMode value (0..3); produced by K.SW128B, SwizzleMode.X, SwizzleMode(3)."""

    def __init__(self, mode: int):
        if mode not in SWIZZLE_NAMES:
            raise ConvertError(f"bad swizzle mode {mode}")
        self.mode = mode


class Lay:
    """A translated layout: its notation text and, when computable, its logical size."""

    def __init__(self, text: str, size: int | None, kind: str = "expr"):
        self.text = text
        self.size = size
        self.kind = kind  # "spec" (S/R/offset sum, not yet wrapped), "expr"

    def as_layout(self) -> str:
        return self.text

    def as_python(self) -> str:
        """Python-valid receiver / argument: wrap a bare spec in TileLayout(...)."""
        return f"TileLayout({self.text})" if self.kind == "spec" else self.text


# Helper functions the kernels call inside layout arguments (the semantics are those of
# the kernel sources, see docs/corpus-conversion.md).
def _swizzle_for_row_bytes(row_bytes):
    if row_bytes % 128 == 0:
        return Swizzle(3)
    if row_bytes % 64 == 0:
        return Swizzle(2)
    return Swizzle(1)


def _align_up(x, a):
    return (x + a - 1) // a * a


HELPERS = {
    "max": max, "min": min, "_swizzle_for_row_bytes": _swizzle_for_row_bytes,
    "_align_up": _align_up, "_align": _align_up, "meta_var": lambda x: x,
    "int": int, "len": len, "tuple": tuple, "list": list,
}

# Attribute prefixes that only namespace a builder (T.S, Tx.TileLayout, K.ptx, ...).
BUILDER_PREFIXES = {"T", "Tx", "tvm", "I"}


# ---------------------------------------------------------------------------------------
# The translator
# ---------------------------------------------------------------------------------------


def dotted(node) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def strip_builder(name: str) -> str:
    head, _, rest = name.partition(".")
    if rest and head in BUILDER_PREFIXES:
        return strip_builder(rest)
    return name


class Translator:
    """Evaluates integer/dtype expressions and translates layout constructors.

    symbolic=True keeps every parameter name in integer positions (for
    layout_symbolic); symbolic=False evaluates them with env (for layout).
    """

    def __init__(self, env: dict, symbolic: bool):
        self.env = env
        self.symbolic = symbolic
        self.used = set()  # parameter names consulted

    # -- plain values -----------------------------------------------------------------

    def lookup(self, name: str):
        if name in self.env:
            self.used.add(name)
            return self.env[name]
        short = strip_builder(name)
        if short in self.env:
            self.used.add(short)
            return self.env[short]
        last = short.split(".")[-1]
        head = short.split(".")[0]
        if short in AXES:
            return Axis(short)
        if head in ("Axis",) and last in AXES:
            return Axis(last)
        if short.startswith("axis_") and short[5:] in AXES:
            return Axis(short[5:])
        if head in ("K", "Kern", "SwizzleMode", "K.SwizzleMode") or short.startswith("SwizzleMode."):
            if last in SWIZZLE_BY_NAME:
                return Swizzle(SWIZZLE_BY_NAME[last])
            if last in DTYPE_ALIASES or last in DTYPE_BITS:
                return make_dtype(last)
        if short in HELPERS:
            return HELPERS[short]
        if short in DTYPE_BITS or short in DTYPE_ALIASES:
            return make_dtype(short)
        if last in HELPERS and head in ("K", "T", "Tx"):
            return HELPERS[last]
        if short in ("True", "False", "None"):
            return {"True": True, "False": False, "None": None}[short]
        raise ConvertError(f"unbound name {name!r}")

    def value(self, node):
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str) and node.value in DTYPE_BITS:
                return make_dtype(node.value)
            return node.value
        if isinstance(node, (ast.Name, ast.Attribute)):
            name = dotted(node)
            if name is None:  # attribute of a computed value, e.g. (x).bits
                base = self.value(node.value)
                return getattr(base, node.attr)
            try:
                return self.lookup(name)
            except ConvertError:
                if isinstance(node, ast.Attribute):
                    base = self.value(node.value)
                    if isinstance(base, DType) and node.attr == "bits":
                        return base.bits
                raise
        if isinstance(node, ast.Tuple) or isinstance(node, ast.List):
            return tuple(self.value(e) for e in node.elts)
        if isinstance(node, ast.BinOp):
            lhs, rhs = self.value(node.left), self.value(node.right)
            op = node.op
            if isinstance(op, ast.MatMult):
                if not isinstance(rhs, Axis):
                    raise ConvertError("@ needs an axis on the right")
                return AxisStride(lhs, rhs)
            ops = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
                   ast.Mult: lambda a, b: a * b, ast.FloorDiv: lambda a, b: a // b,
                   ast.Mod: lambda a, b: a % b, ast.LShift: lambda a, b: a << b,
                   ast.RShift: lambda a, b: a >> b, ast.Pow: lambda a, b: a ** b}
            if type(op) not in ops:
                raise ConvertError(f"operator {type(op).__name__} not supported")
            return ops[type(op)](lhs, rhs)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.value(node.operand)
        if isinstance(node, ast.IfExp):
            return self.value(node.body) if self.value(node.test) else self.value(node.orelse)
        if isinstance(node, ast.Compare):
            left = self.value(node.left)
            for op, comp in zip(node.ops, node.comparators):
                right = self.value(comp)
                ok = {ast.Eq: left == right, ast.NotEq: left != right, ast.Gt: left > right,
                      ast.Lt: left < right, ast.GtE: left >= right,
                      ast.LtE: left <= right}[type(op)]
                if not ok:
                    return False
                left = right
            return True
        if isinstance(node, ast.BoolOp):
            vals = [self.value(v) for v in node.values]
            return all(vals) if isinstance(node.op, ast.And) else any(vals)
        if isinstance(node, ast.Subscript):
            base = self.value(node.value)
            return base[self.value(node.slice)]
        if isinstance(node, ast.Dict):
            return {self.value(k): self.value(v) for k, v in zip(node.keys, node.values)}
        if isinstance(node, ast.Call):
            fname = strip_builder(dotted(node.func) or "")
            if fname in ("SwizzleMode", "K.SwizzleMode"):
                v = self.value(node.args[0])
                return v if isinstance(v, Swizzle) else Swizzle(int(v))
            if fname in ("DataType", "tvm.DataType"):
                return make_dtype(self.value(node.args[0]))
            fn = self.value(node.func)
            args = [self.value(a) for a in node.args]
            kwargs = {k.arg: self.value(k.value) for k in node.keywords}
            return fn(*args, **kwargs)
        raise ConvertError(f"cannot evaluate {ast.unparse(node)!r}")

    def as_int(self, node) -> int:
        v = self.value(node)
        if isinstance(v, bool) or not isinstance(v, int):
            raise ConvertError(f"{ast.unparse(node)!r} is not an integer (got {v!r})")
        return v

    def int_text(self, node) -> str:
        if self.symbolic and self._has_param(node):
            return clean_source(ast.unparse(node))
        return str(self.as_int(node))

    def _has_param(self, node) -> bool:
        """Does the expression name a parameter?  Whole dotted names count (K.bf16 is a
        dtype spelling even when a parameter K exists)."""
        if isinstance(node, (ast.Name, ast.Attribute)):
            name = dotted(node)
            if name is not None:
                return strip_builder(name) in self.env
        return any(self._has_param(child) for child in ast.iter_child_nodes(node))

    def dtype_text(self, node) -> str:
        if self.symbolic and self._has_param(node):
            return clean_source(ast.unparse(node))
        v = self.value(node)
        if not isinstance(v, str):
            raise ConvertError(f"{ast.unparse(node)!r} is not a dtype")
        return f'"{make_dtype(v)}"'

    def dtype_value(self, node) -> DType:
        v = self.value(node)
        if not isinstance(v, str):
            raise ConvertError(f"{ast.unparse(node)!r} is not a dtype")
        return make_dtype(v)

    def swizzle_text(self, node) -> tuple[str, int]:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            mode = {"auto": 3, "none": 0}[node.value]
        else:
            v = self.value(node)
            mode = v.mode if isinstance(v, Swizzle) else int(v)
        text = f"SwizzleMode.{SWIZZLE_NAMES[mode]}"
        if self.symbolic and self._has_param(node):
            text = clean_source(ast.unparse(node))
        return text, mode

    def tuple_nodes(self, node) -> list:
        """The element nodes of a shape tuple (a literal tuple/list or a name bound to one)."""
        if isinstance(node, (ast.Tuple, ast.List)):
            return list(node.elts)
        if isinstance(node, ast.Call) and strip_builder(dotted(node.func) or "") in ("list", "tuple"):
            return self.tuple_nodes(node.args[0])
        if isinstance(node, ast.IfExp):
            return self.tuple_nodes(node.body if self.value(node.test) else node.orelse)
        v = self.value(node)
        if isinstance(v, (tuple, list)):
            return [ast.Constant(int(x)) for x in v]
        if isinstance(v, int):
            return [ast.Constant(v)]
        raise ConvertError(f"{ast.unparse(node)!r} is not a shape")

    def tuple_text(self, node) -> tuple[str, list]:
        elts = self.tuple_nodes(node)
        ints = [self.as_int(e) for e in elts]
        if self.symbolic and not isinstance(node, (ast.Tuple, ast.List)) and self._has_param(node):
            return clean_source(ast.unparse(node)), ints  # a shape passed by name
        texts = [self.int_text(e) for e in elts]
        if len(texts) == 1:
            return f"({texts[0]},)", ints
        return "(" + ", ".join(texts) + ")", ints

    # -- specs: S[...] + R[...] + offsets ---------------------------------------------

    def stride_text(self, node) -> str:
        # forms: EXPR, EXPR @ axis, 'axis', (EXPR, 'axis')
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return f"1@{Axis(node.value).name}"
        if isinstance(node, ast.Tuple) and len(node.elts) == 2 and isinstance(
                node.elts[1], ast.Constant) and isinstance(node.elts[1].value, str):
            return f"{self.int_text(node.elts[0])}@{Axis(node.elts[1].value).name}"
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
            axis = self.value(node.right)
            if not isinstance(axis, Axis):
                raise ConvertError("@ needs an axis")
            return f"{self.int_text(node.left)}@{axis.name}"
        v = self.value(node)
        if isinstance(v, AxisStride):
            return f"{v.value}@{v.axis.name}"
        return self.int_text(node)

    def spec_items(self, node) -> list:
        """Extent and stride nodes of one S[...]/R[...] subscript."""
        sl = node.slice
        if isinstance(sl, ast.Slice):
            ext, strd = sl.lower, sl.upper
            ext_nodes = self._seq(ext)
            if isinstance(strd, (ast.Tuple, ast.List)):
                str_nodes = list(strd.elts)
            elif isinstance(strd, ast.BinOp) and isinstance(strd.op, ast.Add) and isinstance(
                    strd.left, ast.ListComp):
                # [f(i) for i in range(n)] + [0]: evaluated by hand-written override only
                raise ConvertError("list-comprehension strides need an override")
            else:
                str_nodes = [strd]
            if len(ext_nodes) != len(str_nodes):
                raise ConvertError("extent and stride lists differ in length")
            return list(zip(ext_nodes, [self.stride_text(s) for s in str_nodes]))
        # extents only: row-major strides on m
        ext_nodes = self._seq(sl)
        out = []
        for i, e in enumerate(ext_nodes):
            rest = ext_nodes[i + 1:]
            if self.symbolic and any(self._has_param(r) for r in rest):
                stride = " * ".join(clean_source(ast.unparse(r)) for r in rest)
            else:
                stride = str(math.prod(self.as_int(r) for r in rest))
            out.append((e, stride))
        return out

    def _seq(self, node) -> list:
        if isinstance(node, (ast.Tuple, ast.List)):
            return list(node.elts)
        return [node]

    def spec(self, node) -> tuple[str, int | None]:
        """Translate S[...] + R[...] + offsets.  Returns (text, shard size)."""
        terms = []
        flat = []

        def collect(n):
            if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add) and not self._is_int(n):
                collect(n.left)
                collect(n.right)
            else:
                flat.append(n)

        collect(node)
        size = None
        for term in flat:
            if isinstance(term, ast.Subscript) and strip_builder(dotted(term.value) or "") in ("S", "R"):
                which = strip_builder(dotted(term.value))
                items = self.spec_items(term)
                exts = [self.int_text(e) for e, _ in items]
                strides = [s for _, s in items]
                if len(items) == 1:
                    body = f"{exts[0]}:{strides[0]}"
                else:
                    body = "(" + ",".join(exts) + "):(" + ",".join(strides) + ")"
                terms.append(f"{which}[{body}]")
                if which == "S":
                    size = math.prod(self.as_int(e) for e, _ in items)
            else:
                # offset term: EXPR or EXPR @ axis
                terms.append(self.stride_text(term))
        return " + ".join(terms), size

    def _is_int(self, node) -> bool:
        try:
            v = self.value(node)
        except ConvertError:
            return False
        return isinstance(v, int) and not isinstance(v, bool)

    # -- layouts ----------------------------------------------------------------------

    def layout(self, node) -> Lay:
        if isinstance(node, ast.Subscript) or (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add)):
            text, size = self.spec(node)
            return Lay(text, size, "spec")
        if not isinstance(node, ast.Call):
            raise ConvertError(f"not a layout expression: {ast.unparse(node)!r}")
        func = node.func
        # method chains on a layout
        if isinstance(func, ast.Attribute) and func.attr in ("tile", "unpack", "broadcast") and \
                isinstance(func.value, (ast.Call, ast.Name)):
            recv = self.layout(func.value)
            if func.attr == "tile":
                outer = self.layout(node.args[0])
                os_text, os_ints = self.tuple_text(node.args[1])
                is_text, is_ints = self.tuple_text(node.args[2])
                size = math.prod(os_ints) * math.prod(is_ints)
                return Lay(f"{recv.as_python()}.tile({outer.as_python()}, {os_text}, {is_text})", size)
            n_text, n = self.int_text(node.args[0]), self.as_int(node.args[0])
            size = recv.size * n if recv.size is not None else None
            return Lay(f"{recv.as_python()}.{func.attr}({n_text})", size)
        name = strip_builder(dotted(func) or "")
        short = name.split(".")[-1]
        args, kw = node.args, {k.arg: k.value for k in node.keywords}

        if short == "TileLayout" and name in ("TileLayout", "TileLayout"):
            inner = self.layout(args[0])
            return Lay(inner.text, inner.size, inner.kind)
        if name == "TileLayout.from_iters":
            iters = args[0].elts if args else kw["shard"].elts
            exts, strides = [], []
            for it in iters:
                e, s, a = it.args
                exts.append(e)
                axis = Axis(a.value if isinstance(a, ast.Constant) else self.value(a).name)
                st = self.int_text(s)
                strides.append(st if axis.name == "m" else f"{st}@{axis.name}")
            size = math.prod(self.as_int(e) for e in exts)
            if len(exts) == 1:
                return Lay(f"S[{self.int_text(exts[0])}:{strides[0]}]", size, "spec")
            return Lay("S[(" + ",".join(self.int_text(e) for e in exts) + "):(" + ",".join(strides) + ")]",
                       size, "spec")
        if short == "ComposeLayout":
            if isinstance(args[0], ast.Call) and strip_builder(dotted(args[0].func) or "") == "SwizzleLayout":
                sw = args[0]
                pe, sl_, al = (self.int_text(a) for a in sw.args[:3])
                inner_kw = {k.arg: k.value for k in sw.keywords}
                inner = inner_kw.get("swizzle_inner")
                tile = self.layout(args[1])
            else:
                pe, sl_, al = (self.int_text(a) for a in args[:3])
                inner = kw.get("swizzle_inner")
                tile = self.layout(args[3])
            extra = ""
            if inner is not None and not self.value(inner):
                extra = ", swizzle_inner=False"
            return Lay(f"ComposeLayout({pe}, {sl_}, {al}, {tile.as_layout()}{extra})", tile.size)
        # ---- factories ----
        if short == "mma_shared_layout":
            dt = self.dtype_text(args[0])
            sw, _ = self.swizzle_text(args[1])
            shp, ints = self.tuple_text(args[2])
            return Lay(f"mma_shared_layout({dt}, {sw}, {shp})", math.prod(ints))
        if short == "tma_shared_layout":
            # FA-backward helper: a 128B-swizzle atom tiled rows-first = mma_shared_layout 128B
            dt = self.dtype_text(args[0])
            shp, ints = self.tuple_text(args[1])
            return Lay(f"mma_shared_layout({dt}, SwizzleMode.SWIZZLE_128B_ATOM, {shp})", math.prod(ints))
        if short in ("tcgen05_atom_layout", "alloc_tcgen05_ldst_frag"):
            instr = self.value(args[0])
            shp, ints = self.tuple_text(args[1])
            dt = self.dtype_text(args[2])
            return Lay(f'tcgen05_atom_layout("{instr}", {shp}, {dt})', math.prod(ints))
        if short in ("wg_local_layout", "wg_reg_tile"):
            cols = self.int_text(args[0])
            rows_node = kw.get("rows")
            size = self.as_int(args[0]) * (self.as_int(rows_node) if rows_node else 128)
            if rows_node is not None:
                return Lay(f"wg_local_layout({cols}, rows={self.int_text(rows_node)})", size)
            return Lay(f"wg_local_layout({cols})", size)
        if short in ("sf_tmem_layout", "sf_smem_layout"):
            names = ["rows", "SF_K", "sf_per_mma", "sf_reuse", "pipe_depth"]
            vals = dict(zip(names, args))
            vals.update(kw)
            return self._sf(short, vals)
        if short == "alloc_sf":
            shape = self.tuple_nodes(args[0])
            sf_per_mma = kw["sf_per_mma"]
            sf_reuse = kw.get("sf_reuse")
            reuse = self.as_int(sf_reuse) if sf_reuse is not None else 1
            last = self.as_int(shape[-1])
            if last % reuse:
                raise ConvertError("alloc_sf: last dim not divisible by sf_reuse")
            vals = {"rows": shape[-2], "SF_K": ast.Constant(last // reuse), "sf_per_mma": sf_per_mma}
            if self.symbolic and self._has_param(shape[-1]):
                sfk = clean_source(ast.unparse(shape[-1]))
                vals["SF_K"] = ast.parse(f"({sfk}) // {clean_source(ast.unparse(sf_reuse))}"
                                         if sf_reuse is not None else sfk, mode="eval").body
            if sf_reuse is not None:
                vals["sf_reuse"] = sf_reuse
            if len(shape) == 3:
                vals["pipe_depth"] = shape[0]
            return self._sf("sf_tmem_layout", vals)
        if short == "tmem_datapath_layout":
            letter = self.value(args[0])
            r, c = self.int_text(args[1]), self.int_text(args[2])
            size = self.as_int(args[1]) * self.as_int(args[2])
            extra = ""
            if "sub_slab" in kw or len(args) > 3:
                ss = kw.get("sub_slab", args[3] if len(args) > 3 else None)
                extra = f", sub_slab={self.int_text(ss)}"
            return Lay(f'tmem_datapath_layout("{letter}", {r}, {c}{extra})', size)
        if short == "default_tmem_layout":
            r, c = self.int_text(args[0]), self.int_text(args[1])
            return Lay(f"default_tmem_layout({r}, {c})", self.as_int(args[0]) * self.as_int(args[1]))
        if short == "tmem_mma_operand_layout":
            operand = self.value(args[0])
            return self._operand(operand, args[1], args[2], kw)
        # ---- allocators ----
        if short in ("alloc_tcgen05_mma_D", "alloc_mma_D", "alloc_tcgen05_mma_A", "alloc_mma_A"):
            return self._operand(short[-1], args[0], args[1], kw)
        if short == "alloc" and name.split(".")[0] in ("smem", "pool") and "swizzle" in kw:
            # kern smem_pool().alloc(shape, dtype, swizzle=...) -> mma_shared_layout
            dt = self.dtype_text(args[1])
            sw, mode = self.swizzle_text(kw["swizzle"])
            shp, ints = self.tuple_text(args[0])
            return Lay(f"mma_shared_layout({dt}, {sw}, {shp})", math.prod(ints))
        if short in ("alloc_tcgen05_mma_AB", "alloc_mma"):
            shape_node = args[0]
            dt_node = args[1] if len(args) > 1 else kw.get("dtype", ast.Constant("float16"))
            sw_node = kw.get("swizzle_mode", args[2] if len(args) > 2 else ast.Constant("auto"))
            dt = self.dtype_text(dt_node)
            sw, _ = self.swizzle_text(sw_node)
            shp, ints = self.tuple_text(shape_node)
            return Lay(f"mma_shared_layout({dt}, {sw}, {shp})", math.prod(ints))
        if short == "alloc" and name.split(".")[0] in ("tmem_pool",):
            shape = self.tuple_nodes(args[0])
            if len(shape) != 2:
                raise ConvertError("tmem_pool.alloc default layout needs a 2-D shape")
            r, c = self.int_text(shape[0]), self.int_text(shape[1])
            size = self.as_int(shape[0]) * self.as_int(shape[1])
            if "datapath" in kw:
                letter = self.value(kw["datapath"])
                return Lay(f'tmem_datapath_layout("{letter}", {r}, {c})', size)
            return Lay(f"default_tmem_layout({r}, {c})", size)
        raise ConvertError(f"no translation for call {name!r}")

    def _sf(self, fname: str, vals: dict) -> Lay:
        rows = self.int_text(vals["rows"])
        sfk = self.int_text(vals["SF_K"])
        spm = self.int_text(vals["sf_per_mma"])
        size = self.as_int(vals["rows"]) * self.as_int(vals["SF_K"])
        text = f"{fname}({rows}, {sfk}, {spm}"
        if vals.get("sf_reuse") is not None:
            text += f", sf_reuse={self.int_text(vals['sf_reuse'])}"
            size *= self.as_int(vals["sf_reuse"])
        if vals.get("pipe_depth") is not None:
            text += f", pipe_depth={self.int_text(vals['pipe_depth'])}"
            size *= self.as_int(vals["pipe_depth"])
        return Lay(text + ")", size)

    def _operand(self, operand: str, shape_node, dtype_node, kw) -> Lay:
        shp, ints = self.tuple_text(shape_node)
        dt = self.dtype_text(dtype_node)
        text = f'tmem_mma_operand_layout("{operand}", {shp}, {dt}, M={self.int_text(kw["M"])}, ' \
               f'cta_group={self.int_text(kw["cta_group"])}'
        if "ws" in kw and self.value(kw["ws"]):
            text += ", ws=True"
        if "group" in kw:
            g, _ = self.tuple_text(kw["group"])
            text += f", group={g}"
        return Lay(text + ")", math.prod(ints))


def clean_source(text: str) -> str:
    """Drop builder prefixes (T., Tx., Axis.) from a symbolic expression."""
    text = re.sub(r"\b(?:T|Tx)\.", "", text)
    text = re.sub(r"\bAxis\.", "", text)
    return text


def parse_expr(text: str):
    text = text.strip()
    try:
        return ast.parse(text, mode="eval").body
    except SyntaxError as err:
        raise ConvertError(f"does not parse as Python: {text!r}: {err}") from None


IDENT_RE = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
STRING_RE = re.compile(r'"[^"]*"')


def check_concrete(text: str) -> None:
    """Self-check: non-empty, and no identifier left outside the notation's vocabulary."""
    if not text.strip():
        raise ConvertError("empty layout string")
    bare = STRING_RE.sub('""', text)
    if "'" in bare:
        raise ConvertError("single-quoted string in layout (use double quotes)")
    for ident in IDENT_RE.findall(bare):
        if ident not in ALLOWED_IDENTIFIERS:
            raise ConvertError(f"identifier {ident!r} left in concrete layout {text!r}")
