# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any
# kernel repository): helpers nested inside the kernel builder call each other 5 levels deep
# (walked, each with its call's arguments), and a chain deeper than the walk follows, which is
# listed as unresolved instead of being dropped.
from tvm.script import tirx as T
from tvm.script import tirx as Tx

DEEP = False  # --param DEEP=True: a call chain 9 helpers deep


def build():
    def level5(dst, src, row):
        Tx.copy_async(dst[row, :], src[row, :])

    def level4(dst, src, row):
        level5(dst, src, row + 1)

    def level3(dst, src, row):
        level4(dst, src, row + 1)

    def level2(dst, src, row):
        level3(dst, src, row + 1)

    def chain(n, dst, src):
        if n == 0:
            level2(dst, src, 0)
        else:
            chain(n - 1, dst, src)

    @T.prim_func
    def kernel(A: T.Buffer((8, 64), "float16")):
        pool = T.SMEMPool()
        As = pool.alloc((8, 64), "float16", layout=T.TileLayout(T.S[(8, 64):(64, 1)]))
        level2(As, A, 0)
        chain(5 if DEEP else 0, As, A)

    return kernel
