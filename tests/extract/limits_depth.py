"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
a helper that calls itself without end, and a chain of nine helpers each issuing a copy; the
walk stops at its depth limit (8) and lists what it did not walk, never dropping it."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


def forever(As, A, n):
    Tx.copy_async(As[0, :], A[0, :])
    forever(As, A, n + 1)


def c9(As, A):
    Tx.copy_async(As[9, :], A[9, :])


def c8(As, A):
    Tx.copy_async(As[8, :], A[8, :])
    c9(As, A)


def c7(As, A):
    c8(As, A)


def c6(As, A):
    c7(As, A)


def c5(As, A):
    c6(As, A)


def c4(As, A):
    c5(As, A)


def c3(As, A):
    c4(As, A)


def c2(As, A):
    c3(As, A)


def c1(As, A):
    c2(As, A)


@T.prim_func
def kernel(A: T.Buffer((16, 64), "float16")):
    pool = T.SMEMPool()
    As = pool.alloc((16, 64), "float16", layout=T.TileLayout(T.S[(16, 64):(64, 1)]))
    c1(As, A)
    forever(As, A, 0)
