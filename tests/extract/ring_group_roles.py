"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): one
loader warpgroup (wg 2, first in the source) and two consumer warpgroups under one branch
`if wg_id < 2:`, ordered by a per-warpgroup mbarrier slot and by named barriers.

The loader fills the one-slot buffer A_smem with A's rows 0-127 (completing `full` slot 0), waits at
named barrier 1 until consumer warpgroup 0 has stored that slot to D and arrived there
(`bar.arrive(1 + wg_id, 256)`), then refills the same slot with rows 128-255 (slot 1 of `full`) and
waits at named barrier 2 for warpgroup 1.  Each consumer warpgroup waits on `full` slot wg_id.

The consumer warpgroups wait for different arrivals: walked as one role (warps 0-7), their joint wait
on slots 0 and 1 would hold warpgroup 0 back until slot 1 completes, which needs warpgroup 0's own
named-barrier arrive -- a deadlock that is not the kernel's; so each warpgroup is its own role
(role_sched.group_split).  The loader's `bar.sync` suspends it until the consumers arrive (named_bar.py):
the model's order is load rows 0-127, store them (wg 0), load rows 128-255 into the same slot, store
them (wg 1).  Walked without the named barriers the loader's second load (a reuse of the slot) came
before warpgroup 0's store.
--param SKIP_ARRIVE=True: warpgroup 1 does not arrive at barrier 2, so the loader's last `bar.sync`
never completes: a deadlock in the walked pass, listed unresolved (never passed as if satisfied)."""
from tvm.script import tirx as T
from tvm.tirx.lang.pipeline import TMABar

SKIP_ARRIVE = False

_TMA_2D = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
_STORE_2D = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


def roles(A: T.Buffer((512, 64), "float16"), D: T.Buffer((512, 64), "float16")):
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
            T.ptx.bar.sync(T.uint32(1 + k), 256)
    if wg_id < 2:
        full.wait(wg_id, 0)
        if warp_id == 0:
            if T.cuda.elect_sync():
                T.ptx[_STORE_2D](T.address_of(D_map), 0, wg_id * 128, A_smem.ptr_to([0, 0, 0]))
                T.ptx.cp.async_.bulk.commit_group()
                T.ptx.cp.async_.bulk.wait_group.read(0)
        if not (SKIP_ARRIVE and wg_id == 1):
            T.ptx.bar.arrive(T.uint32(1 + wg_id), 256)
