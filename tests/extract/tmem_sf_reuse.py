"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
block-scaled fp8 tile with 128-element quantisation blocks, the DeepGEMM-style scale-factor
pipeline.  One scale factor per row covers a whole 128-wide k-tile (4 MMAs of K 32), so the SF
buffers are `alloc_sf((STAGES, 128, 4 * K_ITERS), sf_per_mma=1, sf_reuse=K_ITERS)`: 4 k-tiles of
scale factors per copy (SF id = k-tile % 4 picks the byte), two TMEM stages.  One
`.32x128b.warpx4` copy per SF buffer fills stage 0 from a shared tile whose layout broadcasts each
scale factor over the 4 reuse slots; the SF addresses are `BASE + stage * STAGE_COLS` with BASE a
name bound to `allocated_addr[0]` (address arithmetic).  Four k-tiles of 4 MMAs each read them.
Under `--param BAD_STAGE=True` the copies fill stage 1 while the MMAs read stage 0:
kernel.coverage fails (the scale factors the MMAs read were never written)."""
from tvm.script import tirx as Tx

BLK_M, BLK_N, BLK_K, MMA_K = 128, 128, 128, 32
K_ITERS = BLK_K // MMA_K
STAGES = 2
STAGE_COLS = BLK_M // 32
BAD_STAGE = False
_MMA = "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X"
_CP = "tcgen05.cp.cta_group::1.32x128b.warpx4"
# shared SF tile (row, unique k-tile u): byte (row // 32) 4 + u of the warpx4 row order, each scale
# factor broadcast over the K_ITERS reuse slots
SF_SMEM = Tx.TileLayout(Tx.S[(4, 4, 8, 4):(4, 128, 16, 1)]).broadcast(K_ITERS)


def sf_reuse_tile(A: Tx.Buffer((4 * BLK_M, BLK_K), "float8_e4m3fn"),
                  B: Tx.Buffer((4 * BLK_N, BLK_K), "float8_e4m3fn")):
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = Tx.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    A_smem = pool.alloc_tcgen05_mma_AB((4, BLK_M, BLK_K), "float8_e4m3fn")
    B_smem = pool.alloc_tcgen05_mma_AB((4, BLK_N, BLK_K), "float8_e4m3fn")
    SFA_smem = pool.alloc((BLK_M, 4 * K_ITERS), "float8_e8m0fnu", layout=SF_SMEM)
    SFB_smem = pool.alloc((BLK_N, 4 * K_ITERS), "float8_e8m0fnu", layout=SF_SMEM)
    pool.commit()
    acc = tmem_pool.alloc((128, BLK_N), "float32")
    SFA = tmem_pool.alloc_sf((STAGES, BLK_M, 4 * K_ITERS), "float8_e8m0fnu", sf_per_mma=1, sf_reuse=K_ITERS)
    SFB = tmem_pool.alloc_sf((STAGES, BLK_N, 4 * K_ITERS), "float8_e8m0fnu", sf_per_mma=1, sf_reuse=K_ITERS)
    tmem_pool.commit()
    SFA_BASE = Tx.meta_var(SFA.allocated_addr[0])
    SFB_BASE = Tx.meta_var(SFB.allocated_addr[0])
    stage = 0
    cp_stage = 1 if BAD_STAGE else stage
    descA: Tx.uint64
    descB: Tx.uint64
    desc_sf: Tx.uint64
    desc_i: Tx.uint32
    if warp_id == 1:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(desc_sf), SFA_smem.ptr_to([0, 0]),
                                                     ldo=0, sdo=8, swizzle=0)
            Tx.ptx[_CP](Tx.cast(SFA_BASE + cp_stage * STAGE_COLS, "uint32"), desc_sf)
            Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(desc_sf), SFB_smem.ptr_to([0, 0]),
                                                     ldo=0, sdo=8, swizzle=0)
            Tx.ptx[_CP](Tx.cast(SFB_BASE + cp_stage * STAGE_COLS, "uint32"), desc_sf)
            Tx.cuda.tcgen05.encode_instr_descriptor_block_scaled(
                Tx.address_of(desc_i), d_dtype="float32", a_dtype="float8_e4m3fn", b_dtype="float8_e4m3fn",
                sfa_dtype="float8_e8m0fnu", sfb_dtype="float8_e8m0fnu", sfa_tmem_addr=0, sfb_tmem_addr=0,
                M=BLK_M, N=BLK_N, K=MMA_K, trans_a=False, trans_b=False, n_cta_groups=1)
            for kt in Tx.unroll(4):
                Tx.cuda.runtime_instr_desc(Tx.address_of(desc_i), kt % 4)
                for ki in Tx.unroll(K_ITERS):
                    Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descA),
                                                             A_smem.ptr_to([kt, 0, ki * MMA_K]),
                                                             ldo=1, sdo=64, swizzle=3)
                    Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descB),
                                                             B_smem.ptr_to([kt, 0, ki * MMA_K]),
                                                             ldo=1, sdo=64, swizzle=3)
                    Tx.ptx[_MMA](Tx.cast(acc.allocated_addr[0], "uint32"), descA, descB, desc_i,
                                 Tx.cast(SFA_BASE + stage * STAGE_COLS, "uint32"),
                                 Tx.cast(SFB_BASE + stage * STAGE_COLS, "uint32"), kt + ki != 0)
    if warp_id == 0:
        Tx.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], Tx.uint32(512))
