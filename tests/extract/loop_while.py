"""A `while` whose test the source decides is iterated while it stays decided; a `while True`
without a break never ends, and the code after it is not walked (loop_jumps.py).

Written for the extract tests (no bundled kernel's code).
"""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

STEPS = 2
AFTER = 5


@T.prim_func
def wl(A: T.Buffer((128, 1024), "float16"), n: T.int32):
    pool = T.SMEMPool()
    A_smem = pool.alloc_tcgen05_mma_AB((2, 128, 64), "float16")
    pool.commit()
    u: T.int32 = 0
    while u < STEPS:
        Tx.copy_async(A_smem[u, :, :], A[0:128, 0:64], dispatch="tma")
        u = u + 1
    Tx.copy_async(A_smem[u - 1, :, :], A[0:128, 0:64], dispatch="tma")
    while True:
        Tx.copy_async(A_smem[0, :, :], A[0:128, 0:64], dispatch="tma")
    Tx.copy_async(A_smem[AFTER, :, :], A[0:128, 0:64], dispatch="tma")
