"""Register fragments: `ldmatrix` and `mma.sync` written as instruction-level PTX.

A kern-DSL / TIRx kernel keeps an MMA operand in a small register array and fills it with
`ldmatrix`, every lane passing the shared address of one row:

    frag = K.alloc_local((4,), "uint32")                          RegArray frag: 4 x 32-bit
    K.ptx.ldmatrix.sync.aligned.m8n8.x4.shared.b16(frag[0], frag[1], frag[2], frag[3],
                                                   tile.ptr_to(row0 + lane % 16, k0 + lane // 16 * 8))
    K.ptx.mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32(acc[0..3], a[0..3], b[0..1], c[0..3])

The model (docs/model-format.md) names a REGION of a `local` buffer whose layout is the
fragment (laneid + register slot `m`), not per-lane addresses.  The extraction computes that
fragment from the source, lane by lane, and never assumes the fragment an instruction expects:

1. The pointer argument is evaluated at every lane of each issuing warp (warps.py gives the
   thread indices their values): lane 8 j + r names row r of matrix j, i.e. the 8 logical
   elements `(..., c .. c + 7)` of the shared buffer (PTX ISA 9.1 §9.7.14.5.15).
2. The element behind half h of register j of thread t is (matrix j, row t // 4, col
   2 (t % 4) + h), or (row 2 (t % 4) + h, col t // 4) with `.trans` (the same section; C++:
   hw::ldmatrix_element).  So every 16-bit slot `2 q_j + h` of the array (q_j: the array index
   passed as register j) of every lane holds one shared element.
3. The rows form *lines*: a row and the row that continues it in the buffer's row-major order
   (16 elements, two 16-byte rows) are one line; lines are ordered by position.  The fragment
   buffer is (lines, elements per line): its element (i, e) is element e of line i.  The
   elements must make a box of the shared buffer whose row-major order is the lines' order
   (that box is the op's `smem` region, element by element with the fragment).
4. The map (i, e) -> (lane, slot) must be a strided layout: linear in the bits of i and e
   (checked at every element), each bit moving only the lane or only the slot.  It is written
   as `S[(...):(... @laneid ...)]`.  What fails a step stays unresolved, saying which.

mma.sync m16n8k16 reads the arrays as operands.  Which dimension of a fragment is M (N) and
which is K is the instruction pair's meaning: without `.trans` a line is a row of the
operand (M for A, N for B) and its elements run along K; with `.trans` a line runs along K.
The operand's region is the box of fragment elements its registers hold (A: (M, K) = (16, 16)
from 4 registers, B: (N, K) = (8, 16) from 2), written through a transposed view of the
fragment (`NAME.T`) when lines run along K.  A thread's operand registers must be its
ascending registers of that region (the format's convention), else the op stays unresolved.
The accumulator array (4 x f32, written only by mma.sync) has the C fragment of PTX ISA
§9.7.14.5.8 by definition: its registers are what the instruction writes.

Consequence, written in docs/extract.md: the ldmatrix facts (row contiguity, alignment,
swizzle, bank conflicts) and the register order passed to the mma are checked against the
shared layout; the orientation of an operand follows `.trans`, so a `.trans` the kernel should
not have used is not detectable from the source alone.
"""
from __future__ import annotations

import ast
import math
import re

from corpus_notation import dotted
from kernel_env import BufferRef, ConvertError, UnresolvedError

LANES = 32
ROW_ELEMS = 8           # a matrix row of ldmatrix .m8n8 .b16: 8 16-bit elements (16 bytes)
LINE_ROWS = 2           # rows joined into one line when they continue each other
# (rows, cols, 32-bit registers) of each operand region; m16n8k8 (PTX ISA 9.1 §9.7.14.5.7) is the
# first K half of m16n8k16 (§9.7.14.5.8) for A and B, and the same C
MMA_SHAPES = {"m16n8k16": {"a": (16, 16, 4), "b": (8, 16, 2), "c": (16, 8, 4)},
              "m16n8k8": {"a": (16, 8, 2), "b": (8, 8, 1), "c": (16, 8, 4)}}


class RegArray:
    """`K.alloc_local((n,), dtype)`: n registers of one thread, a runtime value element-wise."""

    def __init__(self, name: str, line: int, n: int, dtype: str, node):
        self.name, self.line, self.n, self.dtype, self.node = name, line, n, dtype, node
        self.buffer: BufferRef | None = None   # the model buffer once a fragment is known
        self.frag: dict | None = None          # {"shape", "map": {(i, e): (lane, slot)}, "trans", "dtype"}
        self.views: dict = {}                  # "T" -> BufferRef of the transposed view
        self.c_fragment = False                # the mma.sync C fragment
        self.site = None                       # (file, statement) whose helper call made it (reg_values)

    def __getitem__(self, i):
        if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < self.n:
            raise ConvertError(f"{self.name}[{i!r}] is not one of its {self.n} registers")
        if i == 0 and getattr(self, "cell0", None) is not None:
            import reg_cell  # one register used as a scalar, stored by X[0] = v (reg_cell.py)
            v = reg_cell.read(self)
            if v is not None:
                return v
        import runtime_data  # runtime data the representative instance binds (runtime_data.py)
        b = runtime_data.bound_reg(self, i)
        return RegElem(self, i) if b is None else b


class RegElem:
    def __init__(self, array: RegArray, index: int):
        self.array, self.index = array, index
        self.site = getattr(array, "site", None)  # the helper call that made the array (runtime_data)


    def __repr__(self) -> str:
        import buffer_regs  # an element of a plain register buffer by its indices (buffer_regs.py)
        return f"{buffer_regs.indices(self.array.name, self.array.line, self.index)} (a register: a runtime value)"

    def _runtime(self, *_):
        # arithmetic on a register's content: the value a thread holds at run time, not a number
        from kernel_env import Unresolved, UnresolvedError
        name = f"{getattr(self.array, 'name', 'register')}[{self.index}]"
        u = Unresolved(name, getattr(self.array, "line", None),
                       "the content of a register (a runtime value, e.g. an address tcgen05.alloc "
                       "wrote), not fixed by the source")
        u.reg = self  # the register itself (runtime_data.root_key)
        raise UnresolvedError(u)

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __and__ = __rand__ = __or__ = __ror__ = \
        __lshift__ = __rshift__ = __floordiv__ = __mod__ = _runtime


class Ptr:
    """`buf.ptr_to(i, j)` / `buf.ptr_to([i, j])`: the address of one element of a model buffer."""

    def __init__(self, buf: BufferRef, coords: tuple):
        self.buf, self.coords = buf, coords


def ptr_to(buf: BufferRef):
    def f(*idx):
        if len(idx) == 1 and isinstance(idx[0], (tuple, list)):
            idx = tuple(idx[0])
        if len(idx) != len(buf.shape) or not all(isinstance(i, int) and not isinstance(i, bool) for i in idx):
            raise ConvertError(f"{buf.name}.ptr_to{tuple(idx)!r} does not name one element of a "
                               f"{len(buf.shape)}-D buffer")
        if any(not 0 <= i < n for i, n in zip(idx, buf.shape)):
            raise ConvertError(f"{buf.name}.ptr_to{tuple(idx)!r} is outside its shape {tuple(buf.shape)}")
        return Ptr(buf, tuple(idx))
    return f


def reg_array(call: ast.Call, ev, line: int, name: str):
    """The RegArray a `K.alloc_local((n,), dtype)` / `T.alloc_local([n], dtype)` binds, or None."""
    d = dotted(call.func) or ""
    if d.split(".")[-1] == "alloc_buffer" and d.startswith(("T.", "Tx.")):
        # T.alloc_buffer((n,), dtype, scope="local") without layout=: n registers of each thread
        kw = {k.arg: k.value for k in call.keywords}
        if "layout" in kw or not (isinstance(kw.get("scope"), ast.Constant) and kw["scope"].value == "local"):
            return None
    elif d.split(".")[-1] != "alloc_local" or not d.startswith(("K.", "T.", "Tx.", "Kern.")):
        return None
    elif d.startswith(("T.", "Tx.")) and any(k.arg == "layout" for k in call.keywords):
        return None  # T.alloc_local(..., layout=L) is alloc_buffer(scope="local", layout=L): a model buffer
    try:
        shape = ev.value(call.args[0]) if call.args else None
        shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape,)
        dt = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "dtype"), None)
        # alloc_local / alloc_buffer default to float32 (apache/tvm 5d4dc87 python/tvm/tirx/script/
        # builder/ir.py:813, 1869; tirx_kernels/kern/__init__.py:331)
        dtype = str(ev.value(dt)) if dt is not None else "float32"
    except Exception:  # noqa: BLE001 - an array whose size the source does not fix is not modelled
        return None
    if len(shape) != 1 or not isinstance(shape[0], int) or not 0 < shape[0] <= 256 or dtype is None:
        return None
    return RegArray(name, line, shape[0], dtype, call)


def vector_annotation(ann, ev, line: int, name: str):
    """The RegArray of `x: T.f32[N]` (TVM's parser: a local allocation, T.alloc_local(shape,
    dtype); apache/tvm 5d4dc87 python/tvm/tirx/script/parser/parser.py:753-757), or None."""
    from corpus_notation import DTYPE_BITS, make_dtype
    if not (isinstance(ann, ast.Subscript) and isinstance(ann.value, ast.Attribute) and
            isinstance(ann.value.value, ast.Name) and ann.value.value.id in ("T", "Tx")):
        return None
    dt = str(make_dtype(ann.value.attr))
    if dt not in DTYPE_BITS:
        return None
    shape = ann.slice.elts if isinstance(ann.slice, ast.Tuple) else [ann.slice]
    call = ast.Call(func=ast.Attribute(value=ast.Name(id="T", ctx=ast.Load()), attr="alloc_local", ctx=ast.Load()),
                    args=[ast.Tuple(elts=list(shape), ctx=ast.Load()), ast.Constant(dt)], keywords=[])
    ast.copy_location(call, ann)
    return reg_array(call, ev, line, name)


# -- PTX instruction maps ------------------------------------------------------------------


def ldmatrix_element(trans: bool, t: int, j: int, h: int) -> tuple[int, int, int]:
    """(matrix, row, col) behind half h of register j of thread t (PTX ISA 9.1 §9.7.14.5.15;
    C++ hw::ldmatrix_element)."""
    if trans:
        return j, 2 * (t % 4) + h, t // 4
    return j, t // 4, 2 * (t % 4) + h


def mma_c_element(t: int, i: int) -> tuple[int, int]:
    """(m, n) of C/D element i of thread t, m16n8k16 (PTX ISA 9.1 §9.7.14.5.8; C++
    hw::mma_m16n8k16_c)."""
    return t // 4 + 8 * (i // 2), 2 * (t % 4) + (i % 2)


# -- layouts from element maps -------------------------------------------------------------


def factor_layout(shape: tuple, fn) -> str:
    """`S[...]` text of the layout (coords) -> (lane, slot) = fn(coords), over `shape` in
    row-major order; ConvertError unless fn is strided (see the module docstring, step 4)."""
    bits = []  # (dim, bit)
    for d, n in enumerate(shape):
        if n < 1 or n & (n - 1):
            raise ConvertError(f"fragment dimension {n} is not a power of two")
        bits.extend((d, b) for b in reversed(range(n.bit_length() - 1)))
    zero = (0,) * len(shape)
    if fn(zero) != (0, 0):
        raise ConvertError(f"the fragment's first element is held by lane/slot {fn(zero)}, not lane 0 slot 0")
    delta = {}
    for d, b in bits:
        c = list(zero)
        c[d] = 1 << b
        dl, ds = fn(tuple(c))
        if (dl != 0) == (ds != 0) or dl < 0 or ds < 0:
            raise ConvertError(f"bit {b} of fragment dimension {d} moves (lane, slot) by {(dl, ds)}: not a "
                               "strided layout")
        delta[(d, b)] = (dl, ds)
    for idx in range(math.prod(shape)):
        c, rest = [], idx
        for n in reversed(shape):
            c.append(rest % n)
            rest //= n
        c = tuple(reversed(c))
        want = [0, 0]
        for d, b in bits:
            if c[d] >> b & 1:
                want[0] += delta[(d, b)][0]
                want[1] += delta[(d, b)][1]
        if fn(c) != tuple(want):
            raise ConvertError(f"fragment element {c} is held by lane/slot {fn(c)}, not the {tuple(want)} a "
                               "strided layout gives")
    runs = []  # [extent, stride, axis, dim]
    for d, b in bits:
        dl, ds = delta[(d, b)]
        axis, stride = ("laneid", dl) if dl else ("m", ds)
        if runs and runs[-1][3] == d and runs[-1][2] == axis and runs[-1][1] == 2 * stride:
            runs[-1][0] *= 2
            runs[-1][1] = stride
        else:
            runs.append([2, stride, axis, d])
    for d, n in enumerate(shape):
        if n == 1:
            runs.append([1, 0, "m", d])
    runs.sort(key=lambda r: r[3])  # stable: bit order within a dimension is kept
    ext = [str(r[0]) for r in runs]
    strides = [f"{r[1]}@laneid" if r[2] == "laneid" else str(r[1]) for r in runs]
    if len(runs) == 1:
        return f"S[{ext[0]}:{strides[0]}]"
    return f"S[({','.join(ext)}):({','.join(strides)})]"


# -- op records ----------------------------------------------------------------------------


def _reg_operands(nodes, ev, count: int, what: str) -> list[RegElem]:
    regs = []
    for n in nodes:
        v = ev.value(n)
        if not isinstance(v, RegElem):
            raise ConvertError(f"{what} operand {ast.unparse(n)!r} is not a register of a K.alloc_local array")
        regs.append(v)
    if len(regs) != count:
        raise ConvertError(f"{what} takes {count} registers, the source passes {len(regs)}")
    arr = regs[0].array
    if any(r.array is not arr for r in regs):
        raise ConvertError(f"the {what} registers are not of one register array")
    return regs


def _lane_ptrs(node, env, warp: int, ev_cls, lanes: int = LANES) -> list[Ptr]:
    """The address at lanes 0 .. lanes - 1 of `warp` (ldmatrix .x1 / .x2 read only the addresses of
    lanes 0-7 / 0-15, PTX ISA 9.1 §9.7.9.20: the others are not evaluated, they may be anything)."""
    out = []
    for lane in range(lanes):
        try:
            p = ev_cls(env, thread=(warp, lane)).value(node)
        except UnresolvedError as e:
            raise UnresolvedError(e.item) from None
        import byte_addr  # T.ptr_byte_offset(p, n, dt): the element at that byte (byte_addr.py)
        p = byte_addr.resolve(p)
        if not isinstance(p, Ptr):
            raise ConvertError(f"the address {ast.unparse(node)!r} is not a ptr_to of a model buffer")
        out.append(p)
    if any(p.buf.name != out[0].buf.name for p in out):
        raise ConvertError("the lanes' addresses point into different buffers")
    return out


def _linear(shape, coords) -> int:
    i = 0
    for c, n in zip(coords, shape):
        i = i * n + c
    return i


def ldmatrix_fragment(text: str, ptrs: list[Ptr], regs: list[RegElem]):
    """(buffer, smem region text, fragment dict) of one warp's ldmatrix, or of its store sibling
    stmatrix (PTX ISA 9.1 §9.7.9.21: the same address roles and the same register <-> element map,
    the data moving the other way)."""
    m = re.search(r"\.x([124])\b", text)
    num = int(m.group(1)) if m else 1
    trans = ".trans" in text
    instr = text.split(".")[0]
    if ".m8n8" not in text or not text.endswith(".b16"):
        raise ConvertError(f"{text!r}: only {instr} .m8n8 .b16 is modelled")
    buf = ptrs[0].buf
    if buf.scope not in ("shared", "shared.dyn"):
        raise ConvertError(f"{instr} addresses {buf.name}, a {buf.scope} buffer")
    if str(buf.dtype) not in ("bfloat16", "float16", "int16", "uint16"):
        raise ConvertError(f"{instr} .b16 of {buf.name}, whose dtype {buf.dtype} is not 16-bit")
    if len(regs) != num or len({r.index for r in regs}) != num:
        raise ConvertError(f"{instr} .x{num} moves registers {[r.index for r in regs]} of the "
                           f"{regs[0].array.n}-register array {regs[0].array.name}: {num} distinct registers are "
                           "needed")
    shape = buf.shape
    rows = []  # per matrix row: linear index of its first element (row-major over the buffer)
    for t in range(8 * num):
        c = ptrs[t].coords
        if c[-1] + ROW_ELEMS > shape[-1]:
            raise ConvertError(f"lane {t}'s row {buf.name}{list(c)} runs past the last dimension {shape[-1]}")
        rows.append(_linear(shape, c))
    # Lines: rows joined with the row that continues them (module docstring, step 3).
    starts = sorted(rows)
    if len(set(starts)) != len(starts):
        raise ConvertError("two lanes pass the same row address")
    lines, used = [], set()
    for s in starts:
        if s in used:
            continue
        line = [s]
        used.add(s)
        while len(line) < LINE_ROWS and line[-1] + ROW_ELEMS in rows and line[-1] + ROW_ELEMS not in used:
            line.append(line[-1] + ROW_ELEMS)
            used.add(line[-1])
        lines.append(line)
    width = len(lines[0]) * ROW_ELEMS
    if any(len(ln) * ROW_ELEMS != width for ln in lines):
        raise ConvertError("the rows do not form lines of one length")
    where = {}  # linear start of a row -> (line, first element in the line)
    for i, ln in enumerate(lines):
        for k, s in enumerate(ln):
            where[s] = (i, k * ROW_ELEMS)
    # The box the elements make, and its row-major order against the lines' order.
    elems = [s + e for ln in lines for s in ln for e in range(ROW_ELEMS)]
    coords = []
    for x in elems:
        c, rest = [], x
        for n in reversed(shape):
            c.append(rest % n)
            rest //= n
        coords.append(tuple(reversed(c)))
    lo = [min(c[d] for c in coords) for d in range(len(shape))]
    hi = [max(c[d] for c in coords) + 1 for d in range(len(shape))]
    box = sorted(_linear(shape, c) for c in _box(lo, hi))
    if box != elems:
        raise ConvertError(f"the rows {instr} addresses are not a box of {buf.name} in row-major order")
    region = ", ".join(":" if (a, b) == (0, n) else (str(a) if b == a + 1 else f"{a}:{b}")
                       for a, b, n in zip(lo, hi, shape))
    fmap = {}
    for t in range(LANES):
        for j, r in enumerate(regs):
            for h in range(2):
                mat, row, col = ldmatrix_element(trans, t, j, h)
                line, e0 = where[rows[8 * mat + row]]
                fmap[(line, e0 + col)] = (t, 2 * r.index + h)
    frag = {"shape": (len(lines), width), "map": fmap, "trans": trans, "dtype": str(buf.dtype)}
    return buf, f"{buf.name}[{region}]", frag, num, trans


def stmatrix_ops(call, text, env, ev, ex, emit, ws: list[int]) -> list[dict]:
    """`stmatrix.sync.aligned.m8n8.x{1,2,4}[.trans].shared.b16(ptr, r0, ..)` (operand order: the
    address first; apache/tvm 5d4dc87 python/tvm/backend/cuda/ptx/table.py:7005-7020):
    one `stmatrix` op per issuing warp.  The fragment is computed from the lanes' row addresses
    exactly as for ldmatrix (the module docstring): stmatrix is its inverse, so the register
    array's model buffer is that fragment, and an array also read or written by ldmatrix must
    hold the same fragment there."""
    from kernel_env import Evaluator
    if len(call.args) < 2:
        raise ConvertError("stmatrix needs an address and registers")
    regs = []
    for n in call.args[1:]:  # `*[src[i] for i in range(4)]`: a starred list is its registers
        v = ev.value(n.value) if isinstance(n, ast.Starred) else ev.value(n)
        regs.extend(v if isinstance(v, (list, tuple)) else [v])
    if not regs or not all(isinstance(r, RegElem) for r in regs) or any(r.array is not regs[0].array for r in regs):
        raise ConvertError("the stmatrix source operands are not registers of one K.alloc_local array")
    arr = regs[0].array
    ops = []
    for w in ws:
        ptrs = _lane_ptrs(call.args[0], env, w, Evaluator)
        _buf, smem, frag, num, trans = ldmatrix_fragment(text, ptrs, regs)
        fb = fragment_buffer(arr, frag, ex, emit)
        ops.append({"kind": "stmatrix", "num": num, "trans": trans, "smem": smem, "regs": fb.name,
                    "warps": [w], "_suffix": f".w{w}"})
    return ops


def _box(lo, hi):
    if not lo:
        yield ()
        return
    for i in range(lo[0], hi[0]):
        for rest in _box(lo[1:], hi[1:]):
            yield (i,) + rest


def _subset_buffer(arr: RegArray, frag: dict, ex, emit) -> BufferRef:
    """The model buffer of the registers one ldmatrix / stmatrix moves when they are not the whole
    array in order (reg_bf16_words[4 k .. 4 k + 3] of a 32-register array, words[r], words[r + 2],
    ... of a `.local()` view): the fragment over those registers' slots, each slot numbered as
    in the array (2 index + half, 16-bit units), the first one as the layout's offset.  One buffer
    per register set; the same set must hold the same fragment at every use."""
    slots = sorted({s for _t, s in frag["map"].values()})
    key = tuple(slots)
    if key in arr.views:
        old, buf = arr.views[key]
        if (old["shape"], old["map"], old["dtype"]) != (frag["shape"], frag["map"], frag["dtype"]):
            raise ConvertError(f"registers {key} of {arr.name} (line {arr.line}) hold another fragment here than at "
                               "their first ldmatrix / stmatrix: one model buffer has one layout")
        return buf
    if arr.dtype not in ("uint32", "int32"):
        raise ConvertError(f"ldmatrix / stmatrix move 32-bit registers; {arr.name} is a {arr.dtype} array")
    first = frag["map"][(0,) * len(frag["shape"])][1]
    layout = factor_layout(frag["shape"], lambda c: (frag["map"][c][0], frag["map"][c][1] - first))
    if first:
        layout += f" + {first}"
    buf = emit(ex, f"{arr.name}.s{first}", "local", frag["shape"], frag["dtype"], layout, arr.line, arr.node)
    arr.views[key] = (frag, buf)
    return buf


def fragment_buffer(arr: RegArray, frag: dict, ex, emit) -> BufferRef:
    """The model buffer of a register array holding `frag`; the same array must hold the same
    fragment at every ldmatrix.  Registers that are not the whole array in order: _subset_buffer."""
    if sorted({s // 2 for _t, s in frag["map"].values()}) != list(range(arr.n)) or \
            sorted({s for _t, s in frag["map"].values()}) != list(range(2 * arr.n)) or \
            any(isinstance(k, tuple) for k in arr.views):
        return _subset_buffer(arr, frag, ex, emit)
    if arr.frag is not None:
        if (arr.frag["shape"], arr.frag["map"], arr.frag["dtype"]) != (frag["shape"], frag["map"], frag["dtype"]):
            raise ConvertError(f"register array {arr.name} (line {arr.line}) holds another fragment here than at "
                               "its first ldmatrix: one model buffer has one layout")
        return arr.buffer
    if arr.dtype not in ("uint32", "int32"):
        raise ConvertError(f"ldmatrix / stmatrix move 32-bit registers; {arr.name} is a {arr.dtype} array")
    layout = factor_layout(frag["shape"], lambda c: frag["map"][c])
    arr.frag = frag
    arr.buffer = emit(ex, arr.name, "local", frag["shape"], frag["dtype"], layout, arr.line, arr.node)
    return arr.buffer


def transposed_view(arr: RegArray, ex, emit) -> BufferRef:
    if "T" not in arr.views:
        L, E = arr.frag["shape"]
        fmap = arr.frag["map"]
        layout = factor_layout((E, L), lambda c: fmap[(c[1], c[0])])
        arr.views["T"] = emit(ex, f"{arr.buffer.name}.T", "local", (E, L), arr.frag["dtype"], layout, arr.line,
                              arr.node, view_of=arr.buffer.name)
    return arr.views["T"]


def operand_region(arr: RegArray, regs: list[RegElem], role: str, ex, emit, shape: str = "m16n8k16") -> str:
    """REGION text of mma.sync operand `role` ("a" or "b") held in `regs` of `arr`."""
    if arr.frag is None:
        raise ConvertError(f"mma.sync operand {role.upper()} is register array {arr.name} (line {arr.line}), "
                           "which no modelled ldmatrix filled (its values come from thread arithmetic the "
                           "format does not describe)")
    rows, cols, nregs = MMA_SHAPES[shape][role]
    slots = {2 * r.index + h for r in regs for h in range(2)}
    trans = arr.frag["trans"]
    held = [(e, i) if trans else (i, e) for (i, e), (_, s) in arr.frag["map"].items() if s in slots]
    lo = [min(c[d] for c in held) for d in range(2)]
    hi = [max(c[d] for c in held) + 1 for d in range(2)]
    if (hi[0] - lo[0], hi[1] - lo[1]) != (rows, cols) or len(held) != rows * cols or \
            len(set(held)) != len(held):
        raise ConvertError(f"the registers {[r.index for r in regs]} of {arr.name} hold no ({rows}, {cols}) "
                           f"box of its fragment (operand {role.upper()})")
    # The format's convention: a thread's operand registers are its ascending registers of the region.
    per_lane: dict = {}
    for (i, e), (t, s) in arr.frag["map"].items():
        if s in slots:
            per_lane.setdefault(t, set()).add(s // 2)
    want = [r.index for r in regs]
    for t, rs in per_lane.items():
        if sorted(rs) != want:
            raise ConvertError(f"lane {t} passes registers {want} of {arr.name} as operand {role.upper()}, not its "
                               f"ascending registers {sorted(rs)} of the operand's elements (the format's order)")
    buf = transposed_view(arr, ex, emit) if trans else arr.buffer
    shp = buf.shape
    parts = [":" if (a, b) == (0, n) else f"{a}:{b}" for a, b, n in zip(lo, hi, shp)]
    return buf.name if all(p == ":" for p in parts) else f"{buf.name}[{', '.join(parts)}]"


def c_buffer(arr: RegArray, ex, emit) -> BufferRef:
    """The accumulator's model buffer.  An array of 4 k float32 registers holds k C tiles, tile j in
    registers 4 j .. 4 j + 3 (a kernel passes `acc[4 j + i]`): the buffer is (16, 8 k), tile j
    its columns 8 j .. 8 j + 7, each tile the C fragment of PTX ISA 9.1 §9.7.14.5.8 (what the
    instruction writes, by definition).  The side-by-side arrangement is this extraction's choice;
    every op names its tile's region, so the checks see each instruction's own fragment."""
    if arr.buffer is not None and not arr.c_fragment:
        raise ConvertError(f"register array {arr.name} is an ldmatrix fragment and the mma.sync accumulator")
    if arr.buffer is None:
        if arr.n % 4 or arr.n > 64 or arr.dtype not in ("float32", "float"):
            raise ConvertError(f"mma.sync f32 accumulator {arr.name} has {arr.n} {arr.dtype} registers, not 4 k "
                               "float32")
        tiles = arr.n // 4
        fmap = {}
        for t in range(LANES):
            for j in range(tiles):
                for i in range(4):
                    r, c = mma_c_element(t, i)
                    fmap[(r, 8 * j + c)] = (t, 4 * j + i)
        layout = factor_layout((16, 8 * tiles), lambda c: fmap[c])
        arr.c_fragment = True
        arr.buffer = emit(ex, arr.name, "local", (16, 8 * tiles), "float32", layout, arr.line, arr.node)
    return arr.buffer


def c_region(arr: RegArray, d: list) -> str:
    """REGION of the accumulator tile the D registers `d` are (see c_buffer)."""
    j0 = d[0].index
    if j0 % 4 or [r.index for r in d] != list(range(j0, j0 + 4)):
        raise ConvertError(f"D registers {[r.index for r in d]} of {arr.name} are not one tile 4 j .. 4 j + 3")
    if arr.n == 4:
        return arr.buffer.name
    j = j0 // 4
    return f"{arr.buffer.name}[:, {8 * j}:{8 * j + 8}]"


def mma_sync_op(text: str, call: ast.Call, ev, ex, emit) -> tuple[dict, str | None]:
    """The model op fields of one warp's mma.sync (without warps/name), and a note."""
    m = re.match(r"mma\.sync\.aligned\.(m\d+n\d+k\d+)\.row\.col\.(\w+)\.(\w+)\.(\w+)\.(\w+)$", text)
    if m is None or m.group(1) not in MMA_SHAPES:
        raise ConvertError(f"{text!r}: only mma.sync.aligned.m16n8k16 / m16n8k8 .row.col are modelled")
    shape = m.group(1)
    na, nb = MMA_SHAPES[shape]["a"][2], MMA_SHAPES[shape]["b"][2]
    nops = 4 + na + nb + 4
    dd, ad, bd, cd = m.group(2), m.group(3), m.group(4), m.group(5)
    if dd != "f32" or cd != "f32" or ad not in ("bf16", "f16") or bd != ad:
        raise ConvertError(f"{text!r}: only f32 accumulators with bf16/f16 inputs are modelled")
    args = []
    for a in call.args:
        if isinstance(a, ast.Starred):
            v = ev.value(a.value)
            if not isinstance(v, (tuple, list)):
                raise ConvertError(f"*{ast.unparse(a.value)} is not a tuple")
            args.extend(("value", x) for x in v)
        else:
            args.append(("node", a))
    if len(args) != nops:
        raise ConvertError(f"mma.sync {shape} f32 takes {nops} operands, the source passes {len(args)}")

    def regs_of(part, count, what):
        regs = []
        for kind, x in part:
            v = ev.value(x) if kind == "node" else x  # *(acc[i] for i in ...) passes registers as values
            if not isinstance(v, RegElem):
                raise ConvertError(f"{what} operand {ast.unparse(x) if kind == 'node' else repr(x)} is not a "
                                   "register of a K.alloc_local array")
            regs.append(v)
        if any(r.array is not regs[0].array for r in regs):
            raise ConvertError(f"the {what} registers are not of one register array")
        return regs

    d = regs_of(args[0:4], 4, "D")
    a = regs_of(args[4:4 + na], na, "A")
    b = regs_of(args[4 + na:4 + na + nb], nb, "B")
    dtype = {"bf16": "bfloat16", "f16": "float16"}[ad]
    for arr in (a[0].array, b[0].array):
        if arr.frag is not None and arr.frag["dtype"] != dtype:
            raise ConvertError(f"{arr.name} holds {arr.frag['dtype']} elements; the instruction reads {ad}")
    note = None
    cvals = []
    for kind, x in args[4 + na + nb:]:
        if kind == "value":
            cvals.append(x)
        else:
            try:
                cvals.append(ev.value(x))
            except UnresolvedError:
                raise
    if all(isinstance(v, RegElem) for v in cvals):
        if [(v.array, v.index) for v in cvals] != [(r.array, r.index) for r in d]:
            raise ConvertError("C is not the D registers (C aliases D is the form modelled)")
    elif all(isinstance(v, (int, float)) and not isinstance(v, bool) and v == 0 for v in cvals):
        note = ("C is the constant 0: the format's mma.sync reads c; its registers here are those of D, which "
                "no earlier op wrote (kernel.coverage counts it as an accumulator zeroed by thread arithmetic)")
    else:
        raise ConvertError("C is neither D's registers nor the constant 0")
    cbuf = c_buffer(d[0].array, ex, emit)
    creg = c_region(d[0].array, d)
    op = {"kind": "mma.sync", "shape": shape,
          "a": operand_region(a[0].array, a, "a", ex, emit, shape),
          "b": operand_region(b[0].array, b, "b", ex, emit, shape),
          "c": creg}
    return op, note
