"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): two
nested @T.inline helpers, one called, one that nothing names.  TVM expands an @T.inline (or
@T.macro) body only where it is called, so the uncalled helper's copy is no op of the kernel:
the model holds the called helper's copy alone.  With CALL_BOTH the second is called too and
its copy is an op; with PASS the second is handed to a helper that calls it, so its copy is an op.
A third helper names itself only in its own body, and a called helper's parameter of the same name
as the second (`twice(load_b)`) is not the second: neither makes an op of theirs."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

CALL_BOTH = False
PASS = False
NEVER = False


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
    def load_self():
        Tx.copy_async(B_smem[:, :], B[128:256, :], dispatch="tma")
        if NEVER:
            load_self()

    @T.inline
    def run(f):
        f()

    @T.inline
    def twice(load_b):
        load_b()

    load_a()
    twice(load_a)
    if CALL_BOTH:
        load_b()
    if PASS:
        run(load_b)
