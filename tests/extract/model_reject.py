"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
a copy whose source region runs past its buffer (rows 120..152 of 128), which the model
reader rejects; extract must say so at this file's line, not write the model."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

ROWS = 32


@T.prim_func
def kernel(A: T.Buffer((128, 64), "float16")):
    pool = T.SMEMPool()
    As = pool.alloc((ROWS, 64), "float16", layout=T.TileLayout(T.S[(ROWS, 64):(64, 1)]))
    Tx.copy_async(As[:, :], A[120:120 + ROWS, :])
