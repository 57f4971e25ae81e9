"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): state
across helper calls, loops and branches (tools/extract/flow_state.py, flow_pool.py, tvm_pipeline.py).

* `stage = T.local_scalar("int32")` without a value, stored by an @T.inline helper (`stage = ...`
  stores through), read by the helper it calls;
* a helper passed to another helper and called through its parameter (`body(ks)`): walked there,
  not a second time on its own with unresolved parameters;
* a helper called only under a branch this configuration does not take (`if MASKED:`): not walked;
* TVM's Pipeline: a TMA copy's `mbar=` is one of its barrier slots (noted on the op);
* a warpgroup copy indexed by the warpgroup index under a branch two warpgroups take: one op per
  warpgroup;
* a PipelineState advanced once per iteration of a sampled T.serial loop: its state after the loop
  (`--param N_ITER=3` makes the load after the loop refill a slot nobody read: kernel.coverage);
  `ADV_IN_BRANCH=True` advances it inside a branch of the loop body: not proven, stale;
* a declared scalar stored with a constant in the loop body keeps that value after the loop;
* SMEMPool offsets: `elem_offset` of a pool allocation, here the start of a declaration over the
  pool's storage;
* `gemm_async(..., transB=True)`: b_dims "KN"; `nvshmem.my_pe()` is PE 0.
"""
from tvm.script import tirx as T
from tvm.script import tirx as Tx
from tvm.tirx.lang.pipeline import Pipeline, PipelineState

STAGES = 2
N_ITER = 4
MASKED = False
ADV_IN_BRANCH = False


@T.prim_func
def flow_kernel(A: T.Buffer((256, 256), "float16"), O: T.Buffer((256, 64), "float16")):
    wg_id = T.warpgroup_id([3])
    warp_id = T.warp_id_in_wg([4])
    rank = T.nvshmem.my_pe()
    pool = T.SMEMPool()
    tmem_addr = pool.alloc((1,), "uint32")
    A_smem = pool.alloc_tcgen05_mma_AB((STAGES, 128, 64), "float16")
    B_smem = pool.alloc_tcgen05_mma_AB((64, 64), "float16")
    # the second half of B_smem, declared over the pool's storage from B_smem's elem_offset
    B_half = T.decl_buffer((32, 64), "float16", data=B_smem.data, elem_offset=B_smem.elem_offset + 2048,
                           scope="shared.dyn", layout=T.TileLayout(T.S[(32, 64):(64, 1)]))
    loads = Pipeline(pool, STAGES, full="tma", empty="tcgen05")
    tmem_pool = T.TMEMPool(pool, total_cols=256, cta_group=1, tmem_addr=tmem_addr)
    S_region = tmem_pool.alloc((2, 128, 64), "float32",
                               layout=T.TileLayout(T.S[(2, 128, 64):(64 @ T.TCol, 1 @ T.TLane, 1 @ T.TCol)]))
    acc = tmem_pool.alloc((128, 64), "float32")
    pool.commit()
    tmem_pool.commit()
    stage = T.local_scalar("int32")
    done: T.int32

    @T.inline
    def load(ks):
        Tx.copy_async(A_smem[stage, :, :], A[rank * 128:rank * 128 + 128, ks * 64:ks * 64 + 64], dispatch="tma",
                      mbar=loads.full.buf.ptr_to([stage]))

    @T.inline
    def over_ring(body):
        for ks in T.unroll(STAGES):
            stage = ks
            body(ks)

    @T.inline
    def masked(buf):
        Tx.copy_async(buf[0, :, :], A[0:128, 0:64], dispatch="tma")

    if wg_id == 2:
        if warp_id == 0:
            ring = PipelineState(STAGES, 0)
            over_ring(load)
            if MASKED:
                masked(A_smem)
            Tx.gemm_async(acc[:, :], A_smem[0, :, :], B_smem[:, :], transB=True, dispatch="tcgen05")
            for ks in T.unroll(STAGES):
                ring.advance()
            for it in T.serial(N_ITER):
                if ADV_IN_BRANCH:
                    if it % 2 == 0:
                        ring.advance()
                else:
                    ring.advance()
                done = 1
            Tx.copy_async(A_smem[ring.stage, :, :], A[128:256, 0:64], dispatch="tma")
            Tx.copy_async(O[0:32, :], B_half[:, :], dispatch="tma")
            if done == 1:
                Tx.copy_async(O[32:64, :], B_half[:, :], dispatch="tma")
    elif wg_id < 2:
        frag = T.alloc_tcgen05_ldst_frag("32x32b", (128, 64), "float32")
        Tx.wg.copy_async(frag[:, :], S_region[wg_id, :, :])
    tmem_pool.dealloc()
