"""Register contents a helper computes with PTX moves: a descriptor split into its two 32-bit
words, a 32-bit add to the low word, the words joined again.

tf32_hc_prenorm_gemm (92240d6, lines 392-401) re-points its B descriptor so:

    def add_smem_desc_offset(desc, offset):
        desc_lo = T.alloc_local((1,), "uint32")
        desc_hi = T.alloc_local((1,), "uint32")
        result = T.alloc_local((1,), "uint64")
        T.evaluate(T.ptx.mov.b64(desc_lo[0], desc_hi[0], desc))          # {lo, hi} = desc
        T.evaluate(T.ptx.add.u32(desc_lo[0], desc_lo[0], T.cast(offset, "uint32")))
        T.evaluate(T.ptx.mov.b64(result[0], desc_lo[0], desc_hi[0]))     # result = {lo, hi}
        return result[0]

In straight-line helper code (kernel_env.run_straight) a `T.alloc_local((n,), dtype)` is a fresh
register array (fragments.RegArray) whose registers hold values only as these statements write
them, in order:

  * `mov.b64(lo, hi, x)` (PTX ISA 9.1, Data Movement and Conversion Instructions, mov: `mov.b64
    {a, b}, d` unpacks a 64-bit value into two 32-bit registers and `mov.b64 d, {a, b}` packs them,
    a the low half; TVM spells both with three operands, T.ptx.mov.b64(x, y, z), and which one it
    is follows from the first operand's register: 32-bit, the unpack {x, y} = z; 64-bit, the pack
    x = {y, z}): an integer splits into its words; a shared-memory descriptor into
    DescWord(desc, "lo") / DescWord(desc, "hi").
  * `add.u32(d, a, k)`: integers add modulo 2^32; the low word of a descriptor plus k is the low
    word of the descriptor k 16-byte units on.  The start-address field is bits 13..0 of that word
    (PTX ISA §9.7.16.4.1, the address >> 4); the sum carries out of bit 13 only when the address
    reaches 2^18 bytes, past every shared-memory window (228 KiB on sm_100), and the re-pointed
    operand must still start at an element of a shared buffer (instr_ops._desc / offset_ptr
    refuse anything else).  So it is tvm_classes.SmemDescOffset(desc, k) (add_16B_offset's value),
    or tmem_cp's DescWithStart + k.
  * `mov.b64(d, lo, hi)`: the low and high words of the same descriptor (the high word unchanged)
    join to that descriptor; two integers join to the 64-bit integer.

Any other statement of the helper that names such an array, an operand that is not one of these
values, or a register read before any write leaves the register without a value: reading it
stays what it was (a RegElem, a runtime value), so nothing is guessed.  The values live only
during that one helper evaluation (each call allocates its arrays afresh).
"""
from __future__ import annotations

import ast

from corpus_notation import dotted

MASK32 = 0xFFFFFFFF


class DescWord:
    """One 32-bit word of a shared-memory descriptor value: part "lo" or "hi" of desc, with base
    the descriptor it was first split from (the high word of a re-pointed descriptor is base's)."""

    def __init__(self, desc, part: str, base):
        self.desc, self.part, self.base = desc, part, base


def new_array(call, ev, line: int, name: str):
    """A fresh register array for `name = T.alloc_local((n,), dtype)` in helper code, or None."""
    import fragments
    if not isinstance(call, ast.Call) or (dotted(call.func) or "").split(".")[-1] != "alloc_local":
        return None
    arr = fragments.reg_array(call, ev, line, name)
    if arr is not None:
        arr.values = {}
        import runtime_data
        arr.site = runtime_data.STACK[-1] if runtime_data.STACK else None  # the walked statement calling it
    return arr


def content(v):
    """The value a register holds when a modelled statement wrote it; v itself otherwise."""
    import fragments
    if isinstance(v, fragments.RegElem):
        vals = getattr(v.array, "values", None)
        if vals and v.index in vals:
            return vals[v.index]
    return v


def _is_desc(v) -> bool:
    import instr_ops
    import tmem_cp
    import tvm_classes
    return isinstance(v, (instr_ops.SmemDescDeferred, tvm_classes.SmemDescObj, tvm_classes.SmemDescOffset,
                          tmem_cp.DescWithStart))


def _advance(desc, k: int):
    import tmem_cp
    import tvm_classes
    if isinstance(desc, tmem_cp.DescWithStart):
        return desc + k
    if isinstance(desc, tvm_classes.SmemDescOffset):
        return tvm_classes.SmemDescOffset(desc.desc, desc.units + k)
    return tvm_classes.SmemDescOffset(desc, k)


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _regs_named(st, env) -> list:
    import fragments
    return [env[n.id] for n in ast.walk(st) if isinstance(n, ast.Name) and
            isinstance(env.get(n.id), fragments.RegArray) and getattr(env[n.id], "values", None) is not None]


def _forget(st, env) -> None:
    for arr in _regs_named(st, env):
        arr.values.clear()


def _dest(node, ev):
    import fragments
    r = ev.value(node)
    if not isinstance(r, fragments.RegElem) or getattr(r.array, "values", None) is None:
        return None
    return r


def run(st, env, ev) -> bool:
    """Run one expression statement of helper code that names a helper register array: the
    modelled moves and adds set registers, anything else forgets the arrays it names.  False
    when the statement names no such array (the caller goes on as before)."""
    if not isinstance(st, ast.Expr) or not _regs_named(st, env):
        return False
    call = st.value
    if isinstance(call, ast.Call) and (dotted(call.func) or "").split(".")[-1] == "evaluate" and \
            len(call.args) == 1 and isinstance(call.args[0], ast.Call):
        call = call.args[0]
    text = dotted(call.func) if isinstance(call, ast.Call) else None
    try:
        import mapa_addr  # an address mapped into another CTA of the cluster (mapa_addr.py)
        if text in mapa_addr.MAPA_TEXTS:
            if mapa_addr.run(call, ev, _dest(call.args[0], ev) if call.args else None, content):
                return True
        elif text in ("T.ptx.mov.b64", "Tx.ptx.mov.b64") and not call.keywords:
            if _move(call, ev):
                return True
        elif text in ("T.ptx.add.u32", "Tx.ptx.add.u32") and len(call.args) == 3 and not call.keywords:
            d = _dest(call.args[0], ev)
            a, k = content(ev.value(call.args[1])), content(ev.value(call.args[2]))
            if d is not None:
                if _int(a) and _int(k):
                    d.array.values[d.index] = (a + k) & MASK32
                    return True
                if isinstance(a, DescWord) and a.part == "lo" and _int(k):
                    d.array.values[d.index] = DescWord(_advance(a.desc, k), "lo", a.base)
                    return True
    except Exception:  # noqa: BLE001 - an operand the evaluation does not fix: the registers are unknown
        pass
    _forget(st, env)
    return True


def _move(call, ev) -> bool:
    first = _dest(call.args[0], ev)
    if first is None or len(call.args) != 3:
        return False
    if first.array.dtype in ("uint32", "int32", "float32"):  # {lo, hi} = x
        lo, hi = first, _dest(call.args[1], ev)
        x = content(ev.value(call.args[2]))
        if lo is None or hi is None:
            return False
        if _int(x):
            lo.array.values[lo.index], hi.array.values[hi.index] = x & MASK32, (x >> 32) & MASK32
            return True
        if _is_desc(x):
            lo.array.values[lo.index], hi.array.values[hi.index] = DescWord(x, "lo", x), DescWord(x, "hi", x)
            return True
        return False
    if first.array.dtype not in ("uint64", "int64", "float64"):
        return False
    d = first  # d = {lo, hi}
    lo, hi = content(ev.value(call.args[1])), content(ev.value(call.args[2]))
    if _int(lo) and _int(hi):
        d.array.values[d.index] = (hi << 32) | lo
        return True
    if isinstance(lo, DescWord) and isinstance(hi, DescWord) and (lo.part, hi.part) == ("lo", "hi") and \
            lo.base is hi.base and hi.desc is hi.base:
        d.array.values[d.index] = lo.desc
        return True
    return False
