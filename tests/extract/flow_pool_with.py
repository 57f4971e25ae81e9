"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): an SMEMPool
made before a `with` block whose body allocates from it; the with statement itself does not count
its body's allocations (they are followed when walked), so B_smem starts at 16384 and the view
16 KiB + 4096 bytes in."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


@T.prim_func
def k(A: T.Buffer((128, 128), "float16")):
    pool = T.SMEMPool()
    with T.kernel():
        A_smem = pool.alloc_tcgen05_mma_AB((128, 64), "float16")
        B_smem = pool.alloc_tcgen05_mma_AB((128, 64), "float16")
        B_view = T.decl_buffer((64, 64), "float16", data=B_smem.data, elem_offset=B_smem.elem_offset + 2048,
                               scope="shared.dyn", layout=T.TileLayout(T.S[(64, 64):(64, 1)]))
        Tx.copy_async(B_view[:, :], A[0:64, 0:64], dispatch="tma")
