"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a buffer
per warpgroup (per_warp.py).  Under `if wg_id < 2:` (warps 0..7) `C_wg = C_smem.sub[wg_id, :, :]`
is one storage per warpgroup: `wg_id` differs between the executing warps but is the same in each
warpgroup, so it is one model buffer per warpgroup (`C_wg.wg0`, `C_wg.wg1`), not one per warp; the
first warp of each warpgroup gathers four rows into its group's buffer: one op per warpgroup, each
naming its group's buffer.  `--param SAME=True` indexes by `g = wg_id // 2`, the same in every
executing warp: one buffer and one op for warps 0 and 4, no split."""
from tvm.script import tirx as Tx

M, K = 256, 64
SAME = False
_G4 = "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes"


def per_group_rows(A: Tx.Buffer((M, K), "float16")):
    A_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 2, A.data, K, M, K * 2, K, 1,
                   1, 1, 0, 3, 0, 0)
    wg_id = Tx.warpgroup_id([3])
    warp_id = Tx.warp_id_in_wg([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    bar = pool.alloc([1], "uint64", align=8)
    C_smem = pool.alloc_tcgen05_mma_AB((2, 8, K), "float16")
    pool.commit()
    if wg_id < 2:
        g: Tx.let = wg_id // 2 if SAME else wg_id
        C_wg = C_smem.sub[g, :, :]
        if warp_id == 0:
            if Tx.filter(lane_id, Tx.cuda.elect_sync()):
                Tx.ptx[_G4](C_wg.ptr_to([0, 0]), Tx.address_of(A_map), 0, 5, 17, 2, 9, bar.ptr_to([0]))
