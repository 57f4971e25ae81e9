"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
declared scalar in a loop the walk does not unroll (its range is a launch parameter).  At the loop
head it holds its value on entry or what an earlier iteration stored: unresolved; after the
straight-line store `col = 64` it is 64 for the rest of the body; after the loop it is 0 or 64:
unresolved.  The branch on the warp index compares with an IntEnum member (an int)."""
from enum import IntEnum

from tvm.script import tirx as T
from tvm.script import tirx as Tx


class Role(IntEnum):
    LOAD = 1


@T.prim_func
def runtime_kernel(A: T.Buffer((128, 256), "float16"), n: T.int32):
    warp_id = T.warp_id([4])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc((1,), "uint32")
    A_smem = pool.alloc_tcgen05_mma_AB((2, 128, 64), "float16")
    pool.commit()
    col: T.int32
    col = 0
    if warp_id == int(Role.LOAD):
        T.ptx["tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32"](tmem_addr.ptr_to([0]), T.uint32(32))
        for i in T.serial(n):
            Tx.copy_async(A_smem[0, :, :], A[0:128, col:col + 64], dispatch="tma")
            col = 64
            Tx.copy_async(A_smem[1, :, :], A[0:128, col:col + 64], dispatch="tma")
        Tx.copy_async(A_smem[0, :, :], A[0:128, col:col + 64], dispatch="tma")
