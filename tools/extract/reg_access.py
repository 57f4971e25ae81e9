"""Plain per-thread register <-> shared-memory moves and register conversions.

    in the kernel                                           model op
    ------------------------------------------------------  -------------------------------------
    T.ptx.st.shared[.vN].TYPE(buf.ptr_to(...), r0, ..)       smem.access {direction store, smem,
    T.ptx.ld.shared[.vN].TYPE(r0, .., buf.ptr_to(...))         regs, access_bytes, warps}
    T.ptx["cvt.rn.f16x2.f32"](d, a, b)  (also .bf16x2)       cast {dst, src, warps}

Both read or write a register array (fragments.RegArray) whose model buffer says which thread
holds which element.  Only the "one row per thread" buffers are modelled:
`S[(128,N):(1@tid_in_wg,1)]` (thread t of a warpgroup holds row t; what tcgen05.ld .32x32b
writes, instr_ops.ld_ops) and `S[(32,N):(1@laneid,1)]` (lane t of one warp holds row t), column
j of a row being the thread's register slot j.

**cvt.rn.{f16,bf16}x2.f32 d, a, b** packs two f32 into one 32-bit register: the value converted
from `a` goes to the upper half of d, that from `b` to the lower half (PTX ISA 9.1 §9.7.9.21,
cvt: "... a is stored in the upper half of d and ... b in the lower half").  With 16-bit slots
numbered low half first (slot 2k = low half of register k, the order of `m` in the fragment
layouts, docs/model-format.md), d = reg16[k], b = src[j], a = src[j + 1] makes slots 2k, 2k + 1
of the 16-bit array elements j, j + 1 of the source: a `cast` of src[:, j:j+2] into
dst[:, 2k:2k+2].  The 32-bit array d belongs to then gets a model buffer of 16-bit elements
(rows, 2 n), named like the array, with the source's thread layout.  Consecutive cvts of an
unrolled loop that continue each other (same arrays, same warps, the next columns on both sides)
are one cast op.  A cvt whose source array has no such buffer (registers filled by arithmetic)
is not a model op; the 16-bit array then has no buffer, and a store that reads it is unresolved.

**st.shared / ld.shared** (CTA shared memory, not `shared::cluster`): N registers (`.vN`, N = 1,
2, 4) of TYPE (b8/u8/s8: 8 bits, one element of an 8-bit register array per register; b16/u16/s16/f16/bf16: 16 bits; b32/u32/s32/f32: 32; b64/u64/f64: 64) move
access_bytes = N * bits / 8 bytes per thread.  The registers must be consecutive registers of
one array, ascending; in the array's model buffer they are slots s0 .. s0 + E - 1 with E =
access_bytes / element bytes.  The address `buf.ptr_to(...)` is evaluated at every lane of every
executing warp (warps.py); the thread's E elements are taken to be the logical elements from
that one along the buffer's last dimension: the bytes of the access are those elements exactly
when they are contiguous in the buffer's layout from that address, which `smem.bank-conflicts`
checks for every thread (an access that is not one aligned vector is an error there), so the
assumption is checked, not trusted.  The smem elements of all threads must form a box whose
row-major order is the register box's (rows x slots) row-major order (then the regions
correspond element by element, the format's rule); else the op is unresolved.  An address that is
not a ptr_to of a model buffer (an allocation without a layout: scratch words, barriers) is not
a model op, as before.  Executed under a branch taken by some lanes only: unresolved (which
lanes move which elements is not one region pair).
"""
from __future__ import annotations

import ast
import re

from corpus_notation import DTYPE_BITS
from kernel_env import BufferRef, ConvertError, Evaluator, UnresolvedError

ROW_LAYOUT = re.compile(r"S\[\((\d+),(\d+)\):\(1@(tid_in_wg|laneid),1\)\]$")
TYPE_BITS = {"b8": 8, "u8": 8, "s8": 8, "b16": 16, "u16": 16, "s16": 16, "f16": 16, "bf16": 16, "b32": 32, "u32": 32, "s32": 32, "f32": 32,
             "b64": 64, "u64": 64, "s64": 64, "f64": 64}
REG_BITS = {"uint8": 8, "int8": 8, "uint32": 32, "int32": 32, "float32": 32, "uint16": 16, "int16": 16, "float16": 16,
            "bfloat16": 16, "uint64": 64, "int64": 64, "float64": 64}
SMEM_RE = re.compile(r"(ld|st)\.shared(?:\.v([124]))?\.([a-z]+\d+)$")
CVT_RE = re.compile(r"cvt\.rn\.(f16|bf16)x2\.f32$")
CVT_DTYPE = {"f16": "float16", "bf16": "bfloat16"}


def recognises(text: str | None) -> bool:
    return bool(text) and (SMEM_RE.match(text) is not None or CVT_RE.match(text) is not None)


def _row_layout(buf: BufferRef):
    m = ROW_LAYOUT.match(buf.layout or "")
    if not m:
        return None
    rows, cols, axis = int(m.group(1)), int(m.group(2)), m.group(3)
    if (axis, rows) not in (("tid_in_wg", 128), ("laneid", 32)):
        return None
    return rows, cols, axis


def array_buffer(arr, ex) -> BufferRef | None:
    """The model buffer of a register array: the one its fragment gave it (ldmatrix, cvt), or the
    one tcgen05.ld emitted for its allocation site."""
    if arr.buffer is not None:
        return arr.buffer
    found = [ref for key, ref in ex.emitted.items()
             if key[0] == arr.name and key[1] == arr.line and key[2] == "local"]
    return found[0] if len(found) == 1 else None


def _groups(axis: str, warps: list[int]) -> list[list[int]]:
    """The thread groups one op covers: whole warpgroups for tid_in_wg rows, single warps for laneid."""
    if axis == "laneid":
        return [[w] for w in warps]
    out = []
    for g in sorted({w // 4 for w in warps}):
        ws = [w for w in warps if w // 4 == g]
        if len(ws) != 4:
            raise ConvertError(f"warps {ws} of warpgroup {g} execute it, not the whole warpgroup its registers' "
                               "layout (one row per thread of the warpgroup) describes")
        out.append(ws)
    return out


def _row_of(axis: str, warp: int, lane: int) -> int:
    return 32 * (warp % 4) + lane if axis == "tid_in_wg" else lane


def _regs(nodes, ev, what: str):
    import fragments
    regs = [ev.value(n) for n in nodes]
    if not regs or not all(isinstance(r, fragments.RegElem) for r in regs):
        raise ConvertError(f"the {what} registers are not registers of a register array")
    arr = regs[0].array
    if any(r.array is not arr or r.index != regs[0].index + i for i, r in enumerate(regs)):
        raise ConvertError(f"the {what} registers are not consecutive ascending registers of one array")
    return arr, regs


def _check_lanes(ex, what: str) -> list[int]:
    ws = ex.executing_warps()
    if ws is None:
        raise ConvertError(f"{what} is executed by threads, and the kernel declares no thread index that fixes "
                           "the CTA's warps")
    if getattr(ex, "lane_branches", 0):
        raise ConvertError(f"{what} under a branch that only some lanes of a warp take: which lanes move which "
                           "elements is not modelled")
    return ws


def _slice(lo: int, hi: int, n: int) -> str:
    return ":" if (lo, hi) == (0, n) else f"{lo}:{hi}"


def ops(call: ast.Call, text: str, env: dict, ex, emit) -> list[dict]:
    """The model ops of one instruction (a list, empty when it is not a model op)."""
    m = CVT_RE.match(text)
    if m:
        return _cvt(call, CVT_DTYPE[m.group(1)], env, ex, emit)
    m = SMEM_RE.match(text)
    return _smem(call, m.group(1) == "st", int(m.group(2) or 1), m.group(3), env, ex, emit)


def _cvt(call, dtype16: str, env, ex, emit) -> list[dict]:
    ev = Evaluator(env)
    if len(call.args) != 3 or call.keywords:
        raise ConvertError("cvt.rn.x2.f32 takes d, a, b")
    import fragments
    d, a, b = (ev.value(x) for x in call.args)
    if not all(isinstance(r, fragments.RegElem) for r in (d, a, b)):
        return []  # scalars of thread arithmetic: not a fragment the format describes
    src = array_buffer(a.array, ex)
    if a.array is not b.array or src is None or _row_layout(src) is None:
        return []  # a source without a one-row-per-thread fragment: nothing to describe (a later store is unresolved)
    if src.dtype != "float32":
        raise ConvertError(f"cvt .f32 source {src.name} holds {src.dtype}")
    rows, _cols, axis = _row_layout(src)
    darr = d.array
    if REG_BITS.get(darr.dtype) != 32:
        raise ConvertError(f"cvt .x2 writes a 32-bit register; {darr.name} is a {darr.dtype} array")
    layout = f"S[({rows},{2 * darr.n}):(1@{axis},1)]"
    if darr.buffer is None:
        darr.buffer = emit(ex, darr.name, "local", (rows, 2 * darr.n), dtype16, layout, darr.line, darr.node)
        darr.packed16 = True
    elif (darr.buffer.dtype, darr.buffer.layout) != (dtype16, layout):
        raise ConvertError(f"register array {darr.name} already holds another fragment ({darr.buffer.dtype}, "
                           f"{darr.buffer.layout}) than this cvt writes")
    ws = _check_lanes(ex, "cvt")
    # slot 2k (low half) <- b, slot 2k + 1 (high half) <- a (PTX ISA §9.7.9.21)
    pairs = [(2 * d.index, b.index), (2 * d.index + 1, a.index)]
    runs = [[pairs[0][0], pairs[0][1], 1]]
    if pairs[1] == (pairs[0][0] + 1, pairs[0][1] + 1):
        runs[0][2] = 2
    else:
        runs.append([pairs[1][0], pairs[1][1], 1])
    out = []
    for group in _groups(axis, ws):
        for dlo, slo, n in runs:
            if _merge(ex, group, darr.buffer, src, dlo, slo, n):
                continue
            out.append({"kind": "cast", "warps": group, "dst": f"{darr.buffer.name}[:, {dlo}:{dlo + n}]",
                        "src": f"{src.name}[:, {slo}:{slo + n}]", "_run": (darr.buffer.name, src.name, dlo, slo, n),
                        "notes": "cvt.rn.x2.f32: b -> low half (slot 2k), a -> high half (slot 2k + 1), "
                                 "PTX ISA §9.7.9.21"})
    return out


def _merge(ex, group, dbuf, sbuf, dlo, slo, n) -> bool:
    """Extend the latest cast op of these warps when this run continues it on both sides and
    only casts were issued since (consecutive cvts of an unrolled loop)."""
    for op in reversed(ex.ops):
        if op.get("kind") != "cast":
            return False
        run = op.get("_run")
        if op["warps"] != group or run is None:
            continue
        dname, sname, plo, pslo, pn = run
        if (dname, sname) != (dbuf.name, sbuf.name) or plo + pn != dlo or pslo + pn != slo:
            return False
        pn += n
        op["_run"] = (dname, sname, plo, pslo, pn)
        op["dst"] = f"{dname}[:, {_slice(plo, plo + pn, dbuf.shape[1])}]"
        op["src"] = f"{sname}[:, {_slice(pslo, pslo + pn, sbuf.shape[1])}]"
        return True
    return False


def _smem(call, store: bool, vec: int, ty: str, env, ex, emit) -> list[dict]:
    import fragments
    if len(call.args) != vec + 1 or call.keywords:
        raise ConvertError(f"{'st' if store else 'ld'}.shared.v{vec} takes {vec} registers and an address")
    addr = call.args[0] if store else call.args[-1]
    rnodes = call.args[1:] if store else call.args[:-1]
    # the shared side: only an address into a model buffer is a model op
    if not (isinstance(addr, ast.Call) and isinstance(addr.func, ast.Attribute) and addr.func.attr == "ptr_to"
            and isinstance(addr.func.value, ast.Name) and isinstance(env.get(addr.func.value.id), BufferRef)):
        return []
    sbuf = env[addr.func.value.id]
    if sbuf.scope not in ("shared", "shared.dyn") or getattr(sbuf, "default_layout", False):
        # an allocation without layout= (scratch words, barriers, staging arrays) is a model
        # buffer with TVM's default row-major layout (allocators.py), but its plain per-thread
        # moves are not model ops, as before it was one
        return []
    if ty not in TYPE_BITS:  # (after the moves that are no model ops whatever their type: a .b8 flag byte)
        raise ConvertError(f"{'st' if store else 'ld'}.shared type .{ty} is not modelled")
    ev = Evaluator(env)
    ws = _check_lanes(ex, "st.shared" if store else "ld.shared")
    if not store and _broadcast(addr, env, ws, sbuf):
        # several threads load one element (a word every thread reads, e.g. the TMEM address
        # tcgen05.alloc wrote): smem.access pairs each shared element with one register, so a
        # broadcast read has no region pair; not a model op, as when such words had no model
        # buffer (allocations without layout= are row-major model buffers now, allocators.py).
        # Decided before the destinations are read: they may be scalars (`x: T.float32`), not an array.
        return []
    arr, regs = _regs(rnodes, ev, "st.shared source" if store else "ld.shared destination")
    rbits = TYPE_BITS[ty]
    if REG_BITS.get(arr.dtype) != rbits:
        raise ConvertError(f".{ty} moves {rbits}-bit registers; {arr.name} is a {arr.dtype} array")
    access_bytes = vec * rbits // 8
    rbuf = array_buffer(arr, ex)
    if rbuf is None:
        if store:
            raise ConvertError(f"st.shared source is register array {arr.name} (line {arr.line}), which no modelled "
                               "op filled (its values come from thread arithmetic the format does not describe)")
        axis = "tid_in_wg" if all(len(g) == 4 for g in _safe_groups(ws)) else "laneid"
        rows = 128 if axis == "tid_in_wg" else 32
        ebits = DTYPE_BITS.get(sbuf.dtype)
        if ebits is None or rbits % ebits:
            raise ConvertError(f"{sbuf.name} of {sbuf.dtype} is not whole {rbits}-bit registers")
        per = rbits // ebits
        arr.buffer = emit(ex, arr.name, "local", (rows, arr.n * per), sbuf.dtype,
                          f"S[({rows},{arr.n * per}):(1@{axis},1)]", arr.line, arr.node)
        rbuf = arr.buffer
    lay = _row_layout(rbuf)
    if lay is None:
        raise ConvertError(f"register array {arr.name}'s fragment {rbuf.layout} is not one row per thread")
    rows, cols, axis = lay
    ebits = DTYPE_BITS.get(rbuf.dtype)
    if ebits is None or rbits % ebits or DTYPE_BITS.get(sbuf.dtype) != ebits:
        raise ConvertError(f"{rbuf.name} holds {rbuf.dtype}, {sbuf.name} {sbuf.dtype}: not elements of one size "
                           f"in whole {rbits}-bit registers")
    per = rbits // ebits
    s0, n_el = regs[0].index * per, vec * per
    out = []
    for group in _groups(axis, ws):
        pairs = []
        for w in group:
            ptrs = fragments._lane_ptrs(addr, env, w, Evaluator)
            for lane, p in enumerate(ptrs):
                if p.buf.name != sbuf.name:
                    raise ConvertError("the lanes' addresses point into different buffers")
                if p.coords[-1] + n_el > sbuf.shape[-1]:
                    raise ConvertError(f"lane {lane} of warp {w}: {n_el} elements from {p.coords} run past "
                                       f"{sbuf.name} {tuple(sbuf.shape)}")
                r = _row_of(axis, w, lane)
                for e in range(n_el):
                    pairs.append((p.coords[:-1] + (p.coords[-1] + e,), (r, s0 + e)))
        smem = _box_region(sbuf, [s for s, _ in pairs], "shared")
        regs_r = _box_region(rbuf, [r for _, r in pairs], "register")
        # element i of one region must be element i of the other
        by_smem = [r for _, r in sorted(pairs, key=lambda x: x[0])]
        if by_smem != sorted(by_smem):
            raise ConvertError(f"the threads' elements of {sbuf.name} and of {rbuf.name} are not in the same "
                               "row-major order (the regions would not correspond element by element)")
        out.append({"kind": "smem.access", "warps": group, "direction": "store" if store else "load",
                    "smem": smem, "regs": regs_r, "access_bytes": access_bytes})
    return out


def _broadcast(addr, env, ws, sbuf) -> bool:
    """Whether two executing threads' addresses name the same element of sbuf."""
    import fragments
    seen = set()
    for w in ws:
        for p in fragments._lane_ptrs(addr, env, w, Evaluator):
            if p.buf.name != sbuf.name:
                return False
            if p.coords in seen:
                return True
            seen.add(p.coords)
    return False


def _safe_groups(ws):
    gs = {}
    for w in ws:
        gs.setdefault(w // 4, []).append(w)
    return list(gs.values())


def _box_region(buf: BufferRef, coords: list, what: str) -> str:
    """REGION text of the box the coordinates fill exactly (each once), else ConvertError."""
    if len(set(coords)) != len(coords):
        raise ConvertError(f"two threads name one {what} element of {buf.name}")
    lo = [min(c[d] for c in coords) for d in range(len(buf.shape))]
    hi = [max(c[d] for c in coords) + 1 for d in range(len(buf.shape))]
    size = 1
    for a, b in zip(lo, hi):
        size *= b - a
    if size != len(coords):
        raise ConvertError(f"the threads' {what} elements of {buf.name} are not a box")
    parts = [str(a) if b - a == 1 and n != 1 else _slice(a, b, n) for a, b, n in zip(lo, hi, buf.shape)]
    return f"{buf.name}[{', '.join(parts)}]"
