# Two @T.prim_func in one file are two kernels: one model each, chosen with --function.
from tvm.script import tirx as T
from tvm.script import tirx as Tx


@T.prim_func
def first(G: T.Buffer((64, 64), "float16")):
    pool = T.SMEMPool()
    S = pool.alloc((16, 64), "float16", layout=T.TileLayout(T.S[(16, 64):(64, 1)]))
    Tx.copy_async(S[:, :], G[0:16, :])


@T.prim_func
def second(G: T.Buffer((64, 32), "float32")):
    pool = T.SMEMPool()
    S = pool.alloc((8, 32), "float32", layout=T.TileLayout(T.S[(8, 32):(32, 1)]))
    Tx.copy_async(S[:, :], G[0:8, :])


@T.prim_func(private=True)
def device_helper(G: T.Buffer((64, 64), "float16")):  # a private device function: not a third kernel
    pool = T.SMEMPool()
    S = pool.alloc((4, 64), "float16", layout=T.TileLayout(T.S[(4, 64):(64, 1)]))
