"""Members of the builder namespaces (T. / Tx. / K.) that have a static meaning, each per TVM's
definition at apache/tvm 5d4dc87 (python/tvm/tirx/script/builder/ir.py, "ir.py" below) or the
kern DSL at the kernels' commit.

  T.meta_var(LAYOUT)                 the layout itself: `L = T.meta_var(T.TileLayout(...))` binds
                                     L to a layout value, and `L.unpack(4).broadcast(n)` is the
                                     method chain on it (meta_var returns its argument, ir.py)
  T.launch_thread("threadIdx.x", N)  the thread index of a 1-D CTA of N threads (N / 32 warps):
                                     LaunchThread binds a variable to the thread tag (ir.py:2269-
                                     2301); "blockIdx.*" / "clusterCtaIdx.*" are CTA indices (0
                                     under the representative instance "CTA 0 on its first tile",
                                     else runtime values); "threadIdx.y/z" are not modelled
  T.cuda.__shfl_sync(mask, v, src, w) lane `src` (mod w) of the thread's own w-lane segment
                                     (CUDA __shfl_sync); with a full mask and a source lane fixed
                                     by the source, every lane reads that lane's v: evaluated per
                                     (warp, lane) as v at (warp, src)
  T.ptx.elect_sync(d, p, 0xFFFFFFFF)  p the elected-lane predicate, as T.cuda.elect_sync(): lane 0
                                     of the warp (which lane does not change which warps issue,
                                     warps.py); d (the elected lane's id) stays a runtime value:
                                     PTX ISA 9.1 §9.7.14.15 elect.sync says only that the choice is
                                     deterministic, not which lane it is

  T.reinterpret(ty, address)          the address itself (a bit cast of a pointer): a tensor map
                                     encoded in the file, an element address, a helper register
                                     holding mapa's address in another CTA (mapa_addr.py)
  T.reinterpret(DT, values[i])        the register itself (its bits, read as DT; widths must match)
  T.reinterpret(DT, T.uint32(N))      the number whose DT bits are N's (widths must match)
  K.f16 ... K.u64                    the dtype names (tirx_kernels/kern/__init__.py:64-74)

Everything else of the namespaces stays unresolved ("a member of the builder namespace ...").
"""
from __future__ import annotations

import ast

from corpus_notation import dotted

LAYOUT_METHODS = ("tile", "unpack", "broadcast")
FULL_MASK = 0xFFFFFFFF


def _short(func) -> str:
    d = dotted(func) or ""
    return d.split(".")[-1]


def _builder_call(node, short: str) -> bool:
    if not isinstance(node, ast.Call):
        return False
    d = dotted(node.func) or ""
    return d.split(".")[-1] == short and d.startswith(("T.", "Tx.", "K.", "Kern."))


def unwrap_meta_var(node):
    """`T.meta_var(x)` is x (any depth); other nodes as they are."""
    while _builder_call(node, "meta_var") and len(node.args) == 1 and not node.keywords:
        node = node.args[0]
    return node


def substitute_layout_receiver(node, env: dict, layout_expr_cls):
    """A method chain `L.unpack(4).broadcast(n)` whose innermost receiver is a name bound to a layout
    value: the same chain over that layout's own expression (so the notation's translator, which
    reads chains on calls, sees it); None when the chain does not start at such a name."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and
            node.func.attr in LAYOUT_METHODS):
        return None
    recv = node.func.value
    if isinstance(recv, ast.Name):
        v = env.get(recv.id)
        if not isinstance(v, layout_expr_cls):
            return None
        inner = unwrap_meta_var(v.node)
        if isinstance(inner, ast.Name):
            return None
    else:
        inner = substitute_layout_receiver(recv, env, layout_expr_cls)
        if inner is None:
            return None
    func = ast.Attribute(value=inner, attr=node.func.attr, ctx=ast.Load())
    out = ast.Call(func=func, args=node.args, keywords=node.keywords)
    return ast.copy_location(out, node)


# -- T.launch_thread -----------------------------------------------------------------------------

CTA_TAGS = ("blockIdx.", "clusterCtaIdx.")


def launch_thread(call, ev, line: int):
    """For `T.launch_thread(TAG, EXTENT)`: ("thread", ThreadIndex, warps) for threadIdx.x,
    ("value", v, None) for a CTA index under the representative instance, ("unresolved", reason,
    None) otherwise; None when `call` is not T.launch_thread."""
    if not _builder_call(call, "launch_thread") or len(call.args) != 2 or call.keywords:
        return None
    import kernel_env
    import warps as warps_mod
    tag = call.args[0].value if isinstance(call.args[0], ast.Constant) else None
    if not isinstance(tag, str):
        return "unresolved", "T.launch_thread of a thread variable that is not a tag string", None
    if tag == "threadIdx.x":
        try:
            n = ev.as_int(call.args[1])
        except Exception:  # noqa: BLE001 - an extent the source does not fix leaves the warps open
            n = None
        warps = n // warps_mod.LANES if isinstance(n, int) and n > 0 and n % warps_mod.LANES == 0 else None
        return "thread", warps_mod.ThreadIndex("thread", line), warps
    if tag.startswith(CTA_TAGS):
        if kernel_env.convention_on():
            kernel_env.note_convention(f"T.launch_thread({tag!r}) = 0 (CTA 0 of the grid, rank 0 of its cluster)",
                                       line, 0)
            return "value", 0, None
        return "unresolved", f"the CTA index {tag} (a runtime value)", None
    return "unresolved", f"the thread index {tag} (only a 1-D CTA, threadIdx.x, is modelled)", None


# -- T.cuda.__shfl_sync --------------------------------------------------------------------------


def shfl_sync(ev, node):
    """The value of `T.cuda.__shfl_sync(mask, v, src, width)` at the evaluator's (warp, lane), or
    None when this is not that call or the source does not fix it to one lane's value."""
    if not (isinstance(node, ast.Call) and _short(node.func) == "__shfl_sync" and
            (dotted(node.func) or "").startswith(("T.cuda.", "Tx.cuda.", "K.cuda."))):
        return None
    if len(node.args) not in (3, 4) or node.keywords:
        return None
    import kernel_env
    if ev.thread is None:
        # a per-lane value: re-evaluated at each (warp, lane) in a branch test (warps.py)
        u = kernel_env.Unresolved(ast.unparse(node), node.lineno, "a lane's value broadcast to the warp "
                                  "(a runtime value; a branch on it selects warps)")
        u.thread = True
        raise kernel_env.UnresolvedError(u)
    mask = ev.value(node.args[0])
    src = ev.value(node.args[2])
    width = ev.value(node.args[3]) if len(node.args) == 4 else 32
    if mask != FULL_MASK or not isinstance(src, int) or width not in (1, 2, 4, 8, 16, 32):
        return None
    warp, lane = ev.thread
    src_lane = (lane // width) * width + src % width
    return kernel_env.Evaluator(ev.env, ev.depth, (warp, src_lane)).value(node.args[1])


# -- T.ptx.shfl_sync.idx.b32(d, a, b, c, membermask) ------------------------------------------------


def ptx_shfl_idx(ev, node):
    """`T.ptx.shfl_sync.idx.b32(d, a, b, c, membermask)` as a statement, d a name: (d, the
    equivalent `T.cuda.__shfl_sync(membermask, a, b, width)` node), else None.  PTX ISA shfl.sync:
    c packs the segment mask (bits 12:8) and the clamp (bits 4:0); for .idx the source lane is
    j = (lane & segmask) | (b & ~segmask), taken when j <= (lane & segmask) | (clamp & ~segmask),
    else the thread's own lane.  With clamp 0x1F and segmask 32 - w (w a power of two: CUDA's
    __shfl_sync of width w encodes c so) that is lane b % w of the thread's w-lane segment, which
    is __shfl_sync(mask, a, b, w).  b and c must be integers the source fixes; other forms: None."""
    if not (isinstance(node, ast.Call) and (dotted(node.func) or "").split(".", 1)[-1] == "ptx.shfl_sync.idx.b32"
            and (dotted(node.func) or "").startswith(("T.", "Tx.")) and len(node.args) == 5 and not node.keywords
            and isinstance(node.args[0], ast.Name)):
        return None

    from kernel_env import ConvertError

    def const(n):
        try:
            v = ev.value(n)
        except ConvertError:
            return None
        return v if type(v) is int else None

    b, c = const(node.args[2]), const(node.args[3])
    if b is None or c is None or c & 0x1F != 0x1F or c & ~0x1F1F:
        return None
    width = 32 - ((c >> 8) & 0x1F)
    if width not in (1, 2, 4, 8, 16, 32) or (c >> 8) & 0x1F & (width - 1):
        return None
    call = ast.Call(func=ast.Attribute(value=ast.Attribute(value=ast.Name(id="T", ctx=ast.Load()), attr="cuda",
                                                           ctx=ast.Load()), attr="__shfl_sync", ctx=ast.Load()),
                    args=[node.args[4], node.args[1], ast.Constant(b), ast.Constant(width)], keywords=[])
    return node.args[0].id, ast.copy_location(ast.fix_missing_locations(ast.copy_location(call, node)), node)


# -- T.ptx.elect_sync(d, p, membermask) ------------------------------------------------------------


def ptx_elect(ev, node):
    """`T.ptx.elect_sync(d, p, membermask)` as a statement (operands d, p, membermask: apache/tvm
    5d4dc87 python/tvm/backend/cuda/ptx/table.py:5797-5812), d and p names, membermask the full
    warp: (d, p, the equivalent `T.cuda.elect_sync()` node for p), else None.  PTX ISA 9.1
    §9.7.14.15: p is True for the one leader lane elected among membermask, d that lane's id; the
    election is deterministic, but which lane is elected is not specified.  With the full mask the
    predicate is T.cuda.elect_sync()'s (TVM lowers that to the same elect.sync with membermask
    0xFFFFFFFF: python/tvm/backend/cuda/codegen/header.py:792-805), which the walk models as lane 0 of
    each warp (warps.py: which lane does not change which warps issue).  A partial mask (the
    elected lane need not be lane 0) and other forms: None."""
    if not (isinstance(node, ast.Call) and (dotted(node.func) or "") in ("T.ptx.elect_sync", "Tx.ptx.elect_sync")
            and len(node.args) == 3 and not node.keywords
            and all(isinstance(a, ast.Name) for a in node.args[:2])):
        return None
    from kernel_env import ConvertError
    try:
        mask = ev.value(node.args[2])
    except ConvertError:
        return None
    if type(mask) is not int or mask != FULL_MASK:
        return None
    call = ast.Call(func=ast.Attribute(value=ast.Attribute(value=ast.Name(id="T", ctx=ast.Load()), attr="cuda",
                                                           ctx=ast.Load()), attr="elect_sync", ctx=ast.Load()),
                    args=[], keywords=[])
    return node.args[0].id, node.args[1].id, ast.copy_location(ast.fix_missing_locations(ast.copy_location(call, node)),
                                                                node)


# -- kern DSL dtype tokens -----------------------------------------------------------------------

# tirx_kernels/kern/__init__.py:64-74 (at 51a6c01 and at the mirror's HEAD): K.f16 ... K.u64 are
# the dtype names as strings
KERN_DTYPES = {"f16": "float16", "bf16": "bfloat16", "f32": "float32", "f8e4m3": "float8_e4m3fn",
               "i8": "int8", "i32": "int32", "i64": "int64", "u8": "uint8", "u16": "uint16",
               "u32": "uint32", "u64": "uint64"}


def kern_member(name: str):
    """The value of a kern DSL member `K.NAME` with a static value (a dtype token), or None."""
    head, _, rest = name.partition(".")
    if head in ("K", "Kern") and rest in KERN_DTYPES:
        return KERN_DTYPES[rest]
    return None


# -- T.reinterpret of an address -----------------------------------------------------------------


def reinterpret(ev, node):
    """`T.reinterpret(T.handle().ty, T.address_of(m))` / `T.reinterpret("handle", p)`: the same
    address seen as another pointer type (TVM's reinterpret is a bit cast, python/tvm/tirx/op.py;
    a pointer's bits are its address), so the value is the address object itself -- a tensor map
    encoded in the file, an element address (`X.ptr_to(...)`).  Numbers and anything else: None
    (a bit cast of a number to another type is not evaluated here)."""
    if not (isinstance(node, ast.Call) and _short(node.func) == "reinterpret" and len(node.args) == 2 and
            (dotted(node.func) or "").startswith(("T.", "Tx.", "K.", "Kern.", "tvm.tirx.", "tirx."))):
        return None
    import fragments
    import instr_ops
    import mapa_addr
    import reg_values
    import tmem_cp
    from kernel_env import ConvertError
    try:
        v = reg_values.content(ev.value(node.args[1]))  # a helper register holds mapa's address
    except ConvertError:
        return None
    if isinstance(v, (instr_ops.TensorMap, fragments.Ptr, tmem_cp.SmemPtr, mapa_addr.ClusterAddr)):
        return v
    return reinterpret_bits(ev, node, v)


# -- T.reinterpret(dtype, value): a bit cast of a register or of a number -------------------------

# the scalar dtypes a bit cast of a number is computed for: (struct format, bits)
BIT_FORMATS = {"int16": ("<h", 16), "uint16": ("<H", 16), "float16": ("<e", 16), "int32": ("<i", 32),
               "uint32": ("<I", 32), "float32": ("<f", 32), "int64": ("<q", 64), "uint64": ("<Q", 64),
               "float64": ("<d", 64)}


def _dtype_arg(ev, node):
    from kernel_env import ConvertError
    try:
        t = ev.value(node)
    except ConvertError:
        return None
    return t if isinstance(t, str) else None


def reinterpret_bits(ev, node, v):
    """`T.reinterpret(DT, x)` for a scalar DT (TVM's reinterpret: the same bits seen as DT, which
    must have the source's width -- apache/tvm 5d4dc87 src/tirx/op/op.cc:534-548 checks "Reinterpret
    requires size match"; python/tvm/tirx/op.py:1355-1378):

      * x a register element (`values[i]`, fragments.RegElem): the register itself -- its bits are
        the value, and an instruction that reads it as DT (cvt.rn.bf16x2.f32's .f32 sources) reads
        those bits; the array's dtype must have DT's width (else refused, as TVM refuses);
      * x a number given with its dtype (`T.uint32(0x3F800000)`, a dtype call of a literal): the
        number whose bits those are in DT (IEEE 754 for the float types, two's complement for the
        signed ones);
      * anything else: None (not evaluated here)."""
    import fragments
    from corpus_notation import DTYPE_BITS
    from kernel_env import ConvertError
    target = _dtype_arg(ev, node.args[0])
    if target is None:
        return None
    if isinstance(v, fragments.RegElem):
        src_bits = DTYPE_BITS.get(getattr(v.array, "dtype", None))
        if src_bits is None or DTYPE_BITS.get(target) is None:
            return None
        if src_bits != DTYPE_BITS[target]:
            raise ConvertError(f"T.reinterpret({target!r}, {ast.unparse(node.args[1])}): a {v.array.dtype} register "
                               f"as {target} (TVM requires the same width: op.cc:541-545)")
        return v
    a1 = node.args[1]
    src = _short(a1.func) if isinstance(a1, ast.Call) and (dotted(a1.func) or "").startswith(("T.", "Tx.")) else None
    if src not in BIT_FORMATS or target not in BIT_FORMATS or isinstance(v, bool) or \
            not isinstance(v, (int, float)):
        return None
    import struct
    (sfmt, sbits), (tfmt, tbits) = BIT_FORMATS[src], BIT_FORMATS[target]
    if sbits != tbits:
        raise ConvertError(f"T.reinterpret({target!r}, {ast.unparse(a1)}): {src} as {target} (TVM requires the same "
                           "width: op.cc:541-545)")
    try:
        raw = struct.pack(sfmt, v)
    except (struct.error, OverflowError) as e:
        raise ConvertError(f"T.reinterpret({target!r}, {ast.unparse(a1)}): {v!r} is not a {src} ({e})") from None
    return struct.unpack(tfmt, raw)[0]
