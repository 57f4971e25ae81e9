"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a tile
tcgen05.cp with shape= / multicast= (cp_shape.py).

Default: `Tx.copy_async(a_tmem, a_smem, shape="64x128b", multicast="warpx2::02_13", cta_group=2)`:
the op's shape is "64x128b.warpx2::02_13".  --param NO_MC=True: shape="64x128b" alone (TVM needs a
multicast for it: refused).  --param BAD_MC=True: shape="32x128b" with warpx2::02_13 (TVM allows only
warpx4 there: refused).  --param MC_ONLY=True: multicast= without shape= (TVM infers the shape:
not derived, refused)."""
from tvm.script import tirx as T
from tvm.script.tirx import tile as Tx

NO_MC = False
BAD_MC = False
MC_ONLY = False


@T.prim_func
def cp_shape_kernel(a: T.Buffer((64, 128), "bfloat16")):
    T.cta_id_in_cluster([2])
    warp = T.warp_id([4])
    T.lane_id([32])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc((1,), "uint32")
    a_smem = pool.alloc_tcgen05_mma_AB((64, 128), "bfloat16")
    tmem_pool = T.TMEMPool(pool, total_cols=128, cta_group=2, tmem_addr=tmem_addr)
    a_tmem = tmem_pool.alloc_tcgen05_mma_A((64, 128), "bfloat16", M=128, cta_group=2)
    tmem_pool.commit()
    if warp == 0:
        if T.cuda.elect_sync():
            Tx.copy_async(a_smem[:, :], a[:, :])
            if NO_MC:
                Tx.copy_async(a_tmem[:, :], a_smem[:, :], shape="64x128b", cta_group=2)
            elif BAD_MC:
                Tx.copy_async(a_tmem[:, :], a_smem[:, :], shape="32x128b", multicast="warpx2::02_13", cta_group=2)
            elif MC_ONLY:
                Tx.copy_async(a_tmem[:, :], a_smem[:, :], multicast="warpx2::02_13", cta_group=2)
            else:
                Tx.copy_async(a_tmem[:, :], a_smem[:, :], shape="64x128b", multicast="warpx2::02_13", cta_group=2)
    tmem_pool.dealloc()
