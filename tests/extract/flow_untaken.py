"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
PipelineState advanced in a sampled T.serial loop under a branch on a declared scalar that a helper
stores per iteration (`flag = it % 2`).  The walked first iteration does not take the branch, later
ones do: the state after the loop is not proven (stale), never the entry state."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx
from tvm.tirx.lang.pipeline import PipelineState


@T.prim_func
def k(A: T.Buffer((256, 64), "float16")):
    warp_id = T.warp_id([1])
    pool = T.SMEMPool()
    A_smem = pool.alloc_tcgen05_mma_AB((2, 128, 64), "float16")
    pool.commit()
    flag: T.int32
    ring = PipelineState(2, 0)

    @T.inline
    def step(it):
        flag = it % 2

    for it in T.serial(4):
        step(it)
        if flag:
            ring.advance()
    Tx.copy_async(A_smem[ring.stage, :, :], A[0:128, :], dispatch="tma")
