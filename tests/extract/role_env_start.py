"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): each warp
role starts from the environment at the fork, not from what the previously running role left.

Role A (warp 0) declares `acc` inside its branch, stores 0, waits at `gate` slot 0; role B (warps 4-5)
forks again into B0 (warp 4) and B1 (warp 5).  B0 releases gate slot 0, A stores `acc = 1` and waits
at gate slot 1, B0 waits for B1, B1 arrives, B0 releases gate slot 1, and A stores D's row block `acc`
(rows 128-255).  Before, B's first run saw A's binding of `acc` (A's frame was still open), B's nested
fork took it as one of its own per-role cells, and B0's return installed its stale state (0) over
A's store: A's store went to rows 0-127."""
from tvm.script import tirx as T
from tvm.tirx.lang.pipeline import MBarrier

_STORE_2D = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


def roles(D: T.Buffer((512, 64), "float16")):
    D_map: T.let[T.handle("tensormap")] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", D_map, "float16", 2, D.data, 64, 512, 128, 64, 128,
                  1, 1, 0, 3, 0, 0)
    wg_id = T.warpgroup_id([2])
    warp_id = T.warp_id_in_wg([4])
    pool = T.SMEMPool()
    A_smem = pool.alloc_tcgen05_mma_AB((1, 128, 64), "float16")
    gate = MBarrier(pool, 2)
    gate.init(32)
    inner = MBarrier(pool, 1)
    inner.init(32)
    pool.commit()

    if (wg_id == 0) & (warp_id == 0):
        acc: T.int32
        acc = 0
        gate.wait(0, 0)
        acc = 1
        gate.wait(1, 0)
        if T.cuda.elect_sync():
            T.ptx[_STORE_2D](T.address_of(D_map), 0, acc * 128, A_smem.ptr_to([0, 0, 0]))
    if wg_id == 1:
        if warp_id == 0:
            gate.arrive(0)
            inner.wait(0, 0)
            gate.arrive(1)
        if warp_id == 1:
            inner.arrive(0)
