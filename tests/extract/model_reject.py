"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
a copy whose shared destination runs past its buffer (rows 0..40 of 32; a global one past its
tensor is a TMA box: unresolved), which the reader rejects; extract says so at this line."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

ROWS = 32


@T.prim_func
def kernel(A: T.Buffer((128, 64), "float16")):
    pool = T.SMEMPool()
    As = pool.alloc((ROWS, 64), "float16", layout=T.TileLayout(T.S[(ROWS, 64):(64, 1)]))
    Tx.copy_async(As[0:ROWS + 8, :], A[0:ROWS + 8, :])
