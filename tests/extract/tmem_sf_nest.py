"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
block-scaled 128 x 128 x 128 fp8 MMA tile that keeps its scale factors in the upper columns of a
whole-allocation accumulator buffer.  `acc` is (128, 512) float32 over all 512 columns; the pool's
move_base_to then places the SF buffers SFA (columns 256..259) and SFB (260..263) inside it, and
the copies and the MMA name them by raw column numbers only, so columns 256..259 lie in acc and
in SFA (tmem_nesting.py decides).  The shared SF tiles are uint32 words, four UE8M0 scale factors
each, which one `tcgen05.cp.cta_group::1.32x128b.warpx4` with SBO 128 bytes copies word 4 r + c
to lanes r + 32 j, column C0 + c (PTX ISA §9.7.16.9.2); the model names their bytes through a
float8_e8m0fnu view (cp_byte_view.py).

Variants (--param): WITH_MMA=False drops the MMA (nothing reads SFA / SFB as scale factors: the
copies stay unresolved); SF_LAYOUT=plain declares SFA / SFB with a plain layout (not scale-factor
buffers: the role does not decide); OVERLAP=True adds a plain buffer X at columns 252..259 and
gives SFA 8 columns (256..263): the first copy's columns lie in acc, X and SFA, and X and SFA
overlap without either lying inside the other (unresolved)."""
from tvm.script import tirx as Tx

BLK_M, BLK_N, BLK_K, MMA_K = 128, 128, 128, 32
SF_K = BLK_K // 32
WITH_MMA = True
SF_LAYOUT = "sf"
SF_COL = 256
OVERLAP = False
_MMA = "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X"
_CP = "tcgen05.cp.cta_group::1.32x128b.warpx4"
PLAIN = Tx.TileLayout(Tx.S[(128, 4):(1 @ Tx.TLane, 1 @ Tx.TCol)])
PLAIN8 = Tx.TileLayout(Tx.S[(128, 8):(1 @ Tx.TLane, 1 @ Tx.TCol)])


def sf_tile(A: Tx.Buffer((BLK_M, BLK_K), "float8_e4m3fn"), B: Tx.Buffer((BLK_N, BLK_K), "float8_e4m3fn")):
    from tvm.backend.cuda.tile_primitive.gemm_async.tcgen05 import sf_tmem_layout
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = Tx.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    A_smem = pool.alloc_tcgen05_mma_AB((BLK_M, BLK_K), "float8_e4m3fn")
    B_smem = pool.alloc_tcgen05_mma_AB((BLK_N, BLK_K), "float8_e4m3fn")
    SFA_words = pool.alloc((BLK_M,), "uint32", align=16)
    SFB_words = pool.alloc((BLK_N,), "uint32", align=16)
    pool.commit()
    sf_layout = PLAIN
    if SF_LAYOUT == "sf":
        sf_layout = sf_tmem_layout(128, SF_K, 1)
    sf_dtype = "float8_e8m0fnu" if SF_LAYOUT == "sf" else "float32"
    sf_shape = (BLK_M, SF_K) if SF_LAYOUT == "sf" else (128, 4)
    acc = tmem_pool.alloc((128, 512), "float32", cols=512)
    if OVERLAP:
        tmem_pool.move_base_to(SF_COL - 4)
        X = tmem_pool.alloc((128, 8), "float32", layout=PLAIN8, cols=8)
    tmem_pool.move_base_to(SF_COL)
    SFA = tmem_pool.alloc(sf_shape, sf_dtype, layout=sf_layout, cols=8 if OVERLAP else 4)
    tmem_pool.move_base_to(SF_COL + 4)
    SFB = tmem_pool.alloc(sf_shape, sf_dtype, layout=sf_layout, cols=4)
    tmem_pool.commit()
    desc_sf: Tx.uint64
    descA: Tx.uint64
    descB: Tx.uint64
    desc_i: Tx.uint32
    if warp_id == 1:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(desc_sf), SFA_words.ptr_to([0]),
                                                     ldo=0, sdo=8, swizzle=0)
            Tx.ptx[_CP](Tx.uint32(SF_COL), desc_sf)
            Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(desc_sf), SFB_words.ptr_to([0]),
                                                     ldo=0, sdo=8, swizzle=0)
            Tx.ptx[_CP](Tx.uint32(SF_COL + 4), desc_sf)
            if WITH_MMA:
                Tx.cuda.tcgen05.encode_instr_descriptor_block_scaled(
                    Tx.address_of(desc_i), d_dtype="float32", a_dtype="float8_e4m3fn", b_dtype="float8_e4m3fn",
                    sfa_dtype="float8_e8m0fnu", sfb_dtype="float8_e8m0fnu", sfa_tmem_addr=0, sfb_tmem_addr=0,
                    M=BLK_M, N=BLK_N, K=MMA_K, trans_a=False, trans_b=False, n_cta_groups=1)
                for ki in Tx.unroll(BLK_K // MMA_K):
                    Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descA), A_smem.ptr_to([0, ki * MMA_K]),
                                                             ldo=1, sdo=64, swizzle=3)
                    Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descB), B_smem.ptr_to([0, ki * MMA_K]),
                                                             ldo=1, sdo=64, swizzle=3)
                    Tx.cuda.runtime_instr_desc(Tx.address_of(desc_i), ki)
                    Tx.ptx[_MMA](Tx.uint32(0), descA, descB, desc_i, Tx.uint32(SF_COL), Tx.uint32(SF_COL + 4),
                                 ki != 0)
    if warp_id == 0:
        Tx.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], Tx.uint32(512))
