# Written for tirx-verify's extraction tests: names the source does not determine.
from tvm.script import tirx as T
from tvm.script import tirx as Tx
from my_kernels.config import TILE_K


@T.prim_func
def kernel(A: T.Buffer((1024, 64), "float16"), M: T.int32):
    pool = T.SMEMPool()
    Asmem = pool.alloc_tcgen05_mma_AB((2, 128, 64), "float16")
    Bsmem = pool.alloc_tcgen05_mma_AB((2, 128, TILE_K), "float16")
    for stage in T.serial(M // 512):
        Tx.copy_async(Asmem[stage, :, :], A[0:128, :])
    row = T.meta_var(M // 2)
    Tx.copy_async(Asmem[0, :, :], A[row:row + 128, :])
