"""Instruction-level TMA and tcgen05 ops: `cp.async.bulk.tensor`, `tcgen05.mma`, `tcgen05.ld`.

Pre-kern-DSL kernels issue the Blackwell data path as raw PTX whose operands the kernel builds
itself.  Each operand is computed here from the source, never assumed:

    in the kernel                                               value bound (this module)
    ----------------------------------------------------------  -------------------------------
    T.call_packed("runtime.cuTensorMapEncodeTiled", MAP, dtype,  MAP = TensorMap: the arguments of
        rank, X.data, dims.., strides.., box.., elem_strides..,   cuTensorMapEncodeTiled, in TVM's
        interleave, swizzle, l2_promotion, oob_fill)              order (apache/tvm 5d4dc87
                                                                  src/backend/cuda/runtime/
                                                                  cuda_device_api.cc:399-470)
    T.cuda.tcgen05.encode_matrix_descriptor(address_of(D), ptr,  D = SmemDesc: start = ptr (an
        ldo, sdo, swizzle)                                        element's address), LBO = 16 ldo,
                                                                  SBO = 16 sdo bytes, layout type of
                                                                  `swizzle` 0/1/2/3/4 = none/32B/64B/
                                                                  128B/128B_base32B, base offset 0
                                                                  (tvm python/tvm/backend/cuda/cpp/
                                                                  descriptors.py:70-96)
    T.cuda.tcgen05.encode_instr_descriptor(address_of(I), d_dtype=, I = the instruction descriptor's
        a_dtype=, b_dtype=, M=, N=, K=, trans_a=, trans_b=,         fields (descriptors.py:311-383)
        n_cta_groups=)

and the instructions become model ops (docs/model-format.md, "Instruction-level ops"); the
operand order of each is TVM's PTX table (python/tvm/backend/cuda/ptx/table.py at 5d4dc87):

    cp.async.bulk.tensor.Nd.shared::cluster.global...(smem, MAP, c0..cN-1, mbar[, ...])  -> tma.load
    cp.async.bulk.tensor.Nd.global.shared::cta...(MAP, c0..cN-1, smem[, ...])             -> tma.store
        (table.py:5426-5500): `global` is the box at the coordinates in the global buffer the map
        was encoded over (the map must be that buffer's row-major view); `smem` is the region of
        as many elements that starts at the smem pointer (trailing dimensions taken whole).
    tcgen05.mma.cta_group::G.kind::K(d_taddr, a_desc, b_desc, idesc, mask x 4G, enable_input_d)
        (table.py:7668-7692, the dense `ss` form; with .ws and block scaling: mma_forms.py) -> tcgen05.mma
    tcgen05.ld.sync.aligned.32x32b.xN.b32(r0..rN-1, taddr) (table.py:7523-7540)            -> tcgen05.ld

Values that depend on thread indices (an A pointer indexed by warp_id, a TMEM column of
wg_id * MMA_N) are evaluated per issuing warp (warps.py) and must be the same at every lane of
it; warps with equal operands share one op.  A raw TMEM address (not `allocated_addr`) is
relative to the allocation base only when the kernel's TMEM pool allocates all 512 columns
(then the allocation starts at lane 0, column 0) and the kernel has exactly one TMEM buffer.
Everything else stays unresolved, saying why.
"""
from __future__ import annotations

import ast
import math
import re

from corpus_notation import DTYPE_BITS, Swizzle as cn_Swizzle, dotted
from kernel_env import BufferRef, ConvertError, Evaluator, Pool, Unresolved, UnresolvedError

TMEM_COLS = 512           # 32-bit columns of the SM's tensor memory (PTX ISA §9.7.16.2.1)
TMEM_LANES = 128
LANES = 32
TMAP_SWIZZLE = {0: "none", 1: "32B", 2: "64B", 3: "128B", 4: "128B_ATOM_32B", 6: "128B_ATOM_64B"}
TMAP_OOB = {0: "none", 1: "nan"}
DESC_SWIZZLE = {0: "none", 1: "32B", 2: "64B", 3: "128B", 4: "128B_base32B"}
DTYPE_BYTES = {"float16": 2, "bfloat16": 2, "float32": 4, "int32": 4, "uint32": 4, "int8": 1, "uint8": 1,
               "float8_e4m3fn": 1, "float8_e5m2": 1, "uint64": 8, "int64": 8, "int16": 2, "uint16": 2}
# tcgen05.mma .kind from the operand dtypes, and K of one instruction (PTX ISA §9.7.16.10.1, Table "kind")
MMA_KIND = {("float16", "float16"): "f16", ("bfloat16", "bfloat16"): "f16", ("float32", "float32"): "tf32",
            ("tfloat32", "tfloat32"): "tf32", ("float8_e4m3fn", "float8_e4m3fn"): "f8f6f4",
            ("float8_e5m2", "float8_e5m2"): "f8f6f4", ("int8", "int8"): "i8", ("uint8", "uint8"): "i8"}
MMA_K = {"f16": 16, "tf32": 8, "f8f6f4": 32, "i8": 32}


class TensorMap:
    def __init__(self, name, line, dtype, buf: BufferRef, dims, strides, box, elem_strides, interleave,
                 swizzle, oob, l2):
        self.name, self.line, self.dtype, self.buf = name, line, dtype, buf
        self.dims, self.strides, self.box, self.elem_strides = dims, strides, box, elem_strides
        self.interleave, self.swizzle, self.oob, self.l2 = interleave, swizzle, oob, l2
        self.base = 0  # globalAddress as a byte offset into buf (handle_add_byte_offset(buf.data, N))

    def model(self) -> dict:
        m = {"dtype": self.dtype, "dims": list(self.dims), "strides_bytes": list(self.strides),
             "box": list(self.box), "elem_strides": list(self.elem_strides), "swizzle": self.swizzle,
             "interleave": "none", "oob_fill": self.oob}
        if self.base:
            m["base_offset_bytes"] = self.base
        return m


class SmemDescDeferred:
    """encode_matrix_descriptor's arguments with the environment at the call: evaluated where an
    instruction uses it, per issuing warp (the pointer may depend on warp_id).  `first` is the
    position of the pointer argument: 1 for encode_matrix_descriptor(addr, ptr, ldo, sdo, swizzle),
    0 for SmemDescriptor.init(ptr, ldo, sdo, swizzle)."""

    def __init__(self, call: ast.Call, env: dict, line: int, first: int = 1):
        self.call, self.env, self.line, self.first = call, env, line, first


def _target_name(node) -> str | None:
    if isinstance(node, ast.Call) and (dotted(node.func) or "").split(".")[-1] == "address_of" and node.args:
        node = node.args[0]
    if isinstance(node, ast.Subscript):  # address_of(desc_buf[0])
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _arg(call, i, kw, default=None):
    for k in call.keywords:
        if k.arg == kw:
            return k.value
    return call.args[i] if i < len(call.args) else default


def bind_encoder(call: ast.Call, env: dict, ex, line: int, store=None) -> bool:
    """Bind the tensor map / descriptor an encoder call fills; True when `call` is one.  `store`:
    the walker's store into a declared scalar (mma_forms.bind_encoder)."""
    import mma_forms  # block-scaled descriptors and runtime_instr_desc (mma_forms.py)
    if mma_forms.bind_encoder(call, env, ex, line, store):
        return True
    d = dotted(call.func) or ""
    short = d.split(".")[-1]
    if short == "call_packed" and call.args and isinstance(call.args[0], ast.Constant) and \
            call.args[0].value == "runtime.cuTensorMapEncodeTiled":
        name = _target_name(call.args[1]) if len(call.args) > 1 else None
        if name is None:
            return True
        try:
            env[name] = _tensor_map(call, name, env, ex, line)
        except UnresolvedError as e:
            env[name] = Unresolved(name, line, f"the tensor map encoded at line {line} depends on an unresolved "
                                   "value", e.item)
        except (ConvertError, ArithmeticError, TypeError, ValueError, IndexError, KeyError) as e:
            env[name] = Unresolved(name, line, f"the tensor map encoded at line {line} is not modelled: {e}")
        return True
    if short == "encode_matrix_descriptor" and "tcgen05" in d and call.args:
        name = _target_name(call.args[0])
        if name is not None:
            env[name] = SmemDescDeferred(call, dict(env), line)
        return True
    if short == "encode_instr_descriptor" and "tcgen05" in d and call.args:
        name = _target_name(call.args[0])
        if name is not None:
            bind_instr_desc(env, name, line, lambda: _instr_desc(call, Evaluator(env), line))
        return True
    return False


def bind_instr_desc(env: dict, name: str, line: int, build) -> None:
    """env[name] = build() (an instruction descriptor); when build raises, an Unresolved saying
    why (an unresolved operand, or a form the model does not describe)."""
    try:
        env[name] = build()
    except UnresolvedError as e:
        env[name] = Unresolved(name, line, f"the instruction descriptor at line {line} depends on an "
                               "unresolved value", e.item)
    except (ConvertError, TypeError, ValueError) as e:
        env[name] = Unresolved(name, line, f"the instruction descriptor at line {line} is not modelled: {e}")


def _dtype_of(ev, node) -> str:
    v = ev.value(node)
    return str(v)


def _tensor_map(call, name, env, ex, line) -> TensorMap:
    ev = Evaluator(env)
    a = call.args
    if len(a) < 5:
        raise ConvertError("cuTensorMapEncodeTiled needs at least 5 arguments")
    dtype = _dtype_of(ev, a[2])
    rank = ev.as_int(a[3])
    if not 1 <= rank <= 5:
        raise ConvertError(f"rank {rank} is not 1..5")
    want = 1 + 4 + rank * 4 + 3  # name + (map, dtype, rank, ptr) + 4 rank-long groups - 1 + 4 kinds
    nargs = len(a)
    if nargs not in (want, want + 1):
        raise ConvertError(f"{nargs - 1} arguments for a rank-{rank} map, TVM's encoder takes {want - 1} (or one "
                           "more: force_cu_dtype)")
    base = a[4]
    base_bytes = 0
    if isinstance(base, ast.Call) and (dotted(base.func) or "").split(".")[-1] == "handle_add_byte_offset" and \
            len(base.args) == 2:
        # TVM's handle_add_byte_offset(h, n): the handle h moved n bytes (tir op
        # tirx.handle_add_byte_offset); the map's globalAddress is then n bytes into h's buffer,
        # the model's tensor_map.base_offset_bytes (docs/model-format.md, tma.load).
        base_bytes = _map_int(ev, base.args[1])
        base = base.args[0]
        if base_bytes < 0:
            raise ConvertError(f"the map's base is {base_bytes} bytes before its buffer's first byte")
        if base_bytes % 16:
            # cuTensorMapEncodeTiled (cuda.h): globalAddress must be 16-byte aligned
            raise ConvertError(f"the map's base is {base_bytes} bytes into its buffer, not 16-byte aligned "
                               "(cuTensorMapEncodeTiled refuses such a globalAddress)")
    if not (isinstance(base, ast.Attribute) and base.attr == "data" and isinstance(base.value, ast.Name)):
        raise ConvertError(f"the map's base {ast.unparse(base)!r} is not a kernel buffer's .data")
    buf = env.get(base.value.id)
    if isinstance(buf, Unresolved):
        raise UnresolvedError(buf)
    if not isinstance(buf, BufferRef) or buf.scope != "global":
        raise ConvertError(f"the map's base {base.value.id!r} is not a global buffer of the model")
    ints = [_map_int(ev, x) for x in a[5:]]
    dims = ints[0:rank]
    strides = ints[rank:2 * rank - 1]
    box = ints[2 * rank - 1:3 * rank - 1]
    elem = ints[3 * rank - 1:4 * rank - 1]
    interleave, swz, l2, oob = ints[4 * rank - 1:4 * rank + 3]
    import tma_bytes  # wider map elements, TFLOAT32 (tma_bytes.py)
    dtype, note = tma_bytes.map_dtype(dtype, ints[4 * rank + 3] if len(ints) > 4 * rank + 3 else None, buf)
    if interleave != 0:
        raise ConvertError(f"interleave {interleave} is not modelled")
    if swz not in TMAP_SWIZZLE:
        raise ConvertError(f"swizzle kind {swz} is not one the model format has")
    if oob not in TMAP_OOB:
        raise ConvertError(f"OOB fill kind {oob}")
    tm = TensorMap(name, line, dtype, buf, dims, strides, box, elem, interleave, TMAP_SWIZZLE[swz],
                   TMAP_OOB[oob], l2)
    tm.note = note
    tm.base = base_bytes
    return tm


def _register_value(ev, node):
    """What an encoder bound to a one-register array: `desc_i[0]` after
    encode_instr_descriptor(T.address_of(desc_i[0]), ...) is the descriptor bound to desc_i."""
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name) and \
            isinstance(node.slice, ast.Constant) and node.slice.value == 0:
        v = ev.env.get(node.value.id)
        if isinstance(v, (dict, SmemDescDeferred)):
            return v
    return ev.value(node)


def _map_int(ev, node) -> int:
    """An integer argument of the encoder; a SwizzleMode member counts as its value (0-3, the
    CUtensorMapSwizzle numbers none/32B/64B/128B; tma_utils.py:28-33), as `.value` gives it."""
    v = ev.value(node)
    if isinstance(v, cn_Swizzle):
        return v.mode
    if isinstance(v, bool) or not isinstance(v, int):
        raise ConvertError(f"{ast.unparse(node)!r} is not an integer (got {v!r})")
    return v


def _instr_desc(call, ev, line) -> dict:
    order = ["desc", "d_dtype", "a_dtype", "b_dtype", "M", "N", "K", "trans_a", "trans_b", "n_cta_groups"]
    vals = {}
    for i, k in enumerate(order[1:], start=1):
        node = _arg(call, i, k)
        if node is None and k == "n_cta_groups":
            node = _arg(call, 99, "n_cta_group")
        if node is None:
            if k in ("trans_a", "trans_b"):
                vals[k] = False
                continue
            if k == "n_cta_groups":
                vals[k] = 1
                continue
            raise ConvertError(f"encode_instr_descriptor without {k}")
        vals[k] = ev.value(node)
    for k in ("neg_a", "neg_b", "sat_d", "is_sparse"):
        node = _arg(call, 99, k)
        if node is not None and ev.value(node):
            raise ConvertError(f"{k}=True is not modelled")
    for k in ("M", "N", "K", "n_cta_groups"):
        if not isinstance(vals[k], int) or isinstance(vals[k], bool):
            raise ConvertError(f"{k} is not an integer")
    return {"d_dtype": str(vals["d_dtype"]), "a_dtype": str(vals["a_dtype"]), "b_dtype": str(vals["b_dtype"]),
            "m": vals["M"], "n": vals["N"], "k": vals["K"], "a_major": "MN" if vals["trans_a"] else "K",
            "b_major": "MN" if vals["trans_b"] else "K", "cta_group": vals["n_cta_groups"], "line": line}


# -- evaluation per issuing warp ------------------------------------------------------------


def per_warp(fn, env, ws: list[int]) -> dict:
    """{warp: fn(evaluator)}; without thread dependence one evaluation serves every warp.  A value
    that differs between lanes of one warp is refused (the op's operands are per warp)."""
    try:
        v = fn(Evaluator(env))
        return {w: v for w in ws}
    except UnresolvedError as e:
        if not getattr(e.item.root(), "thread", False) and not getattr(e.item, "thread", False):
            raise
    out = {}
    for w in ws:
        first = fn(Evaluator(env, thread=(w, 0)))
        for lane in (1, 7, 16, 31):
            if _key(fn(Evaluator(env, thread=(w, lane)))) != _key(first):
                raise ConvertError(f"an operand differs between lanes 0 and {lane} of warp {w}")
        out[w] = first
    return out


def _key(v):
    from fragments import Ptr
    from tmem_cp import DescWithStart
    from tmem_ops import TmemAddr
    if isinstance(v, (TmemAddr, DescWithStart)):
        return v.key()
    if isinstance(v, Ptr):
        return ("ptr", v.buf.name, v.coords)
    if isinstance(v, (list, tuple)):
        return tuple(_key(x) for x in v)
    if isinstance(v, dict):
        return tuple(sorted((k, _key(x)) for k, x in v.items()))
    return v


def group_warps(per: dict) -> list[tuple[list[int], object]]:
    groups: dict = {}
    for w in sorted(per):
        groups.setdefault(_key(per[w]), (per[w], []))[1].append(w)
    return [(ws, v) for v, ws in groups.values()]


def _ptr(v, what):
    from fragments import Ptr
    import byte_addr  # T.ptr_byte_offset(p, n, dt): the element at that byte (byte_addr.py)
    v = byte_addr.resolve(v)
    if not isinstance(v, Ptr):
        raise ConvertError(f"{what} is not an element address (buf.ptr_to([...])) of a model buffer")
    return v


def ptr_text(p) -> str:
    return f"{p.buf.name}[{', '.join(str(c) for c in p.coords)}]"


def region_from(p, count: int, what: str, box=None) -> str:
    """The region of `count` elements that starts at element p.  With `box` (the tensor map's box,
    innermost first) whose dimensions, innermost last, fit the buffer's trailing dimensions at p,
    that box placed at p (a 64-column box of a 128-column buffer is 64 columns of every row,
    not the first rows); else the trailing dimensions from the first one with a non-zero
    coordinate, taken so that their elements number `count`."""
    shape = p.buf.shape
    n = len(shape)
    if box is not None:
        dims = [d for d in reversed(box)]
        if len(dims) > n and [d for d in dims if d != 1]:
            # a 3-d box (64, 1, 128) of one head in a 2-d stage buffer: its extent-1 dimensions add no
            # elements, the rest is placed at p (kernel.tma-layout compares every byte of the placement)
            dims = [d for d in dims if d != 1]
        if math.prod(dims) == count and len(dims) <= n and \
                all(p.coords[n - len(dims) + i] + d <= shape[n - len(dims) + i] for i, d in enumerate(dims)):
            k0 = n - len(dims)
            idx = [str(c) for c in p.coords[:k0]]
            for i, d in enumerate(dims):
                lo, hi = p.coords[k0 + i], p.coords[k0 + i] + d
                idx.append(":" if (lo, hi) == (0, shape[k0 + i]) else f"{lo}:{hi}")
            return f"{p.buf.name}[{', '.join(idx)}]"
    for k in reversed(range(n)):  # the fewest dimensions that hold the box
        inner = math.prod(shape[k + 1:])
        if any(c != 0 for c in p.coords[k + 1:]) or count % inner:
            continue
        span = count // inner
        if span < 1 or p.coords[k] + span > shape[k]:
            continue
        idx = [str(c) for c in p.coords[:k]]
        lo, hi = p.coords[k], p.coords[k] + span
        idx.append(":" if (lo, hi) == (0, shape[k]) else f"{lo}:{hi}")
        idx += [":"] * (n - k - 1)
        return f"{p.buf.name}[{', '.join(idx)}]"
    raise ConvertError(f"{what}: {count} elements from {ptr_text(p)} are not a box of {p.buf.name} "
                       f"{tuple(shape)}")


# -- TMA -------------------------------------------------------------------------------------


def tma_ops(call, text, env, ex) -> list[dict]:
    m = re.match(r"cp\.async\.bulk\.tensor\.([1-5])d\.(.*)$", text)
    if not m:
        raise ConvertError(f"{text!r}: not a cp.async.bulk.tensor spelling")
    rank, rest = int(m.group(1)), m.group(2)
    load = rest.startswith(("shared::cluster.global", "shared::cta.global"))
    store = rest.startswith("global.shared::cta")
    if not (load or store):
        raise ConvertError(f"{text!r}: neither a global -> shared load nor a shared -> global store")
    import tma_forms  # multicast masks, gather4 / scatter4 / im2col refusals (tma_forms.py)
    tma_forms.refuse_unmodelled(text)
    args = call.args
    gather = tma_forms.is_gather4(text)
    ncoords = 1 + tma_forms.GATHER_ROWS if gather else rank  # gather4: the column, then four rows
    need = ncoords + (3 if load else 2)
    if len(args) < need:
        raise ConvertError(f"{text}: {len(args)} operands, the form needs at least {need}")
    smem_node, map_node, coord_nodes = (args[0], args[1], args[2:2 + ncoords]) if load else \
        (args[1 + rank], args[0], args[1:1 + rank])
    ev = Evaluator(env)
    tm = ev.value(map_node)
    if not isinstance(tm, TensorMap):
        raise ConvertError(f"{ast.unparse(map_node)!r} is not a tensor map encoded in this file")
    if gather:
        tma_forms.gather4_form(text, rank, load, tm)
    ranks = tma_forms.multicast_ranks(call, text, rank, ev) if load else None
    if tm.dims.__len__() != rank:
        raise ConvertError(f"a {rank}-d instruction on the rank-{len(tm.dims)} map {tm.name}")
    ws = ex.executing_warps()
    if ws is None:
        raise ConvertError("the issuing thread's warp is not determined (no thread index fixes the CTA's warps)")

    import runtime_data  # a coordinate that is runtime data: bound under the instance (runtime_data.py)
    use = (f"the smallest legal value of an index: it is a TMA coordinate at line {call.lineno}")

    def operands(e):
        raw = e.value(smem_node)
        p = _ptr(raw, "the shared-memory operand")
        import byte_addr  # the box's first element under the swizzle (byte_addr.tma_origin)
        p = (p, byte_addr.tma_origin(raw, p))
        if gather:
            return p, (runtime_data.coord(e, coord_nodes[0], 0, use),), \
                tuple(tma_forms.gather4_rows(e, coord_nodes[1:], call.lineno))
        return p, runtime_data.coords(e, coord_nodes, [0] * len(coord_nodes), use), None

    out = []
    for group, ((p, origin), coords, rows) in group_warps(per_warp(operands, env, ws)):
        if rows is not None:
            out.append(_gather4_op(tm, p, coords[0], list(rows), group, rest, origin))
            continue
        import tma_bytes
        per = DTYPE_BITS[tm.dtype] // DTYPE_BITS[tm.buf.dtype]  # buffer elements per map element
        if load and tma_bytes.wholly_outside(tm, coords):
            out.append(_filled_box_op(tm, p, origin, coords, group, rest, ranks, per))
            continue
        inbox = tma_bytes.in_bounds(tm, coords)  # the part inside the map's dims (zero fill / clipped)
        g = _global_region(tm, coords, inbox)
        box = math.prod(inbox) * per
        op = {"kind": "tma.load" if load else "tma.store", "warps": group}
        if "cta_group::2" in rest:
            op["cta_group"] = 2
        if ranks is not None:
            op["multicast"] = ranks
        # a rank-2 map that views the buffer otherwise (out (4096, 64, 512) as [512, 262144]) still
        # moves box[1] rows of box[0] elements: the box placed at p when it fits the shared buffer's
        # last two dimensions (o_smem[0:64, 64:128] for a 64 x 64 box at o_smem[0, 64]), as for a
        # plain view; kernel.tma-layout compares every byte, so a wrong placement is a finding
        smem = region_from(origin, box, "the shared box",
                           inbox if per == 1 and (_plain_view(tm) or len(tm.box) == 2) else None)
        op.update({"tensor_map": tm.model(), "coords": list(coords), "global": g, "smem": smem,
                   "smem_address": ptr_text(p)})
        op["notes"] = (f"tensor map {tm.name} from cuTensorMapEncodeTiled at line {tm.line} "
                       f"(L2 promotion {tm.l2}, not modelled)")
        if getattr(tm, "note", None):
            op["notes"] += "; " + tm.note
        if list(inbox) != list(tm.box):
            op["notes"] += (f"; the box {list(tm.box)} at {list(coords)} runs past the map's dims {list(tm.dims)}: "
                            f"`global` / `smem` name its in-bounds part {inbox} (zero fill / clipped)")
        out.append(op)
    return out


def _filled_box_op(tm: TensorMap, p, origin, coords, group, rest: str, ranks, per: int) -> dict:
    """A tma.load whose box lies wholly outside the map's dims (tinygemm2's last K slot at K=720): it
    reads no global memory and fills the whole box (zeros; NaN under oob_fill nan), so the model has
    no `global` and `smem` names the filled box (docs/model-format.md)."""
    op = {"kind": "tma.load", "warps": group}
    if "cta_group::2" in rest:
        op["cta_group"] = 2
    if ranks is not None:
        op["multicast"] = ranks
    smem = region_from(origin, math.prod(tm.box) * per, "the shared box",
                       list(tm.box) if per == 1 and (_plain_view(tm) or len(tm.box) == 2) else None)
    op.update({"tensor_map": tm.model(), "coords": list(coords), "smem": smem, "smem_address": ptr_text(p)})
    op["notes"] = (f"tensor map {tm.name} from cuTensorMapEncodeTiled at line {tm.line}; the box {list(tm.box)} at "
                   f"{list(coords)} lies wholly outside the map's dims {list(tm.dims)}: it reads no global memory "
                   f"and fills the box")
    return op


def _gather4_op(tm: TensorMap, p, col: int, rows: list[int], group, rest: str, origin=None) -> dict:
    """A `.tile::gather4` load (tma_forms.py): `global` is the four rows' regions (each the map's
    {box[0], 1} box at (col, row)), `smem` the 4 x box[0] elements from the pointer."""
    import tma_forms
    tma_forms.gather4_in_bounds(tm, col, rows)
    per = DTYPE_BITS[tm.dtype] // DTYPE_BITS[tm.buf.dtype]
    row_box = [tm.box[0], 1]
    glob = [_global_region(tm, (col, r), row_box) for r in rows]
    smem = region_from(origin or p, tm.box[0] * tma_forms.GATHER_ROWS * per, "the shared rows",
                       [tm.box[0], tma_forms.GATHER_ROWS] if per == 1 else None)
    op = {"kind": "tma.load", "warps": group}
    if "cta_group::2" in rest:
        op["cta_group"] = 2
    op.update({"tensor_map": tm.model(), "coords": [col], "gather4": rows, "global": glob, "smem": smem,
               "smem_address": ptr_text(p)})
    op["notes"] = (f"tensor map {tm.name} from cuTensorMapEncodeTiled at line {tm.line} "
                   f"(L2 promotion {tm.l2}, not modelled); .tile::gather4 rows {rows}")
    if getattr(tm, "note", None):
        op["notes"] += "; " + tm.note
    return op


def _plain_view(tm: TensorMap) -> bool:
    """Is the map its buffer's plain row-major view (dims = the shape reversed)?  Then `global` is
    the box itself, and the shared region is the box placed at the pointer (region_from)."""
    return list(tm.dims) == list(reversed(tm.buf.shape))


def _global_region(tm: TensorMap, coords, inbox) -> str:
    """The box at `coords` (extents `inbox`, its part inside the map's dims) in the map's buffer:
    the buffer's row-major view here, other layouts and wider map elements byte by byte
    (tma_bytes.py)."""
    b = tm.buf
    esz = DTYPE_BYTES.get(b.dtype)
    if esz is None:
        raise ConvertError(f"element size of {b.dtype} unknown")
    if any(e != 1 for e in tm.elem_strides):
        raise ConvertError(f"element strides {tm.elem_strides} are not modelled")
    from allocators import row_major
    if b.layout != row_major(b.shape) or tm.dtype != b.dtype or tm.base % esz:
        import tma_bytes
        return tma_bytes.global_region(tm, coords, inbox, b)
    want = [esz * math.prod(tm.dims[:i + 1]) for i in range(len(tm.dims) - 1)]
    if not tm.base and list(tm.dims) == list(reversed(b.shape)) and list(tm.strides) == want:
        idx = []
        for d in reversed(range(len(tm.dims))):
            lo, hi = coords[d], coords[d] + inbox[d]
            idx.append(":" if (lo, hi) == (0, tm.dims[d]) else f"{lo}:{hi}")
        return f"{b.name}[{', '.join(idx)}]"
    return _box_of_view(tm, coords, b, esz, inbox)


MAX_BOX_ELEMENTS = 1 << 20


def _box_of_view(tm: TensorMap, coords, b, esz: int, inbox) -> str:
    """A map that views the buffer's row-major storage with other dimensions (a K of 128 split
    into 2 x 64 for a 128B-swizzled box: dims [64, M, K / 64], strides [K, 128] bytes): the
    elements of the box, each at byte sum((coords[d] + j_d) stride_d) (stride_0 = the element
    size; cuTensorMapEncodeTiled's addressing), must be exactly a box of the buffer, which is the
    op's `global` region.  Enumerated (at most MAX_BOX_ELEMENTS) and compared as sets: refused
    when the box's elements are not a box of the buffer."""
    es = [1]
    for s in tm.strides:
        if s % esz or s <= 0:
            raise ConvertError(f"the map's stride {s} bytes is not a positive multiple of the element size")
        es.append(s // esz)
    total = math.prod(b.shape)
    start = tm.base // esz  # the map's base, elements into the buffer (_global_region: a whole element)
    if start + sum((n - 1) * e for n, e in zip(tm.dims, es)) >= total:
        raise ConvertError(f"the map's dims {tm.dims} / strides {tm.strides}"
                           f"{f' from byte {tm.base}' if tm.base else ''} reach past {b.name}'s {total} elements")
    count = math.prod(inbox)
    if count > MAX_BOX_ELEMENTS:
        raise ConvertError(f"a box of {count} elements, more than the {MAX_BOX_ELEMENTS} compared one by one")
    offs = [start]
    for d in range(len(tm.dims)):
        offs = [o + (coords[d] + j) * es[d] for j in range(inbox[d]) for o in offs]
    got = set(offs)
    if len(got) != count:
        raise ConvertError("the map's box names some elements twice (overlapping strides)")
    strides_b = [math.prod(b.shape[i + 1:]) for i in range(len(b.shape))]
    lo = [min((o // st) % n for o in got) for st, n in zip(strides_b, b.shape)]
    hi = [max((o // st) % n for o in got) + 1 for st, n in zip(strides_b, b.shape)]
    if math.prod(h - l for l, h in zip(lo, hi)) != count:
        raise ConvertError(f"the box's elements are not a box of {b.name} {tuple(b.shape)} (the map's dims "
                           f"{tm.dims} view it with other strides)")
    idx = [":" if (l, h) == (0, n) else f"{l}:{h}" for l, h, n in zip(lo, hi, b.shape)]
    return f"{b.name}[{', '.join(idx)}]"


# -- TMEM addresses --------------------------------------------------------------------------


def tmem_base_buffer(env, ex) -> tuple[BufferRef, str]:
    """The TMEM buffer a raw address indexes, with the fact that makes the address relative to
    the allocation base (tmem_ops.py: a 512-column allocation, the only TMEM buffer)."""
    import tmem_ops
    return tmem_ops.only_buffer(env, ex)


def tmem_cols_region(buf: BufferRef, rows: str, col: int, ncols: int, what: str) -> str:
    if len(buf.shape) != 2 or buf.dtype not in ("float32", "uint32", "int32"):
        raise ConvertError(f"{what}: TMEM buffer {buf.name} is not a 2-D 32-bit buffer")
    import tmem_ops
    if not buf.layout.startswith("default_tmem_layout") and "@TLane" not in buf.layout and \
            tmem_ops._plain_cols(buf) is None:
        raise ConvertError(f"{what}: {buf.name}'s layout {buf.layout} is not the plain lane x column one")
    if col < 0 or col + ncols > buf.shape[1]:
        raise ConvertError(f"{what}: columns {col}..{col + ncols} are outside {buf.name} {tuple(buf.shape)}")
    c = ":" if (col, col + ncols) == (0, buf.shape[1]) else f"{col}:{col + ncols}"
    return f"{buf.name}[{rows}, {c}]"


# -- tcgen05.mma -----------------------------------------------------------------------------


# The tcgen05.mma instruction itself (dense, .ws, block-scaled) is mma_forms.mma_ops; the
# descriptor and operand helpers it uses stay here.


def _desc(v, what, thread=None) -> dict:
    """{"ptr": the element the instruction's operand starts at, "line", "desc": the model's
    descriptor}.  `v` is an encode_matrix_descriptor binding, a SmemDescriptor (its init()), or
    `desc.add_16B_offset(units)` of one: `start` stays the init pointer, `offset_bytes` = 16 units
    (the model's descriptor form), and the operand starts at the element that many bytes on."""
    import reg_values
    import tvm_classes
    import tmem_cp
    v = reg_values.content(v)  # a register a helper's PTX moves filled (reg_values.py)
    if getattr(getattr(v, "array", None), "values", None) is not None:
        raise ConvertError(f"the {what} descriptor is the content of register {v.array.name}[{v.index}] of helper code, "
                           "which its instructions do not fix (reg_values.py follows mov.b64 and add.u32 only)")
    if isinstance(v, tmem_cp.DescWithStart):  # a descriptor re-pointed / built by bit arithmetic (tmem_cp.py)
        p, nbytes, desc = tmem_cp._src(v, what)
        return {"ptr": offset_ptr(p, nbytes, what, getattr(v, "toward", None)) if nbytes else p, "line": None, "desc": desc, "init_warps": None}
    units, init_warps = None, None
    if isinstance(v, tvm_classes.SmemDescOffset):
        v, units = v.desc, v.units
    if isinstance(v, tvm_classes.SmemDescObj):
        if v.encoded is None:
            raise ConvertError(f"the {what} SmemDescriptor (line {v.line}) is used before its init()")
        if isinstance(v.encoded, Unresolved):
            raise UnresolvedError(v.encoded)
        init_warps = getattr(v, "init_warps", None)
        v = v.encoded
    if not isinstance(v, SmemDescDeferred):
        raise ConvertError(f"the {what} descriptor is not one encode_matrix_descriptor built in this file")
    c, f = v.call, v.first
    e = Evaluator(v.env, thread=thread)
    p = _ptr(e.value(_arg(c, f, "addr", _arg(c, f, "smem_ptr"))), f"the {what} descriptor's start")
    ldo = e.as_int(_arg(c, f + 1, "ldo"))
    sdo = e.as_int(_arg(c, f + 2, "sdo"))
    swz = e.as_int(_arg(c, f + 3, "swizzle"))
    if swz not in DESC_SWIZZLE or swz == 4:
        raise ConvertError(f"descriptor swizzle {swz} is not modelled")
    desc = {"start": ptr_text(p)}
    if units is not None:
        desc["offset_bytes"] = 16 * units
    desc.update({"lbo_bytes": 16 * ldo, "sbo_bytes": 16 * sdo, "swizzle": DESC_SWIZZLE[swz], "base_offset": 0,
                 "major": "K"})
    return {"ptr": offset_ptr(p, 16 * units, what) if units else p, "line": v.line, "desc": desc,
            "init_warps": sorted(init_warps) if init_warps is not None else None}


MMA_SWIZZLE_BYTES = {"SWIZZLE_32B_ATOM": 32, "SWIZZLE_64B_ATOM": 64, "SWIZZLE_128B_ATOM": 128}


def _packed_dtype(dtype: str, r: int) -> str | None:
    """The unsigned integer type of r elements of dtype (the packed storage a dtype view unpacks)."""
    bits = DTYPE_BITS.get(dtype)
    return {8: "uint8", 16: "uint16", 32: "uint32", 64: "uint64"}.get(bits * r) if bits else None


def offset_ptr(p, nbytes: int, what: str, toward=None):
    """The element `nbytes` bytes after element p of a buffer laid out by TVM's
    mma_shared_layout(dtype, SWIZZLE_xB_ATOM, (..., R, C)).  That layout (apache/tvm 5d4dc87
    python/tvm/backend/cuda/tile_primitive/tma_utils.py:36-94) tiles the (8, W) swizzle atom
    (W = x bytes of elements) down the R rows, then tiles that (R, W) column block across C and
    the leading dimensions, each block contiguous: before the swizzle, element (lead, r, c) is at
    lead * R C + (c // W) R W + r W + c % W.  The swizzle XORs the 16-byte chunk with the row
    within the atom (PTX ISA §5.5.7), which is 0 on row 0 of an atom: when both p and the result
    are on such a row, the address `nbytes` on is the result's address exactly.  Anything else
    (another layout, a row inside an atom, a byte count that is not whole elements) is refused."""
    from fragments import Ptr
    b = p.buf
    try:
        node = ast.parse(b.layout or "", mode="eval").body
    except SyntaxError:
        node = None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "unpack" and \
            len(node.args) == 1 and isinstance(node.args[0], ast.Constant) and type(node.args[0].value) is int:
        # X.view(narrower dtype) of a packed buffer (views.py: layout L.unpack(r), last dimension
        # r times longer): the descriptor walks the packed buffer's bytes.  Element c of the last
        # dimension is sub-element c % r of packed element c // r; a start on a packed element's
        # first sub-element is that packed element's address.
        r = node.args[0].value
        base = BufferRef(b.name, b.scope, tuple(b.shape[:-1]) + (b.shape[-1] // r,), _packed_dtype(b.dtype, r),
                         ast.unparse(node.func.value), b.line)
        if r < 1 or b.shape[-1] % r or base.dtype is None or p.coords[-1] % r:
            raise ConvertError(f"{what}: a descriptor offset into {b.name} ({b.layout}) from a start inside a packed "
                               "element is not modelled")
        q = offset_ptr(Ptr(base, tuple(p.coords[:-1]) + (p.coords[-1] // r,)), nbytes, what)
        return Ptr(b, tuple(q.coords[:-1]) + (q.coords[-1] * r,))
    ok = isinstance(node, ast.Call) and dotted(node.func) == "mma_shared_layout" and len(node.args) == 3 and \
        isinstance(node.args[1], ast.Attribute) and node.args[1].attr in MMA_SWIZZLE_BYTES
    import mma_layout_match  # a view whose layout IS an mma_shared_layout of its shape (mma_layout_match.py)
    mode = node.args[1].attr if ok else mma_layout_match.mode(b)
    if mode is None:
        raise ConvertError(f"{what}: a descriptor offset into {b.name}, whose layout {b.layout} is not a swizzled "
                           "mma_shared_layout, is not modelled")
    esz = DTYPE_BYTES.get(b.dtype)
    if esz is None or nbytes % esz:
        raise ConvertError(f"{what}: an offset of {nbytes} bytes is not whole {b.dtype} elements")
    shape = list(b.shape)
    R, C = shape[-2], shape[-1]
    W = MMA_SWIZZLE_BYTES[mode] // esz
    if R % 8 or C % W:
        raise ConvertError(f"{what}: {b.name} {tuple(shape)} is not whole (8, {W}) atoms")
    lead = 0
    for c, n in zip(p.coords[:-2], shape[:-2]):
        lead = lead * n + c
    r, c = p.coords[-2], p.coords[-1]
    if r % 8:
        raise ConvertError(f"{what}: the descriptor starts at row {r}, inside a swizzle atom")
    o = lead * R * C + (c // W) * R * W + r * W + c % W + nbytes // esz
    lead, rem = divmod(o, R * C)
    kb, rem = divmod(rem, R * W)
    r, cw = divmod(rem, W)
    if r % 8:
        raise ConvertError(f"{what}: {nbytes} bytes on lands on row {r}, inside a swizzle atom")
    idx = []
    for n in reversed(shape[:-2]):
        lead, i = divmod(lead, n)
        idx.insert(0, i)
    if lead:
        q = _in_pool_neighbour(p, (o - nbytes // esz) * esz + nbytes, what, toward)
        if q is not None:
            return q
        raise ConvertError(f"{what}: {nbytes} bytes from {ptr_text(p)} run past {b.name} {tuple(shape)}")
    return Ptr(b, tuple(idx) + (r, kb * W + cw))


def _in_pool_neighbour(p, byte: int, what: str, toward=None):
    """An address past p's buffer in its SMEMPool (flash_attention_backward: every descriptor's
    start is Q_row's start field plus `(X.elem_offset - Q_row.elem_offset) * 2 // 16`): the element
    of the one other pool buffer whose bytes hold it.  byte: the address's byte offset from p's
    buffer's first byte.  Only when every buffer of the pool has a derived offset (smem_placement.py:
    the bump allocator's start, move_base_to) and exactly one of them holds that byte; two buffers
    there (a pool region reused by a later buffer: sK and the dK epilogue tile) are named as the
    reason, none picked — unless the offset was computed from one of them, `X.elem_offset`
    (named_offset.py: the source's own choice among buffers that all hold the byte).  None when
    the pool's offsets are not all known."""
    from fragments import Ptr
    b = p.buf
    pool, off = getattr(b, "smem_pool", None), getattr(b, "smem_off", None)
    members = getattr(pool, "members", None)
    if not members or not isinstance(off, int) or             not all(isinstance(getattr(m, "smem_off", None), int) for m in members):
        return None
    target = off + byte
    hits = []
    for m in members:
        esz = DTYPE_BYTES.get(m.dtype)
        size = esz * math.prod(m.shape) if esz else None
        if size is None:
            return None
        if m.smem_off <= target < m.smem_off + size:
            hits.append(m)
    if len(hits) > 1 and toward is not None and any(m is toward for m in hits):
        hits = [toward]
    if len(hits) != 1:
        raise ConvertError(f"{what}: the address {byte} bytes from {b.name}'s start (pool byte {target}) lies in "
                           + (f"several buffers of the pool ({', '.join(m.name for m in hits)}): which one the "
                              "operand reads is not fixed by the address" if hits else "no buffer of the pool"))
    m = hits[0]
    if m is b:
        return None
    return offset_ptr(Ptr(m, (0,) * len(m.shape)), target - m.smem_off, what)


def _operand_region(p, rows: int, k: int, what: str) -> str:
    """A K-major operand: `rows` rows from the pointer's row, `k` elements of K from its column (the
    buffer's last two dimensions); earlier dimensions are the pointer's indices."""
    shape = p.buf.shape
    if len(shape) < 2:
        raise ConvertError(f"operand {what}: {p.buf.name} has fewer than two dimensions")
    r0, k0 = p.coords[-2], p.coords[-1]
    if r0 + rows > shape[-2] or k0 + k > shape[-1]:
        raise ConvertError(f"operand {what}: {rows} x {k} from {ptr_text(p)} runs past {p.buf.name} "
                           f"{tuple(shape)}")
    r = ":" if (r0, r0 + rows) == (0, shape[-2]) else f"{r0}:{r0 + rows}"
    kk = ":" if (k0, k0 + k) == (0, shape[-1]) else f"{k0}:{k0 + k}"
    return f"{p.buf.name}[{', '.join([str(c) for c in p.coords[:-2]] + [r, kk])}]"
