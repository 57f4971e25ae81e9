"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): one
PipelineState built by every warp, advanced by warp 0 in a T.serial loop of 4 iterations that the
walk samples (1 iteration), and read by warp 1 in its own branch: warp 1's copy is its own
(per-thread registers) and still at stage 0, so its load is resolved; warp 0's copy after the loop
is not followed (--param READ_AFTER=True: warp 0 reads it, unresolved)."""
from enum import IntEnum

from tvm.script import tirx as T
from tvm.tirx.lang.pipeline import PipelineState

READ_AFTER = False
_TMA_2D = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"


class Role(IntEnum):
    LOAD = 0
    OTHER = 1


def ring(A: T.Buffer((512, 64), "float16")):
    A_map: T.let[T.handle("tensormap")] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 2, A.data, 64, 512, 128, 64, 128,
                  1, 1, 0, 3, 0, 0)
    warp_id = T.warp_id([2])
    pool = T.SMEMPool()
    bars = pool.alloc([2], "uint64", align=8)
    A_smem = pool.alloc_tcgen05_mma_AB((2, 128, 64), "float16")
    B_smem = pool.alloc_tcgen05_mma_AB((2, 128, 64), "float16")
    pool.commit()
    st = PipelineState(2, 0)
    if warp_id == int(Role.LOAD):
        if T.cuda.elect_sync():
            for i in T.serial(4):
                T.ptx[_TMA_2D](A_smem.ptr_to([st.stage, 0, 0]), T.address_of(A_map), 0, i * 128,
                               bars.ptr_to([st.stage]))
                st.advance()
            if READ_AFTER:
                T.ptx[_TMA_2D](A_smem.ptr_to([st.stage, 0, 0]), T.address_of(A_map), 0, 0, bars.ptr_to([0]))
    elif warp_id == Role.OTHER:
        if T.cuda.elect_sync():
            T.ptx[_TMA_2D](B_smem.ptr_to([st.stage, 0, 0]), T.address_of(A_map), 0, 384, bars.ptr_to([st.stage]))
