"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
a 128 x 128 fp16 GEMM tile whose K tiles of 128 are loaded through a rank-3 tensor map (K split
into 2 x 64 for the 128B swizzle), a two-stage ring tracked by TVM's PipelineState, tcgen05.mma
descriptors from TVM's SmemDescriptor (init + add_16B_offset), the instruction descriptor in a
one-register array, an accumulate flag kept in a declared scalar that an @T.inline body sets,
and a Cluster Launch Control worker for the tile coordinates."""
import tvm
from tvm.script import tirx as T
from tvm.tirx.lang.pipeline import PipelineState
from tvm.tirx.lang.smem_desc import SmemDescriptor
from tvm.tirx.lang.tile_scheduler import ClusterLaunchControlScheduler

M, N, K = 512, 256, 1024
BLK_M, BLK_N, BLK_K, MMA_K = 128, 128, 128, 16
STAGES = 2
LD_COLS = 32
READ_AFTER_LOOP = False  # --param READ_AFTER_LOOP=True: a load after the sampled loop reads the ring state

_TMA_3D = "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
_MMA = "tcgen05.mma.cta_group::1.kind::f16"
_LD = f"tcgen05.ld.sync.aligned.32x32b.x{LD_COLS}.b32"


def gemm(A: T.Buffer((M, K), "float16"), B: T.Buffer((N, K), "float16")):
    A_map: T.let[T.handle("tensormap")] = T.tvm_stack_alloca("tensormap", 1)
    B_map: T.let[T.handle("tensormap")] = T.tvm_stack_alloca("tensormap", 1)
    # dims (64, rows, K / 64) innermost first: byte strides K * 2 (a row) and 128 (64 elements)
    T.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 3, A.data, 64, M, K // 64, K * 2, 128,
                  64, BLK_M, BLK_K // 64, 1, 1, 1, 0, 3, 0, 0)
    T.call_packed("runtime.cuTensorMapEncodeTiled", B_map, "float16", 3, B.data, 64, N, K // 64, K * 2, 128,
                  64, BLK_N, BLK_K // 64, 1, 1, 1, 0, 3, 0, 0)
    wg_id = T.warpgroup_id([2])
    warp_id = T.warp_id_in_wg([4])
    lane_id = T.lane_id([32])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    bars = pool.alloc([STAGES], "uint64", align=8)
    tmem_pool = T.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    A_smem = pool.alloc_tcgen05_mma_AB((STAGES, BLK_M, BLK_K), "float16")
    B_smem = pool.alloc_tcgen05_mma_AB((STAGES, BLK_N, BLK_K), "float16")
    clc = ClusterLaunchControlScheduler(pool, M // BLK_M, N // BLK_N, 1, 1, 1)
    pool.commit()
    tmem = tmem_pool.alloc((128, 512), "float32")
    tmem_pool.commit()
    if wg_id == 1:
        if warp_id == 0:
            ld = clc.worker("ld")
            tma = PipelineState(STAGES, 1)
            if T.cuda.elect_sync():
                while ld.valid():
                    for kt in T.unroll(STAGES):  # the ring's first pass: one load per stage
                        T.ptx[_TMA_3D](A_smem.ptr_to([tma.stage, 0, 0]), T.address_of(A_map), 0,
                                       ld.m_idx * BLK_M, kt * (BLK_K // 64), bars.ptr_to([tma.stage]))
                        T.ptx[_TMA_3D](B_smem.ptr_to([tma.stage, 0, 0]), T.address_of(B_map), 0,
                                       ld.n_idx * BLK_N, kt * (BLK_K // 64), bars.ptr_to([tma.stage]))
                        tma.advance()
                    for kt in T.serial(K // BLK_K - STAGES):
                        tma.advance()
                    if READ_AFTER_LOOP:
                        T.ptx[_TMA_3D](A_smem.ptr_to([tma.stage, 0, 0]), T.address_of(A_map), 0, 0, 0,
                                       bars.ptr_to([0]))
                    ld.consume()
        elif warp_id == 1:
            mma = PipelineState(STAGES, 0)
            desc_a = T.meta_var(SmemDescriptor())
            desc_b = T.meta_var(SmemDescriptor())
            desc_i = T.alloc_local((1,), "uint32")
            accum: T.int32

            @T.inline
            def mma_stage():
                for ki in T.unroll(BLK_K // MMA_K):
                    da = T.meta_var(desc_a.add_16B_offset(
                        mma.stage * BLK_M * BLK_K // 8 + (ki // 4) * BLK_M * 8 + 2 * (ki % 4)))
                    db = T.meta_var(desc_b.add_16B_offset(
                        mma.stage * BLK_N * BLK_K // 8 + (ki // 4) * BLK_N * 8 + 2 * (ki % 4)))
                    T.ptx[_MMA](T.cast(0, "uint32"), da, db, desc_i[0], 0, 0, 0, 0,
                                T.ptx.pred(tvm.tirx.any(ki != 0, T.cast(accum, "bool"))))
                accum = 1

            if T.cuda.elect_sync():
                desc_a.init(A_smem.ptr_to([0, 0, 0]), ldo=BLK_M * 8, sdo=64, swizzle=3)
                desc_b.init(B_smem.ptr_to([0, 0, 0]), ldo=BLK_N * 8, sdo=64, swizzle=3)
                T.cuda.tcgen05.encode_instr_descriptor(T.address_of(desc_i[0]), d_dtype="float32",
                                                       a_dtype="float16", b_dtype="float16", M=BLK_M, N=BLK_N,
                                                       K=MMA_K, trans_a=False, trans_b=False, n_cta_groups=1)
                accum = 0
                for kt in T.unroll(STAGES):
                    mma_stage()
                    mma.advance()
    else:
        acc_regs = T.alloc_buffer((LD_COLS,), "float32", scope="local")
        for c in T.unroll(BLK_N // LD_COLS):
            T.ptx[_LD](*[acc_regs[j] for j in range(LD_COLS)], T.cast(c * LD_COLS, "uint32"))
    if wg_id == 0:
        if warp_id == 0:
            T.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], T.uint32(512))
