"""A decided break / continue ends the walked first iteration of a runtime loop (loop_jumps.py).

Written for the extract tests (no bundled kernel's code).  Every index past 1 is valid only in an
iteration that never runs: under the representative instance iteration 0 breaks / continues first.
"""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

BAD = 5


@T.prim_func
def lj(A: T.Buffer((128, 1024), "float16"), n: T.int32):
    pool = T.SMEMPool()
    A_smem = pool.alloc_tcgen05_mma_AB((2, 128, 64), "float16")
    pool.commit()
    s: T.int32 = 0
    for k in T.serial(n):
        s = 1
        if k == 0:
            break
        Tx.copy_async(A_smem[BAD, :, :], A[0:128, 0:64], dispatch="tma")
        s = 0
    Tx.copy_async(A_smem[s, :, :], A[0:128, 0:64], dispatch="tma")
    for j in T.serial(n):
        if j == 0:
            continue
        Tx.copy_async(A_smem[BAD + 1, :, :], A[0:128, 0:64], dispatch="tma")
    w: T.int32 = 0
    while w < n:
        w = w + 1
        if w == 1:
            continue
        Tx.copy_async(A_smem[BAD + 2, :, :], A[0:128, 0:64], dispatch="tma")
