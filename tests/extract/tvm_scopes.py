# TVMScript scoping: bindings made in for / with / runtime-if bodies end with the statement.
from tvm.script import tirx as T
from tvm.script import tirx as Tx


@T.prim_func
def scopes(G: T.Buffer((256, 64), "float16"), flag: T.int32):
    pool = T.SMEMPool()
    rows = 16
    if flag > 0:  # a runtime test: its branch is a frame
        rows = 64
    R = pool.alloc((rows, 64), "float16", layout=T.TileLayout(T.S[(rows, 64):(64, 1)]))
    cols = 64
    for i in range(2):  # range is T.serial: a frame per iteration
        cols = 32
        Tx.copy_async(R[i * 8:i * 8 + 8, :], G[i * 8:i * 8 + 8, :])
    C = pool.alloc((8, cols), "float16", layout=T.TileLayout(T.S[(8, cols):(cols, 1)]))
    depth = 4
    with T.attr(0, "pragma", 0):
        depth = 2
    D = pool.alloc((depth, 8, 64), "float16", layout=T.TileLayout(T.S[(depth, 8, 64):(512, 64, 1)]))
    stage: T.int32 = 0  # a mutable scalar: the store in the loop is no binding
    for j in range(1):
        stage = 1
    Tx.copy_async(D[stage, :, :], G[0:8, :])
    Tx.copy_async(C[:, :], G[8:16, 0:64])
