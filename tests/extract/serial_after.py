"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
names assigned in a sampled T.serial loop, read after it.  `col` changes every iteration, so after
the loop (of which the walk takes the first iteration) it is unresolved: the real value is the last
iteration's.  `width` is the same in every iteration (no call, no name the loop assigns), so it keeps
its value.  With --serial-iterations 0 every iteration is walked and `col` is the last one's."""
from tvm.script import tirx as Tx

K_TILES = 4


def tail(A: Tx.Buffer((128, 256), "float16")):
    pool = Tx.SMEMPool()
    A_smem = pool.alloc((K_TILES, 128, 64), "float16", swizzle=3)
    tail_smem = pool.alloc((128, 64), "float16", swizzle=3)
    pool.commit()
    col = 0
    width = 0
    for kt in Tx.serial(K_TILES):
        col = kt * 64
        width = 64
        Tx.copy_async(A_smem[kt, :, :], A[0:128, col:col + width])
    Tx.copy_async(tail_smem[:, 0:width], A[0:128, col:col + width])
