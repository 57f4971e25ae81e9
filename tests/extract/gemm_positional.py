# Tx.gemm_async's positional arguments bind as its signature does: C, A, B, SFA, SFB, transA,
# transB, accum (apache/tvm 5d4dc87 python/tvm/tirx/script/builder/tirx.py:640-653).
from tvm.script import tirx as T
from tvm.script import tirx as Tx


@T.prim_func
def positional(G: T.Buffer((128, 64), "float16")):
    pool = T.SMEMPool()
    tmem_addr = pool.alloc((1,), "uint32")
    A = pool.alloc_tcgen05_mma_AB((128, 64), "float16")
    B = pool.alloc_tcgen05_mma_AB((128, 64), "float16")
    tp = T.TMEMPool(pool, total_cols=128, cta_group=1, tmem_addr=tmem_addr)
    D = tp.alloc((128, 128), "float32")
    tp.commit()
    Tx.gemm_async(C=D[:, :], A=A[:, :], B=B[:, :])                          # operands by keyword
    Tx.gemm_async(D[:, :], A[:, :], B[:, :], None, None, False, False, True)  # accum=True, positional 8
    Tx.gemm_async(D[:, :], A[:, :], B[:, :], None, None, False, True)        # transB=True: not modelled
    Tx.gemm_async(D[:, :], A[:, :], B[:, :], D[:, 0:4], D[:, 4:8])          # SFA/SFB: block-scaled
    tp.dealloc()
