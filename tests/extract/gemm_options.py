# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any
# kernel repository): gemm_async with smem_desc= descriptor-production modes (tools/extract/
# copy_options.py), which do not change the operands, and one mode TVM does not know.
from tvm.script import tirx as T
from tvm.script import tirx as Tx

MODE = "local_hoist"  # --param MODE=fancy: not a tcgen05 smem_desc mode (unresolved)
D_COLS = 64           # --param D_COLS=32: the last MMA's D has fewer columns than its B has rows


def mma_cfg(accum, smem_desc=None):
    cfg = {"dispatch": "tcgen05", "accum": accum}
    if smem_desc is not None:
        cfg["smem_desc"] = smem_desc
    return cfg


@T.prim_func
def gemm_options_kernel(A: T.Buffer((128, 64), "float16")):
    pool = T.SMEMPool()
    tmem_addr = pool.alloc((1,), "uint32")
    Asmem = pool.alloc_tcgen05_mma_AB((2, 128, 64), "float16")
    Bsmem = pool.alloc_tcgen05_mma_AB((2, 64, 64), "float16")
    tmem_pool = T.TMEMPool(pool, total_cols=64, cta_group=1, tmem_addr=tmem_addr, alloc_warp=0)
    acc = tmem_pool.alloc((128, 64), "float32")
    tmem_pool.commit()
    Tx.gemm_async(acc[:, :], Asmem[0, :, :], Bsmem[0, :, :], **mma_cfg(False, "recompute"))
    Tx.gemm_async(acc[:, :], Asmem[1, :, :], Bsmem[1, :, :], **mma_cfg(True, MODE))
    Tx.gemm_async(acc[:, 0:D_COLS], Asmem[0, :, :], Bsmem[1, :, :], accum=True, smem_desc="hoist")
    tmem_pool.dealloc()
