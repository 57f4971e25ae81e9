"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): loops
whose extent is a launch parameter (`n_k`), which the walk does not unroll.  Under the
representative instance (the default) the walked body is each loop's FIRST iteration
(tools/extract/loop_first.py), recorded in extraction.instance.bindings:

* warp 0 loads K tiles in `for k in T.serial(0, n_k)`: k is 0, the declared ring counter `s` holds
  its value on entry (0) at the loop head and `s = (s + 1) % STAGES` is followed, so the copy fills
  A_smem[0] with A's first K tile;
* a branch on `s` after the store (`if s == 0:`) is decided by the first iteration (not taken):
  a binding says so;
* warp 1 issues the MMAs in `while kt < n_k` with a PipelineState `ring` advanced once per
  iteration and its own counter `c`: the MMA reads A_smem[ring.stage] = A_smem[0] (the entry
  stage) and B_smem[c] = B_smem[0].  `--param WRONG_STAGE=True` reads A_smem[(ring.stage + 1) %
  STAGES], which no copy of the first iteration wrote: kernel.coverage;
* after the loops nothing of the first iteration is kept: `--param READ_AFTER=True` copies from
  A_smem[s] after warp 0's loop and reads A_smem[ring.stage] after warp 1's, both unresolved (no
  iteration leaves the entry value, else the last iteration's);
* `--param KREG=True`: the MMA reads A_smem[kb], `kb` a kern register the loop sets with
  `K.assign(kb, (kb + 1) % STAGES)`: 0 in the first iteration;
* `--param RUNTIME_START=True`: the range starts at a launch parameter, so the first iteration's
  `k` is not fixed: the copy indexed by it stays unresolved (the binding says so);
* `--instance none`: at a loop head `s`, `ring` (and `kb`) hold their entry value or what an
  earlier iteration left, so the copy and the MMA are unresolved naming the loops (flow_state.py's
  rule).
"""
from tvm.script import tirx as T
from tvm.script import tirx as Tx
from tvm.tirx.lang.pipeline import PipelineState

import tirx_kernels.kern as K

STAGES = 2
WRONG_STAGE = False
READ_AFTER = False
KREG = False
RUNTIME_START = False


@T.prim_func
def loop_kernel(A: T.Buffer((128, 1024), "float16"), B: T.Buffer((128, 1024), "float16"), n_k: T.int32,
                k_start: T.int32):
    warp_id = T.warp_id([4])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc((1,), "uint32")
    A_smem = pool.alloc_tcgen05_mma_AB((STAGES, 128, 64), "float16")
    B_smem = pool.alloc_tcgen05_mma_AB((STAGES, 128, 64), "float16")
    tmem_pool = T.TMEMPool(pool, total_cols=128, cta_group=1, tmem_addr=tmem_addr)
    acc = tmem_pool.alloc((128, 128), "float32")
    pool.commit()
    tmem_pool.commit()
    if warp_id == 0:
        s: T.int32 = 0
        Tx.copy_async(B_smem[0, :, :], B[0:128, 0:64], dispatch="tma")
        for k in T.serial(k_start if RUNTIME_START else 0, n_k):
            Tx.copy_async(A_smem[s, :, :], A[0:128, k * 64:k * 64 + 64], dispatch="tma")
            s = (s + 1) % STAGES
            if s == 0:  # s is 1 in the first iteration: not taken (a binding)
                Tx.copy_async(B_smem[1, :, :], B[0:128, 64:128], dispatch="tma")
        if READ_AFTER:
            Tx.copy_async(B_smem[1, :, :], A_smem[s, :, :], dispatch="tma")
    elif warp_id == 1:
        c: T.int32 = 0
        kt: T.int32 = 0
        ring = PipelineState(STAGES, 0)
        kb = K.local_scalar("int32", init=0)
        while kt < n_k:
            if KREG:
                Tx.gemm_async(acc[:, :], A_smem[kb, :, :], B_smem[0, :, :], dispatch="tcgen05")
                K.assign(kb, (kb + 1) % STAGES)
            elif WRONG_STAGE:
                Tx.gemm_async(acc[:, :], A_smem[(ring.stage + 1) % STAGES, :, :], B_smem[c, :, :],
                              dispatch="tcgen05")
            else:
                Tx.gemm_async(acc[:, :], A_smem[ring.stage, :, :], B_smem[c, :, :], dispatch="tcgen05")
            ring.advance()
            c = (c + 1) % STAGES
            kt = kt + 1
        if READ_AFTER:
            Tx.gemm_async(acc[:, :], A_smem[ring.stage, :, :], B_smem[0, :, :], dispatch="tcgen05")
    tmem_pool.dealloc()
    done: T.int32 = 1
    while done == 0:  # false on entry: no iteration, its copy is not in the model
        Tx.copy_async(A_smem[1, :, :], A[0:128, 0:64], dispatch="tma")
