"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): tile
copies with TVM's `tma_explicit` dispatch and `gather4=` (tma_explicit.py), their options built
by a module-level `functools.partial` whose `cta_mask` is a `T.uint16` constant, and completing
on a barrier slot mapped to cluster rank 0 by `mapa` in a helper (mapa_addr.py).

Default: 8 gathers of four 64-element rows of a (256, 128) view into a 128B-swizzled (16, 128) MMA
tile (row groups 0..3, column atoms 0..1, rows at fixed coordinates); row groups 1 and 3 start
inside a swizzle atom, so the pointer's byte holds another element than the region's first.
--param PLAIN=True: 32-element rows into a plain (16, 32) tile at row 1 + 4 g: TVM checks only the
16-byte alignment of a no-swizzle slice, so it issues the load, and kernel.tma-layout finds the
hardware's 128-byte rule broken.  --param MASK=3: a multicast mask (refused, not modelled).
--param WIDE=True: 128-element rows, which are not box-linear in the swizzled tile (refused)."""
from functools import partial

from tvm.backend.cuda.tile_primitive.tma_utils import SwizzleMode
from tvm.script import tirx as T
from tvm.script.tirx import tile as Tx
from tvm.tirx.lang.pipeline import TMABar
from tvm.tirx.layout import S, TileLayout

MASK = 1
PLAIN = False
WIDE = False


def _cfg(*, dispatch="tma_auto", mbar=None, cta_group=None, cta_mask=None, cache_hint=None, gather4=None):
    cfg = {"dispatch": dispatch}
    for key, value in (("mbar", mbar), ("cta_group", cta_group), ("cta_mask", cta_mask),
                       ("cache_hint", cache_hint), ("gather4", gather4)):
        if value is not None:
            cfg[key] = value
    return cfg


_gather = partial(_cfg, dispatch="tma_explicit", cta_group=2, cta_mask=T.uint16(MASK),
                  cache_hint=T.uint64(0x14F0000000000000))


def leader(bar_ptr):
    mapped = T.alloc_local([1], "uint64")
    T.evaluate(T.ptx.mapa.u64(mapped[0], bar_ptr, T.uint32(0)))
    return T.reinterpret("handle", mapped[0])


@T.prim_func
def gather_kernel(kv: T.Buffer((256 * 128,), "bfloat16")):
    warp = T.warp_id([4])
    T.lane_id([32])
    pool = T.SMEMPool()
    K_smem = pool.alloc_tcgen05_mma_AB((16, 128), "bfloat16", swizzle_mode=SwizzleMode.SWIZZLE_128B_ATOM)
    P_smem = pool.alloc((17, 32), "bfloat16", align=1024)
    bar = TMABar(pool, 1)
    pool.commit()
    kv_rows = kv.view(256, 128, layout=TileLayout(S[(256, 128):(128, 1)]))
    if warp == 0:
        if T.cuda.elect_sync():
            if PLAIN:
                for g in T.unroll(2):
                    Tx.copy_async(P_smem[1 + 4 * g:5 + 4 * g, :], kv_rows[0:1, 0:32],
                                  **_gather(mbar=leader(bar.ptr_to([0])), gather4=[g, g + 1, g + 2, g + 3]))
            elif WIDE:
                Tx.copy_async(K_smem[0:4, :], kv_rows[0:1, :],
                              **_gather(mbar=leader(bar.ptr_to([0])), gather4=[0, 1, 2, 3]))
            else:
                for rg in T.unroll(4):
                    for ca in T.unroll(2):
                        Tx.copy_async(K_smem[rg * 4:rg * 4 + 4, ca * 64:ca * 64 + 64], kv_rows[0:1, ca * 64:ca * 64 + 64],
                                      **_gather(mbar=leader(bar.ptr_to([0])),
                                                gather4=[4 * rg + 3, 4 * rg + 2, 4 * rg + 1, 4 * rg]))
