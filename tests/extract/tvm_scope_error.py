# A buffer bound in both branches of a runtime if and used after it: TVM rejects the kernel.
from tvm.script import tirx as T
from tvm.script import tirx as Tx


@T.prim_func
def branchy(G: T.Buffer((64, 64), "float16"), flag: T.int32):
    pool = T.SMEMPool()
    if flag == 0:
        S = pool.alloc((32, 64), "float16", layout=T.TileLayout(T.S[(32, 64):(64, 1)]))
    else:
        S = pool.alloc((16, 64), "float16", layout=T.TileLayout(T.S[(16, 64):(64, 1)]))
    Tx.copy_async(S[0:16, :], G[0:16, :])
