"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
a file name with a space; a TMA copy into a column-major tile (kernel.tma-layout fails), whose
SARIF location must be this file's line 13, not the model file."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


@T.prim_func
def kernel(A: T.Buffer((128, 64), "float16")):
    pool = T.SMEMPool()
    As = pool.alloc((32, 64), "float16", layout=T.TileLayout(T.S[(32, 64):(1, 32)]))
    for i in range(1):
        Tx.copy_async(As[:, :], A[0:32, :])
