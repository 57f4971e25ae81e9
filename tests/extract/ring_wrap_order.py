"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): warps 2
and 3 each advance their own copy of a 2-slot PipelineState three times in an unrolled Python loop,
so both copies wrap the ring within the walked pass, and then read its stage together.  The read is
unresolved; the reason names the lowest such warp (warp 2) whatever Python's string hashing
(the case runs under several PYTHONHASHSEED values: the reported warp once depended on it)."""
from tvm.script import tirx as T
from tvm.tirx.lang.pipeline import PipelineState

_TMA_2D = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"


def wrap(A: T.Buffer((512, 64), "float16")):
    A_map: T.let[T.handle("tensormap")] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 2, A.data, 64, 512, 128, 64, 128,
                  1, 1, 0, 3, 0, 0)
    warp_id = T.warp_id([4])
    pool = T.SMEMPool()
    bars = pool.alloc([2], "uint64", align=8)
    A_smem = pool.alloc_tcgen05_mma_AB((2, 128, 64), "float16")
    pool.commit()
    st = PipelineState(2, 0)
    if warp_id >= 2:
        for i in range(3):
            st.advance()
        if T.cuda.elect_sync():
            T.ptx[_TMA_2D](A_smem.ptr_to([st.stage, 0, 0]), T.address_of(A_map), 0, 0, bars.ptr_to([0]))
