"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
a 128 x 128 x (K_TILES x 64) fp16 GEMM tile in the pre-kern-DSL style: host-encoded tensor maps,
raw cp.async.bulk.tensor loads and store, tcgen05.mma with descriptors from
encode_matrix_descriptor / encode_instr_descriptor, tcgen05.ld .32x32b of the accumulator, a
tile scheduler class of the file, and a T.serial K loop."""
from tvm.script import tirx as Tx

M, N, K = 1024, 512, 256
BLK_M, BLK_N, BLK_K, MMA_K = 128, 128, 64, 16
K_TILES = K // BLK_K
STAGES = 4
SWIZZLE = 3
LD_COLS = 32
BAD_SBO = False  # --param BAD_SBO=True: an A descriptor whose 8-row stride (SBO) is not the layout's
IDESC_WORD = False  # --param IDESC_WORD=True: the descriptor through the upper half of a 64-bit word and back

_TMA_LOAD = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
_TMA_STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"
_MMA = "tcgen05.mma.cta_group::1.kind::f16"
_LD = f"tcgen05.ld.sync.aligned.32x32b.x{LD_COLS}.b32"


class TileScheduler:
    def __init__(self, n_tiles):
        self.m_idx = Tx.local_scalar("int32")
        self.n_idx = Tx.local_scalar("int32")


def gemm(A: Tx.Buffer((M, K), "float16"), B: Tx.Buffer((N, K), "float16"), D: Tx.Buffer((M, N), "float32")):
    A_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    B_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    D_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 2, A.data, K, M, K * 2, BLK_K, BLK_M,
                   1, 1, 0, SWIZZLE, 0, 0)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", B_map, "float16", 2, B.data, K, N, K * 2, BLK_K, BLK_N,
                   1, 1, 0, SWIZZLE, 0, 0)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", D_map, "float32", 2, D.data, N, M, N * 4, LD_COLS, BLK_M,
                   1, 1, 0, SWIZZLE, 0, 0)
    bx = Tx.cta_id([8])
    wg_id = Tx.warpgroup_id([2])
    warp_id = Tx.warp_id_in_wg([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = Tx.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    A_smem = pool.alloc_tcgen05_mma_AB((STAGES, BLK_M, BLK_K), "float16")
    B_smem = pool.alloc_tcgen05_mma_AB((STAGES, BLK_N, BLK_K), "float16")
    D_smem = pool.alloc_tcgen05_mma_AB((BLK_M, LD_COLS), "float32")
    pool.commit()
    acc_regs = Tx.alloc_buffer((LD_COLS,), "float32", scope="local")
    descA: Tx.uint64
    descB: Tx.uint64
    descI: Tx.uint32
    Tx.cuda.tcgen05.encode_instr_descriptor(Tx.address_of(descI), d_dtype="float32", a_dtype="float16",
                                            b_dtype="float16", M=BLK_M, N=BLK_N, K=MMA_K, trans_a=False,
                                            trans_b=False, n_cta_groups=1)
    descW: Tx.uint64 = Tx.shift_left(Tx.cast(descI, "uint64"), Tx.uint64(32))
    descI_hi: Tx.uint32 = Tx.cast(Tx.shift_right(descW, Tx.uint64(32)), "uint32")
    tmem = tmem_pool.alloc((128, 512), "float32")
    tmem_pool.commit()
    sched = TileScheduler(M // BLK_M * (N // BLK_N))
    while sched.valid():
        if wg_id == 1:
            if warp_id == 0:
                if Tx.filter(lane_id, Tx.cuda.elect_sync()):
                    for kt in Tx.serial(K_TILES):
                        Tx.ptx[_TMA_LOAD](A_smem.ptr_to([kt, 0, 0]), Tx.address_of(A_map), kt * BLK_K,
                                          sched.m_idx * BLK_M + bx * 0, tmem_addr.ptr_to([0]))
                        Tx.ptx[_TMA_LOAD](B_smem.ptr_to([kt, 0, 0]), Tx.address_of(B_map), kt * BLK_K,
                                          sched.n_idx * BLK_N, tmem_addr.ptr_to([0]))
            elif warp_id == 1:
                if Tx.filter(lane_id, Tx.cuda.elect_sync()):
                    for kt in Tx.serial(K_TILES):
                        for ki in Tx.unroll(BLK_K // MMA_K):
                            Tx.cuda.tcgen05.encode_matrix_descriptor(
                                Tx.address_of(descA), A_smem.ptr_to([kt, 0, ki * MMA_K]),
                                ldo=1, sdo=32 if BAD_SBO else 64, swizzle=SWIZZLE)
                            Tx.cuda.tcgen05.encode_matrix_descriptor(
                                Tx.address_of(descB), B_smem.ptr_to([kt, 0, ki * MMA_K]), ldo=1, sdo=64,
                                swizzle=SWIZZLE)
                            if kt == 0 and ki == 0:
                                Tx.ptx[_MMA](Tx.cast(0, "uint32"), descA, descB, descI_hi if IDESC_WORD else descI, 0, 0, 0,
                                             0, False)
                            else:
                                Tx.ptx[_MMA](Tx.cast(0, "uint32"), descA, descB, descI_hi if IDESC_WORD else descI, 0, 0, 0,
                                             0, True)
        else:
            for c in Tx.unroll(BLK_N // LD_COLS):
                Tx.ptx[_LD](*[acc_regs[j] for j in range(LD_COLS)], Tx.cast(c * LD_COLS, "uint32"))
                if (warp_id == 0) & (lane_id == 0):
                    Tx.ptx[_TMA_STORE](Tx.address_of(D_map), sched.n_idx * BLK_N + c * LD_COLS,
                                       sched.m_idx * BLK_M, D_smem.ptr_to([0, 0]))
        sched.next_tile()
    if wg_id == 0:
        if warp_id == 0:
            Tx.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], Tx.uint32(512))
