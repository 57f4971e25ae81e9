"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): forms of
flow_state.py / flow_pool.py / tvm_pipeline.py that are refused, each unresolved with its reason."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx
from tvm.tirx.lang.pipeline import MBarrier, Pipeline


def make_room(pool):
    return 0


@T.prim_func
def refused_kernel(A: T.Buffer((128, 128), "float16")):
    pool = T.SMEMPool()
    A_smem = pool.alloc_tcgen05_mma_AB((128, 64), "float16")
    bars = MBarrier(pool, 2)
    bogus = Pipeline(pool, 2, full="bogus", empty="mbar")
    # a non-barrier mbar=, a slot past the barrier's depth, a barrier of a refused Pipeline
    Tx.copy_async(A_smem[:, :], A[:, 0:64], dispatch="tma", mbar=A_smem.ptr_to([0, 0]))
    Tx.copy_async(A_smem[:, :], A[:, 0:64], dispatch="tma", mbar=bars.buf.ptr_to([2]))
    Tx.copy_async(A_smem[:, :], A[:, 0:64], dispatch="tma", mbar=bogus.full.buf.ptr_to([0]))
    # a function of the file that is not walked may allocate from the pool: later offsets unknown
    room = make_room(pool)
    B_smem = pool.alloc_tcgen05_mma_AB((128, 64), "float16")
    B_view = T.decl_buffer((64, 64), "float16", data=B_smem.data, elem_offset=B_smem.elem_offset + 2048,
                           scope="shared.dyn", layout=T.TileLayout(T.S[(64, 64):(64, 1)]))
    Tx.copy_async(B_view[:, :], A[0:64, 0:64], dispatch="tma")
