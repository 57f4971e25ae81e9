"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
warpgroup register -> shared `Tx.wg.copy` without `dispatch=` where the register tile is not
`T.wg_reg_tile`'s row-per-thread form, or the shared rows are not evenly spaced (reg_copy.py).

  copy 0: a (64, 128) bfloat16 fragment spread over warps and lanes (thread (w, l) holds row
          32 (w % 2) + l, columns 64 (w // 2) .. + 64) into a no-swizzle MMA tile (8-element core
          matrix rows): ldstmatrix declines (neighbouring threads' rows 8 elements apart),
          vec_auto_reg moves 8 elements (16 bytes) per access;
  copy 1: a (128, 64) register tile into a rearranged view of a 128B-swizzled (64, 256) tile
          ("h (b r) -> (b h) r": rows 64 apart within a half, the halves 8192 elements apart), at
          columns 64:128: 8 elements per access (the swizzle's cap).
--param WARPID=True: the fragment's warps are named by `warpid` (a CTA-scope axis, which TVM's
register variant refuses inside a warpgroup copy): unresolved."""
from tvm.backend.cuda.tile_primitive.tma_utils import SwizzleMode
from tvm.script import tirx as T
from tvm.script.tirx import tile as Tx
from tvm.tirx.layout import S, TileLayout, laneid, warpid, wid_in_wg

WARPID = False


@T.prim_func
def reg_copy_frag_kernel(A: T.Buffer((64, 128), "bfloat16")):
    wg_id = T.warpgroup_id([2])
    T.warp_id_in_wg([4])
    T.lane_id([32])
    pool = T.SMEMPool()
    S_smem = pool.alloc_tcgen05_mma_AB((64, 128), "bfloat16", swizzle_mode=SwizzleMode.SWIZZLE_NONE)
    O_smem = pool.alloc_tcgen05_mma_AB((64, 256), "bfloat16")
    pool.commit()
    if wg_id == 0:
        if WARPID:
            frag = T.alloc_buffer((64, 128), "bfloat16", scope="local",
                                  layout=TileLayout(S[(2, 32, 2, 64):(1 @ warpid, 1 @ laneid, 2 @ warpid, 1)]))
        else:
            frag = T.alloc_buffer((64, 128), "bfloat16", scope="local",
                                  layout=TileLayout(S[(2, 32, 2, 64):(1 @ wid_in_wg, 1 @ laneid, 2 @ wid_in_wg, 1)]))
        Tx.wg.copy(S_smem[:, :], frag[:, :])
        tile = T.wg_reg_tile(64, "bfloat16")
        O_win = O_smem.rearrange("h (b r) -> (b h) r", b=2)
        Tx.wg.copy(O_win[:, 64:128], tile[:, :])
