"""Options of a tile op that do not change the data it moves.

Options of a TMA tile copy (`Tx.copy_async(dst, src, dispatch="tma", ...)`) that do not change
the data it moves, so the extracted op is the copy without them and says so in its `notes`.
Read at apache/tvm 5d4dc87 python/tvm/backend/cuda/tile_primitive/copy_async/tma.py:

  prefetch_tensormap      adds a `prefetch.tensormap` of the copy's tensor map to the kernel's
                          start, issued by warp 0 (tma.py:2075-2093, 2222-2223, 2240-2241): a
                          cache prefetch of the descriptor (PTX ISA §9.7.9.26 prefetch.tensormap)
  tensormap_l2_promotion  the tensor map's L2 promotion field (tma.py:1612, the l2Promotion
                          argument of cuTensorMapEncodeTiled): how much of L2 a fetch brings in
  cache_hint              the instruction's .L2::cache_hint policy operand (tma.py:1610): an
                          eviction-priority hint (PTX ISA §9.7.9.25, "cache_hint" is a
                          performance hint only)

A register copy's load cache options (`Tx.copy(regs, G[...], cache="nc", l1_evict=...,
l2_evict=..., prefetch_size=...)`): TVM honours them only on a global -> register load, where
they fold into the load's spelling (`ld.global.nc.L1::evict_normal.L2::256B...`,
backend/cuda/tile_primitive/copy/vec_auto_reg.py:560-584, vec_forced.py:74-89 and 127-134: cache
None or "nc", src global).  `.nc` loads through the non-coherent (read-only) cache and the eviction /
prefetch qualifiers are cache-policy hints (PTX ISA, Data Movement and Conversion Instructions:
ld, ld.global.nc); none of them changes which bytes move or where they land, so they are left
out of the op and noted (`LOAD_CACHE`).  `.nc` is defined only for data the kernel does not write
while it runs; the note says so, and the model's own ops show whether any writes that buffer.  On
another copy (a store, a shared source) they stay unresolved.

Any other option the model does not carry (cta_mask, gather4, src_selector, mbar, ...) still
leaves the op unresolved (op_sites._kwargs names it); these three only with a TMA dispatch.

`Tx.gemm_async(..., smem_desc=MODE)` with the tcgen05 dispatch: how the shared-memory descriptors
are produced -- "hoist" (the default: encoded once, stepped by add_16B_offset), "local_hoist"
(encoded at the call site), "encode" / "recompute" (encoded per MMA)
(python/tvm/backend/cuda/tile_primitive/gemm_async/tcgen05.py:1168-1218).  Every mode yields the
descriptor of the same operand tile for each MMA, so the op (D, A, B, accumulate) is the same;
another value, or "encode" on a block-scaled MMA (which TVM refuses, 1174-1175), stays unresolved.
"""
from __future__ import annotations

IGNORED_TMA = {
    "prefetch_tensormap": "a prefetch of the tensor map",
    "tensormap_l2_promotion": "the tensor map's L2 promotion",
    "cache_hint": "an L2 cache-eviction hint",
}
TMA_DISPATCHES = ("tma", "tma_auto")
LOAD_CACHE = ("cache", "l1_evict", "l2_evict", "prefetch_size")


def load_cache(kw: dict, db, sb) -> str | None:
    """Pop the load cache options of a register copy from kw; their note (None without any).
    ConvertError where TVM does not read them as a global load's cache hints."""
    from kernel_env import ConvertError
    names = [k for k in LOAD_CACHE if k in kw]
    if not names:
        return None
    if sb.scope != "global" or db.scope != "local" or kw.get("cache", "nc") != "nc":
        raise ConvertError(f"option(s) {', '.join(names)} on a {sb.scope} -> {db.scope} copy: only a global -> "
                           "register load's cache hints (cache='nc') are known (not modelled by the model format)")
    vals = ", ".join(f"{k}={kw.pop(k)!r}" for k in names)
    return (f"load cache options not modelled, none of which changes the data moved: {vals} (ld.global.nc "
            f"and cache-policy qualifiers; .nc needs {sb.name} unwritten while the kernel runs)")


def ignored(kw: dict, dispatch) -> str | None:
    """The note for the ignored options among `kw` (None when there are none); raises ConvertError
    when one is given with a dispatch other than TMA (its meaning is not the TMA one)."""
    from kernel_env import ConvertError
    names = sorted(k for k in kw if k in IGNORED_TMA)
    if not names:
        return None
    if dispatch not in TMA_DISPATCHES:
        raise ConvertError(f"option(s) {', '.join(names)} with dispatch {dispatch!r}: only their TMA meaning is "
                           "known (not modelled by the model format)")
    what = "; ".join(f"{n} ({IGNORED_TMA[n]})" for n in names)
    return f"options not modelled, none of which changes the data moved: {what}"


SMEM_DESC_MODES = ("hoist", "local_hoist", "encode", "recompute")


def gemm_ignored(kw: dict, dispatch) -> str | None:
    """The note for a gemm_async smem_desc= option (None without one); ConvertError for a mode or
    dispatch whose meaning is not the one above."""
    from kernel_env import ConvertError
    if "smem_desc" not in kw:
        return None
    mode = kw["smem_desc"]
    if dispatch not in (None, "tcgen05") or mode not in SMEM_DESC_MODES:
        raise ConvertError(f"smem_desc={mode!r} with dispatch {dispatch!r}: only the tcgen05 modes "
                           f"{', '.join(SMEM_DESC_MODES)} are known (not modelled by the model format)")
    if mode == "encode" and any(k in kw for k in ("sfa", "sfb", "SFA", "SFB")):
        raise ConvertError("smem_desc='encode' on a block-scaled MMA, which TVM refuses")
    return (f"option not modelled, which does not change the operands: smem_desc={mode!r} (how the descriptors "
            "are produced)")
