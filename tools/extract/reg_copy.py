"""TVM's choice for a warpgroup register -> shared `Tx.wg.copy(S_region, R)` without `dispatch=`.

Read at apache/tvm 5d4dc87 (python/tvm/tirx/operator/tile_primitive/dispatcher.py:271: the
variants are tried by priority, then name; a variant whose impl declines (DispatchFail) passes to
the next).  For copy on CUDA: `ldstmatrix` (priority 10, backend/cuda/tile_primitive/copy/
ld_stmatrix.py:388-395), then `vec_auto` (priority 10, vec_auto.py:39-55: for a register side,
vec_auto_reg._emit_reg), then `fallback` (priority 0).  This module decides the one case whose
layouts fix that choice without reimplementing TVM's layout algebra:

  R  the whole register tile of `T.wg_reg_tile(M, dtype)`: layout S[(128,M):(1@tid_in_wg,1)],
     each thread of the warpgroup owns one row of M contiguous registers (script/builder/ir.py:902);
  S  a shared buffer region of extents (128, M) (unit dimensions aside) on which the buffer's
     layout (its swizzle peeled) is affine: address = base + i*rs + j*cs for row i, column j,
     checked at every element of the region;
  executed by the 4 warps of one warpgroup with every lane (both variants' _all_threads_active).

ldstmatrix declines it: the swizzle's per_element < 3 fails at once (ld_stmatrix.py:98-107);
else R groups as [T/32, 8, 4 | M/(2num), num, 2] with strides (32 | 4, 1 | .., .., 1), so S's
"8" and "4" atoms are rows (strides 4 rs and rs) and its "2" atom a column pair (stride cs), and
_try_num accepts only (rs, cs) = (2, 1) or 4 rs = 1 (ld_stmatrix.py:291-294) -- rs = 2 is left
undecided here (it is not checked further), 4 rs = 1 cannot hold.  vec_auto_reg then moves
vec_len consecutive registers per access, vec_len the widest of 128/64/32/16/8 bits
(vec_auto_reg.py:308-360) that divides the contiguous tail (M when cs = 1, else none: scalar),
is at most 1 << per_element when S is swizzled (536-537), and divides the region's base offset
and the outer stride (_alignment_ok).  The kernel's `vec_len=` option is read by no copy variant
(only by common.copy_vec_load_impl, which no copy variant calls), so it changes nothing; the op
notes it.  Anything else stays unresolved as before.
"""
from __future__ import annotations

import re

from kernel_env import ConvertError

_VEC_BITS = (128, 64, 32, 16, 8)
_BITS = {"float16": 16, "bfloat16": 16, "float32": 32, "int32": 32, "uint32": 32, "int8": 8, "uint8": 8,
         "float8_e4m3fn": 8, "float8_e5m2": 8, "int16": 16, "uint16": 16}


def _region(text: str, shape) -> list | None:
    """[(lo, hi)] per dimension of a region text NAME[...] (None: not constant)."""
    if "[" not in text:
        return [(0, d) for d in shape]
    body = text[text.index("[") + 1:-1]
    parts = [p.strip() for p in body.split(",")]
    if len(parts) != len(shape):
        return None
    out = []
    for p, d in zip(parts, shape):
        if p == ":":
            out.append((0, d))
        elif re.fullmatch(r"\d+:\d+", p):
            lo, hi = map(int, p.split(":"))
            out.append((lo, hi))
        elif re.fullmatch(r"\d+", p):
            out.append((int(p), int(p) + 1))
        else:
            return None
    return out


def _addr(groups, coord) -> int:
    a = 0
    for g, c in zip(groups, coord):
        for e, s, _ax in reversed(g):   # innermost iter last in each group
            a += (c % e) * s
            c //= e
    return a


def choose(call_name: str, db, sb, dst_text: str, src_text: str, ws, threads, kw) -> dict | None:
    """The op fields {dispatch, access_bytes, notes} TVM's dispatch gives this copy, or None when
    it is not the case above (the caller leaves it unresolved as before)."""
    import layout_text
    if ".wg." not in "." + call_name + "." or sb.scope != "local" or db.scope not in ("shared", "shared.dyn"):
        return None
    if set(kw) - {"vec_len"} or ws is None or len(ws) != 4 or len({w // 4 for w in ws}) != 1 or threads != 128:
        return None
    if sb.dtype != db.dtype or sb.dtype not in _BITS or src_text != sb.name or not sb.layout or not db.layout:
        return None
    try:
        r = layout_text.parse(sb.layout)
        s = layout_text.parse(db.layout)
    except ConvertError:
        return None
    if r.swizzle is not None or r.replica or r.offset or len(sb.shape) != 2 or sb.shape[0] != 128:
        return None
    m = sb.shape[1]
    if [it for it in r.shard if it[0] != 1] != [(128, 1, "tid_in_wg"), (m, 1, "m")]:
        return None
    if s.replica or set(s.offset) - {"m"} or any(ax != "m" for _e, _s, ax in s.shard):
        return None
    reg = _region(dst_text, db.shape)
    if reg is None:
        return None
    dims = [d for d, (lo, hi) in enumerate(reg) if hi - lo != 1]
    if len(dims) != 2 or [reg[d][1] - reg[d][0] for d in dims] != [128, m]:
        return None
    try:
        groups = layout_text.group(s, db.shape)
    except ConvertError:
        return None
    start = [lo for lo, _hi in reg]

    def at(i, j):
        c = list(start)
        c[dims[0]] += i
        c[dims[1]] += j
        return _addr(groups, c)

    base = at(0, 0)
    rs = at(1, 0) - base
    cs = at(0, 1) - base if m > 1 else 1
    if rs < 1 or cs < 1 or any(at(i, j) != base + i * rs + j * cs for i in range(128) for j in range(m)):
        return None
    swz = s.swizzle   # (per_element, swizzle_len, atom_len, inner)
    if not (swz is not None and swz[0] < 3) and rs == 2:
        return None   # ldstmatrix's row test could pass: not decided here
    bits = _BITS[sb.dtype]
    cap = (1 << swz[0]) if swz is not None and swz[1] > 0 else None
    tail = m if cs == 1 else 0
    base += s.offset.get("m", 0)
    vec = 1
    for vb in _VEC_BITS:
        if vb < bits or vb % bits:
            continue
        n = vb // bits
        if n == 1 or (cap is not None and n > cap) or tail < n or tail % n:
            continue
        if base % n == 0:   # outer atom (m/n, n, n): its terms are multiples of n
            vec = n
            break
    why = "ldstmatrix declines (its swizzle per_element < 3)" if swz is not None and swz[0] < 3 else \
        f"ldstmatrix declines (S row stride {rs}, not 2)"
    note = (f"TVM's dispatch without dispatch=: {why}; vec_auto_reg moves {vec} element(s) per access "
            f"({vec * bits // 8} bytes: contiguous tail {tail}"
            + (f", swizzle cap {cap}" if cap is not None else "") + f", base offset {base})")
    if "vec_len" in kw:
        note += f"; vec_len={kw['vec_len']} is read by no copy variant (it changes nothing)"
    return {"dispatch": "thread", "access_bytes": vec * bits // 8, "notes": note}
