"""TVM's `tma_explicit` dispatch of a tile copy with `gather4=`: the one `.tile::gather4` load it issues.

`Tx.copy_async(S[r:r+4, c:c+W], G[0:1, col:col+W], dispatch="tma_explicit", gather4=[r0, r1, r2,
r3], mbar=..., ...)` is read at apache/tvm 5d4dc87 python/tvm/backend/cuda/tile_primitive/
copy_async/tma.py ("tma.py"): `_build_explicit_plan` (1954-2019) maps the global tensor, its layout
and the region directly to one tensor map and one instruction (no box search, unlike tma_auto):

  tensor map  the global buffer/view G (rank 2 for gather4, 1963-1964) with a plain TileLayout of
              one iter per dimension, extents = shape, innermost stride 1 (_direct_global_layout
              1752-1775, 1812-1817): dims = shape reversed, strides_bytes = the outer strides in
              bytes, box = the global region's extents reversed ([W, 1]: gather4's row axis is one
              row, 1969-1973), element strides 1, no interleave, the swizzle of S's layout
              (tma_utils.get_swizzle_mode_from_layout: swizzle_len 0-3 -> none/32B/64B/128B, a
              ComposeLayout with swizzle_inner=False refused), no OOB fill (oob is not passed).
  smem        S's region, four rows (1974-1975) that are box-linear: the region's layout without
              its swizzle is base + flat index (_explicit_smem_layout 1717-1729, _validate_gather4_
              dst 1868-1897), base a multiple of the swizzle's 16/32/64/128-byte alignment
              (1739-1745); the pointer is the region's first element (shared_ptr, 2181-2192).
  coords      [col, r0, r1, r2, r3] (tma_coordinates 2120-2126): the model's `coords` [col] and
              `gather4` rows; rows that are runtime data are bound by the representative instance
              (runtime_data.py, as for a raw gather4).
  cta_mask    adds `.multicast::cluster` only when it is not 0 or a single bit
              (op.py:465-471 _is_static_unicast_cta_mask, tma.py:2139-2150): a unicast mask is not
              an operand at all, so it is noted; a multicast mask is refused (tma_forms.py: gather4
              with .multicast::cluster is not modelled).
  cta_group   `.cta_group::N` (2137): the op's cta_group.
  mbar, cache_hint, prefetch_tensormap, tensormap_l2_promotion: the completion barrier and
              options that do not change the data moved (tvm_pipeline.copy_mbar, copy_options.py):
              noted.

The op is the model's instruction-level `tma.load` with `gather4` (instr_ops._gather4_op's form).
Without gather4 (a plain explicit box), with src_selector, oob, mbarrier_addr or another option, or
for a store, the copy stays unresolved ("not modelled").
"""
from __future__ import annotations

from kernel_env import ConvertError

OPTIONS = {"gather4", "cta_mask"}   # read here, on top of the options every TMA copy accepts
_ALIGN = {0: 16, 1: 32, 2: 64, 3: 128}   # tma.py:1739
_SWIZZLE = {0: "none", 1: "32B", 2: "64B", 3: "128B"}
GATHER_ROWS = 4


def _unicast(mask) -> bool:
    return isinstance(mask, int) and not isinstance(mask, bool) and (mask == 0 or mask & (mask - 1) == 0)


def _addr(groups, coord) -> int:
    a = 0
    for g, c in zip(groups, coord):
        for e, s, _ax in reversed(g):
            a += (c % e) * s
            c //= e
    return a


def _dims_of(text, shape, what):
    import reg_copy
    reg = reg_copy._region(text, shape)
    if reg is None:
        raise ConvertError(f"tma_explicit: the {what} region {text!r} is not a constant box")
    return reg


def gather_op(db, sb, dst: str, src: str, kw: dict, ws, line: int) -> dict:
    """The tma.load op of a tma_explicit gather4 copy (ConvertError where it is not that form)."""
    import copy_options
    import instr_ops
    import layout_text
    import runtime_data
    import tvm_pipeline
    if kw.get("gather4") is None:
        raise ConvertError("dispatch='tma_explicit' without gather4: the explicit box plan is not modelled")
    if sb.scope != "global" or db.scope not in ("shared", "shared.dyn"):
        raise ConvertError("tma_explicit gather4 is only valid for global-to-shared (tma.py:1960-1962)")
    rows_in = kw["gather4"]
    if not isinstance(rows_in, (list, tuple)) or len(rows_in) != GATHER_ROWS:
        raise ConvertError("tma_explicit gather4 must contain exactly four row coordinates (tma.py:1860-1865)")
    if len(sb.shape) != 2:
        raise ConvertError(f"tma_explicit gather4 requires a rank-2 global tensor; {sb.name} has rank "
                           f"{len(sb.shape)} (tma.py:1963-1964)")
    g = layout_text.parse(sb.layout)
    shard = [it for it in g.shard]
    if g.swizzle is not None or g.replica or any(g.offset.values()) or len(shard) != 2 or \
            any(ax != "m" for _e, _s, ax in shard) or [e for e, _s, _a in shard] != list(sb.shape) or shard[1][1] != 1:
        raise ConvertError(f"tma_explicit: the global layout of {sb.name} ({sb.layout}) is not one iter per dimension "
                           "with extents = shape and innermost stride 1 (tma.py:1752-1775, 1812-1817)")
    greg = _dims_of(src, sb.shape, "global")
    if greg[0][1] - greg[0][0] != 1:
        raise ConvertError("tma_explicit gather4 global public axis 0 must describe one row (tma.py:1971-1972)")
    sreg = _dims_of(dst, db.shape, "shared")
    ext = [hi - lo for lo, hi in sreg]
    if ext[0] != GATHER_ROWS:
        raise ConvertError("tma_explicit gather4 shared public axis 0 must describe four rows (tma.py:1974-1975)")
    s = layout_text.parse(db.layout)
    if s.replica or set(s.offset) - {"m"} or any(ax != "m" for _e, _s, ax in s.shard):
        raise ConvertError(f"tma_explicit: the shared layout of {db.name} is not a memory layout")
    mode = 0
    if s.swizzle is not None:
        if s.swizzle[1] > 0 and not s.swizzle[3]:
            raise ConvertError("tma_explicit: a swizzle_inner=False shared layout, which TVM refuses "
                               "(tma_utils.get_swizzle_mode_from_layout)")
        mode = s.swizzle[1]
    if mode not in _SWIZZLE:
        raise ConvertError(f"tma_explicit: swizzle_len {mode} is no TMA swizzle mode")
    groups = layout_text.group(s, db.shape)
    start = [lo for lo, _hi in sreg]
    base = _addr(groups, start)
    n = 0
    for idx in _box(ext):
        c = [a + b for a, b in zip(start, idx)]
        if _addr(groups, c) != base + n:
            raise ConvertError(f"tma_explicit gather4 destination {dst} is not four-row box-linear (tma.py:1881-1897)")
        n += 1
    esz = instr_ops.DTYPE_BYTES.get(db.dtype)
    if esz is None or db.dtype != sb.dtype:
        raise ConvertError(f"tma_explicit: shared {db.dtype} and global {sb.dtype} element types")
    if ((base + s.offset.get("m", 0)) * esz) % _ALIGN[mode]:
        raise ConvertError(f"tma_explicit: the shared slice starts {(base + s.offset.get('m', 0)) * esz} bytes into "
                           f"its storage, not a multiple of the {_ALIGN[mode]}-byte swizzle alignment (tma.py:1739-1745)")
    width = greg[1][1] - greg[1][0]
    if n != GATHER_ROWS * width:
        raise ConvertError(f"tma_explicit gather4: {n} shared elements for four rows of {width}")
    mask = kw.get("cta_mask", 0)
    if not _unicast(mask):
        raise ConvertError(f"tma_explicit gather4 with cta_mask={mask!r}: .multicast::cluster (not modelled)")
    l2 = kw.get("tensormap_l2_promotion")
    tm = instr_ops.TensorMap(sb.name, line, sb.dtype, sb, [sb.shape[1], sb.shape[0]], [shard[0][1] * esz],
                             [width, 1], [1, 1], 0, _SWIZZLE[mode], "none", l2)
    col = greg[1][0]
    rows = []
    first = None
    for k, v in enumerate(rows_in):
        try:
            rows.append(runtime_data.coord_of_value(v, k, (
                f"gather4 row {k} at line {line}: the rows of one gather are taken to be the distinct rows 0, 1, 2, 3, "
                "the smallest distinct ones, so that kernel.tma-layout still sees which row lands where"),
                f"gather4 row coordinate {k}"))
        except ConvertError as e:
            first = first or e
    if first is not None:
        raise first
    import tma_forms
    tma_forms.gather4_in_bounds(tm, col, rows)
    op = {"kind": "tma.load", "warps": ws}
    if kw.get("cta_group", 1) == 2:
        op["cta_group"] = 2
    op.update({"tensor_map": tm.model(), "coords": [col], "gather4": rows,
               "global": [instr_ops._global_region(tm, (col, r), [width, 1]) for r in rows], "smem": dst})
    addr = _pointer_element(db, base + s.offset.get("m", 0), start)
    if addr is not None:
        op["smem_address"] = addr
    notes = [f"TVM's tma_explicit dispatch: one cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4 load, "
             f"tensor map over {sb.name} (its layout, box [{width}, 1], swizzle {_SWIZZLE[mode]})"]
    if "cta_mask" in kw:
        notes.append(f"cta_mask={mask} is a single CTA: no .multicast::cluster and no mask operand")
    m = tvm_pipeline.copy_mbar(kw.get("mbar"), "tma")
    if m:
        notes.append(m)
    ign = copy_options.ignored({k: v for k, v in kw.items() if k in copy_options.IGNORED_TMA}, "tma")
    if ign:
        notes.append(ign)
    op["notes"] = "; ".join(notes)
    return op


def _pointer_element(db, offset: int, start) -> str | None:
    """The element of db at the byte the instruction's pointer names (None: the region's first
    element, the model's default).  TVM passes the region's offset BEFORE the swizzle
    (shared_ptr: a flat view's ptr_to([smem_base_offset]), tma.py:2181-2192) and the TMA swizzles
    the absolute address it writes (PTX ISA §5.5.7), so inside a swizzle atom the pointer's byte
    holds another element than the region's first (its row's chunk XORed back)."""
    import byte_addr
    fwd, _back = byte_addr.element_bits(db)
    got = fwd.get(offset * byte_addr.DTYPE_BITS[db.dtype])
    if got is None:
        raise ConvertError(f"tma_explicit: the pointer ({offset} elements into {db.name}'s storage) names no element "
                           f"of {db.name}")
    if list(got) == list(start):
        return None
    return f"{db.name}[{', '.join(str(c) for c in got)}]"


def _box(ext):
    """Every index of a box of extents ext, row-major (the last dimension fastest)."""
    total = 1
    for e in ext:
        total *= e
    for flat in range(total):
        idx, rest = [], flat
        for e in reversed(ext):
            idx.insert(0, rest % e)
            rest //= e
        yield idx
