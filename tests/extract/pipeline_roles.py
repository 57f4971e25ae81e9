"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
one PipelineState built by every warp before the warp-role branch, advanced inside one role's
branch (warp 4, ring A) and, separately, inside another's (warp 0, ring B): each role holds its own
copy (per-thread registers), so both see stages 0 and 1, each counting its own advances.  Under --param LOADS=3 the producer's copy runs past the two-slot ring
within the walked pass (a slot reused before the consumer freed it): not followed, unresolved.
Under --param READ_AFTER_ELECT=True warp 4 reads the state after the elect_sync branch in which
only its elected lane advanced it: the warp's lanes disagree, unresolved."""
from tvm.script import tirx as T
from tvm.tirx.lang.pipeline import PipelineState

STAGES = 2
LOADS = 2
READ_AFTER_ELECT = False  # --param READ_AFTER_ELECT=True: warp 4 reads the state after its elect_sync branch

_TMA_2D = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"


def ring(A: T.Buffer((512, 64), "float16")):
    A_map: T.let[T.handle("tensormap")] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 2, A.data, 64, 512, 128, 64, 128,
                  1, 1, 0, 3, 0, 0)
    wg_id = T.warpgroup_id([2])
    warp_id = T.warp_id_in_wg([4])
    pool = T.SMEMPool()
    bars = pool.alloc([STAGES], "uint64", align=8)
    A_smem = pool.alloc_tcgen05_mma_AB((STAGES, 128, 64), "float16")
    B_smem = pool.alloc_tcgen05_mma_AB((STAGES, 128, 64), "float16")
    pool.commit()
    st = PipelineState(STAGES, 0)
    if wg_id == 1:
        if warp_id == 0:
            if T.cuda.elect_sync():
                for i in T.unroll(LOADS):
                    T.ptx[_TMA_2D](A_smem.ptr_to([st.stage, 0, 0]), T.address_of(A_map), 0, i * 128,
                                   bars.ptr_to([st.stage]))
                    st.advance()
            if READ_AFTER_ELECT:
                T.ptx[_TMA_2D](A_smem.ptr_to([st.stage, 0, 0]), T.address_of(A_map), 0, 0, bars.ptr_to([0]))
    else:
        if warp_id == 0:
            for i in T.unroll(STAGES):
                T.ptx[_TMA_2D](B_smem.ptr_to([st.stage, 0, 0]), T.address_of(A_map), 0, 256 + i * 128,
                               bars.ptr_to([st.stage]))
                st.advance()
