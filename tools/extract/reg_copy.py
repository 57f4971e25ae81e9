"""TVM's choice for a warpgroup register -> shared `Tx.wg.copy(S_region, R)` without `dispatch=`.

Read at apache/tvm 5d4dc87 (python/tvm/tirx/operator/tile_primitive/dispatcher.py:271: the
variants are tried by priority, then name; a variant whose impl declines (DispatchFail) passes to
the next).  For copy on CUDA: `ldstmatrix` (priority 10, backend/cuda/tile_primitive/copy/
ld_stmatrix.py:388-395), then `vec_auto` (priority 10, vec_auto.py:39-55: for a register side,
vec_auto_reg._emit_reg), then `fallback` (priority 0).  This module decides the cases whose
layouts fix that choice without reimplementing TVM's layout algebra:

  R  a whole warpgroup register tile: every thread of the warpgroup (tid_in_wg = 32 wid_in_wg +
     laneid, the axes R's layout may use) owns the same registers 0..M-1, one contiguous register
     run (R's memory iters are one (M, 1) iter, so TVM's atom order is the register order) --
     `T.wg_reg_tile(M)`'s S[(128,M):(1@tid_in_wg,1)], a tcgen05 32x32b fragment, or a fragment
     spread over warps and lanes such as S[(2,32,2,64):(1@wid_in_wg,1@laneid,2@wid_in_wg,1)];
  S  a shared buffer region with R's extents (unit dimensions aside) whose per-thread offsets are
     the same for every thread: for each thread t and register j, addr(t, j) - addr(t, 0) = g(j)
     (the swizzle peeled), checked at every element -- TVM groups S by R's iters and takes the
     atoms of R's register position only (vec_auto_reg.py:177-231; thread-axis terms are not
     address terms, 330-335), so the rows may be spaced anyhow (a rearranged view's halves);
  executed by the 4 warps of one warpgroup with every lane (both variants' _all_threads_active).

ldstmatrix declines it: the swizzle's per_element < 3 fails at once (ld_stmatrix.py:98-107);
else its _try_num needs S's "4" atom -- the step between the first registers of threads t and
t + 1 (R's r4 = 1, ld_stmatrix.py:199) -- to be 2 (with the "2" atom 1), or the "8" atom (t to
t + 4) to be 1 (ld_stmatrix.py:218-221); a step of 2 or an "8" step of 1 is left undecided here.
vec_auto_reg then moves vec_len consecutive registers per access, vec_len the widest of
128/64/32/16/8 bits (vec_auto_reg.py:308-360) that divides the contiguous tail (the largest L
dividing M with g(qL + r) = g(qL) + r: the innermost S atoms chained with stride 1, 234-244), is
at most 1 << per_element when S is swizzled (536-537), and divides the region's base offset and
every outer atom step g(q vec_len) (_alignment_ok).  The kernel's `vec_len=` option is read by no
copy variant (only by common.copy_vec_load_impl, which no copy variant calls), so it changes
nothing; the op notes it.  Anything else stays unresolved as before.
"""
from __future__ import annotations


from kernel_env import ConvertError

_VEC_BITS = (128, 64, 32, 16, 8)
_MAX_ELEMENTS = 1 << 16   # register tile elements enumerated at most (a warpgroup's 128 x 512)
_BITS = {"float16": 16, "bfloat16": 16, "float32": 32, "int32": 32, "uint32": 32, "int8": 8, "uint8": 8,
         "float8_e4m3fn": 8, "float8_e5m2": 8, "int16": 16, "uint16": 16}


def _region(text: str, shape) -> list | None:
    """[(lo, hi)] per dimension of a region text NAME[...] (None: not constant; region_text.py)."""
    import region_text
    return region_text.bounds(text, shape)


def _addr(groups, coord) -> int:
    a = 0
    for g, c in zip(groups, coord):
        for e, s, _ax in reversed(g):   # innermost iter last in each group
            a += (c % e) * s
            c //= e
    return a


_WG_THREAD_AXES = {"tid_in_wg": 1, "wid_in_wg": 32, "laneid": 1}   # thread in the warpgroup per unit


def _owners(r, shape) -> dict | None:
    """{thread: {register: logical coordinate}} of a warpgroup register layout r over `shape`: each
    thread of the warpgroup (tid_in_wg = 32 wid_in_wg + laneid) and each of its registers (the `m`
    coordinate) holds exactly one element; None when r is not such a layout (other thread axes, a
    replica, a register owned twice, threads holding different register sets)."""
    import layout_text
    if r.swizzle is not None or r.replica or any(r.offset.values()):
        return None
    if any(ax != "m" and ax not in _WG_THREAD_AXES for _e, _s, ax in r.shard):
        return None
    try:
        groups = layout_text.group(r, shape)
    except ConvertError:
        return None
    total = 1
    for d in shape:
        total *= d
    if total > _MAX_ELEMENTS:
        return None
    out: dict = {}
    for flat in range(total):
        coord, rest = [], flat
        for d in reversed(list(shape)):
            coord.insert(0, rest % d)
            rest //= d
        t = m = 0
        for g, c in zip(groups, coord):
            for e, st, ax in reversed(g):
                if ax == "m":
                    m += (c % e) * st
                else:
                    t += (c % e) * st * _WG_THREAD_AXES[ax]
                c //= e
        regs = out.setdefault(t, {})
        if m in regs:
            return None
        regs[m] = tuple(coord)
    if sorted(out) != list(range(128)):
        return None
    n = len(out[0])
    if any(sorted(regs) != list(range(n)) for regs in out.values()):
        return None
    return out


def _tail(g, m: int) -> int:
    """TVM's contiguous tail (vec_auto_reg.py:234-244) of the per-thread S offsets g[0..m): the
    largest L dividing m with g[qL + r] = g[qL] + r for every q and r < L (the innermost S atoms
    chained with stride 1); 0 when g[1] is not 1 (m > 1)."""
    for n in sorted((d for d in range(1, m + 1) if m % d == 0), reverse=True):
        if all(g[q + r] == g[q] + r for q in range(0, m, n) for r in range(n)) and g[0] == 0:
            return n
    return 0


def choose(call_name: str, db, sb, dst_text: str, src_text: str, ws, threads, kw) -> dict | None:
    """The op fields {dispatch, access_bytes, notes} TVM's dispatch gives this copy, or None when
    it is not the case above (the caller leaves it unresolved as before)."""
    import layout_text
    if ".wg." not in "." + call_name + "." or sb.scope != "local" or db.scope not in ("shared", "shared.dyn"):
        return None
    if set(kw) - {"vec_len"} or ws is None or len(ws) != 4 or len({w // 4 for w in ws}) != 1 or threads != 128:
        return None
    if sb.dtype != db.dtype or sb.dtype not in _BITS or not sb.layout or not db.layout:
        return None
    if src_text != sb.name and _region(src_text, sb.shape) != [(0, d) for d in sb.shape]:
        return None   # the whole register tile only
    try:
        r = layout_text.parse(sb.layout)
        s = layout_text.parse(db.layout)
    except ConvertError:
        return None
    owners = _owners(r, sb.shape)
    if owners is None:
        return None
    mem = [it for it in r.shard if it[0] != 1 and it[2] == "m"]
    m = len(owners[0])
    if mem != [(m, 1, "m")]:
        return None   # one contiguous register run per thread: TVM's atom order is the register order
    if s.replica or set(s.offset) - {"m"} or any(ax != "m" for _e, _s, ax in s.shard):
        return None
    reg = _region(dst_text, db.shape)
    if reg is None:
        return None
    dims = [d for d, (lo, hi) in enumerate(reg) if hi - lo != 1]
    if [reg[d][1] - reg[d][0] for d in dims] != [d for d in sb.shape if d != 1]:
        return None
    rdims = [d for d, e in enumerate(sb.shape) if e != 1]
    try:
        groups = layout_text.group(s, db.shape)
    except ConvertError:
        return None
    start = [lo for lo, _hi in reg]

    def at(coord):
        c = list(start)
        for d, rd in zip(dims, rdims):
            c[d] += coord[rd]
        return _addr(groups, c)

    addr = {t: [at(regs[j]) for j in range(m)] for t, regs in owners.items()}
    g = [a - addr[0][0] for a in addr[0]]
    if any(addr[t][j] - addr[t][0] != g[j] for t in addr for j in range(m)):
        return None   # the S offsets of a thread's registers differ between threads: not grouped here
    swz = s.swizzle   # (per_element, swizzle_len, atom_len, inner)
    d4 = [addr[t + 1][0] - addr[t][0] for t in range(3)]
    d8 = addr[4][0] - addr[0][0]
    if not (swz is not None and swz[0] < 3) and (2 in d4 or d8 == 1):
        return None   # ldstmatrix's row test could pass: not decided here
    bits = _BITS[sb.dtype]
    cap = (1 << swz[0]) if swz is not None and swz[1] > 0 else None
    tail = _tail(g, m)
    base = at(tuple(0 for _ in sb.shape)) + s.offset.get("m", 0)
    vec = 1
    for vb in _VEC_BITS:
        if vb < bits or vb % bits:
            continue
        n = vb // bits
        if n == 1 or (cap is not None and n > cap) or tail < n or tail % n:
            continue
        if base % n == 0 and all(g[q] % n == 0 for q in range(0, m, n)):   # outer atoms, base offset
            vec = n
            break
    why = "ldstmatrix declines (its swizzle per_element < 3)" if swz is not None and swz[0] < 3 else \
        f"ldstmatrix declines (S offset {d4[0]} between neighbouring threads' first registers, not 2)"
    note = (f"TVM's dispatch without dispatch=: {why}; vec_auto_reg moves {vec} element(s) per access "
            f"({vec * bits // 8} bytes: contiguous tail {tail}"
            + (f", swizzle cap {cap}" if cap is not None else "") + f", base offset {base})")
    if "vec_len" in kw:
        note += f"; vec_len={kw['vec_len']} is read by no copy variant (it changes nothing)"
    return {"dispatch": "thread", "access_bytes": vec * bits // 8, "notes": note}
