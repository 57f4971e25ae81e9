"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): two
nested @T.inline helpers, one called, one that nothing names.  TVM expands an @T.inline (or
@T.macro) body only where it is called, so the uncalled helper's copy is no op of the kernel:
the model holds the called helper's copy alone.  With CALL_BOTH the second is called too and
its copy is an op; with PASS the second is named (handed to another helper), which counts as a
use: it is walked."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

CALL_BOTH = False
PASS = False


@T.prim_func
def k(A: T.Buffer((256, 64), "float16"), B: T.Buffer((256, 64), "float16")):
    warp_id = T.warp_id([1])
    pool = T.SMEMPool()
    A_smem = pool.alloc_tcgen05_mma_AB((128, 64), "float16")
    B_smem = pool.alloc_tcgen05_mma_AB((128, 64), "float16")
    pool.commit()

    @T.inline
    def load_a():
        Tx.copy_async(A_smem[:, :], A[0:128, :], dispatch="tma")

    @T.inline
    def load_b():
        Tx.copy_async(B_smem[:, :], B[0:128, :], dispatch="tma")

    @T.inline
    def run(f):
        f()

    load_a()
    if CALL_BOTH:
        load_b()
    if PASS:
        run(load_b)
