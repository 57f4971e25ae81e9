"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): the roles
of ring_group_roles.py (a loader warpgroup and two consumer warpgroups ordered by an mbarrier slot
per warpgroup and by named barriers BAR_BASE + k), with the barrier ids and the thread count as
parameters.  At the defaults (1, 256) the model is complete.  PTX ISA (bar / barrier) gives a CTA
sixteen named barriers, 0..15, and a thread count must be a multiple of the warp size:
BAR_BASE=15 makes the second barrier 16 and COUNT=240 is not a multiple of 32 -- each is listed
unresolved as not a valid instruction, never walked as if it synchronised.  RUNTIME=True takes the
ids from the runtime scalar n: the bar.sync is not decided, listed unresolved (the roles' order
around it is not established)."""
from tvm.script import tirx as T
from tvm.tirx.lang.pipeline import TMABar

BAR_BASE = 1
COUNT = 256
RUNTIME = False

_TMA_2D = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
_STORE_2D = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


def roles(A: T.Buffer((512, 64), "float16"), D: T.Buffer((512, 64), "float16"), n: T.int32):
    A_map: T.let[T.handle("tensormap")] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 2, A.data, 64, 512, 128, 64, 128,
                  1, 1, 0, 3, 0, 0)
    D_map: T.let[T.handle("tensormap")] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", D_map, "float16", 2, D.data, 64, 512, 128, 64, 128,
                  1, 1, 0, 3, 0, 0)
    wg_id = T.warpgroup_id([3])
    warp_id = T.warp_id_in_wg([4])
    pool = T.SMEMPool()
    A_smem = pool.alloc_tcgen05_mma_AB((1, 128, 64), "float16")
    full = TMABar(pool, 2)
    full.init(1)
    pool.commit()

    if wg_id == 2:
        for k in T.unroll(2):
            if warp_id == 0:
                if T.cuda.elect_sync():
                    T.ptx[_TMA_2D](A_smem.ptr_to([0, 0, 0]), T.address_of(A_map), 0, k * 128, full.ptr_to([k]))
                    full.arrive(k, 128 * 64 * 2)
            T.ptx.bar.sync(T.uint32((n if RUNTIME else BAR_BASE) + k), COUNT)
    if wg_id < 2:
        full.wait(wg_id, 0)
        if warp_id == 0:
            if T.cuda.elect_sync():
                T.ptx[_STORE_2D](T.address_of(D_map), 0, wg_id * 128, A_smem.ptr_to([0, 0, 0]))
                T.ptx.cp.async_.bulk.commit_group()
                T.ptx.cp.async_.bulk.wait_group.read(0)
        T.ptx.bar.arrive(T.uint32(BAR_BASE + wg_id), COUNT)
