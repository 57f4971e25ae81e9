"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
values a static evaluator must refuse before computing them (a tower of powers, a string of
10**10 characters, a string doubled past 10**6 characters, nested comprehensions of 10**10
items), loops whose ranges are far too long to list (walked as a range, never materialised),
and a buffer of ordinary constants that is still extracted."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

TOWER = 2**2**2**2**2**2
LONG = len("a" * 10**10)
S0 = "ab"
S1 = S0 + S0
S2 = S1 * 300000
WORK = sum(sum(1 for i in range(100000)) for j in range(100000))
ROWS = 64


@T.prim_func
def kernel(A: T.Buffer((ROWS, 64), "float16"), B: T.Buffer((TOWER, 64), "float16")):
    pool = T.SMEMPool()
    As = pool.alloc((ROWS, 64), "float16", layout=T.TileLayout(T.S[(ROWS, 64):(64, 1)]))
    Xs = pool.alloc((LONG, 8), "float16", layout=T.TileLayout(T.S[(LONG, 8):(8, 1)]))
    Ys = pool.alloc((len(S2), 8), "float16", layout=T.TileLayout(T.S[(len(S2), 8):(8, 1)]))
    Zs = pool.alloc((WORK, 8), "float16", layout=T.TileLayout(T.S[(WORK, 8):(8, 1)]))
    for k in T.serial(10**15):
        Tx.copy_async(As[:, :], A[:, :])
    for i in range(0, 10**15, 10**6):
        Tx.copy_async(As[i, :], A[0, :])
