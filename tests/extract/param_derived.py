"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
module constants derived from one another; --param on the first must reach the others."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

TILE = 64
ROWS = TILE * 2
HALF = ROWS // 2


@T.prim_func
def kernel(A: T.Buffer((256, 256), "float16")):
    pool = T.SMEMPool()
    As = pool.alloc((ROWS, TILE), "float16", layout=T.TileLayout(T.S[(ROWS, TILE):(TILE, 1)]))
    Tx.copy_async(As[0:HALF, :], A[0:HALF, 0:TILE])
