"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
block-scaled 128 x 128 x 128 fp8 MMA tile whose scale factors are copied into TMEM by
`tcgen05.cp.cta_group::1.32x128b.warpx4` (PTX ISA §9.7.16.9.2: 32 rows of 16 bytes, each row to
lanes r, r + 32, r + 64, r + 96).  The SF buffers come from the TMEM pool's alloc_sf, so their
columns follow the accumulator's (TVM's TMEMPool: the TCol span of sf_tmem_layout x 8 bits / 32),
and the second one's column is derived from the first one's layout.  The shared SF tile of
(128 rows, 4 K blocks) is laid out so that one warpx4 copy with SBO 128 bytes puts element
(row, k) at lane row % 32 (all four quarters), byte (row // 32) 4 + k of the SF columns, where
sf_tmem_layout(128, 4, 1) expects it.  Under `--param CP_SHAPE=128x128b` the copies do not
replicate: the extraction writes what the source says and kernel.sf-layout fails (the upper
lane quarters do not get the scale factors)."""
from tvm.script import tirx as Tx

BLK_M, BLK_N, BLK_K, MMA_K = 128, 128, 128, 32
SF_K = BLK_K // 32
CP_SHAPE = "32x128b.warpx4"
_MMA = "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X"
_CP = "tcgen05.cp.cta_group::1." + CP_SHAPE
# (row // 32, row % 32 // 8, row % 8, k) -> byte: the warpx4 copy's K-major source order
SF_SMEM = Tx.TileLayout(Tx.S[(4, 4, 8, SF_K):(4, 128, 16, 1)])


def sf_tile(A: Tx.Buffer((BLK_M, BLK_K), "float8_e4m3fn"), B: Tx.Buffer((BLK_N, BLK_K), "float8_e4m3fn")):
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = Tx.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    A_smem = pool.alloc_tcgen05_mma_AB((BLK_M, BLK_K), "float8_e4m3fn")
    B_smem = pool.alloc_tcgen05_mma_AB((BLK_N, BLK_K), "float8_e4m3fn")
    SFA_smem = pool.alloc((BLK_M, SF_K), "float8_e8m0fnu", layout=SF_SMEM)
    SFB_smem = pool.alloc((BLK_N, SF_K), "float8_e8m0fnu", layout=SF_SMEM)
    pool.commit()
    acc = tmem_pool.alloc((128, BLK_N), "float32")
    SFA = tmem_pool.alloc_sf((BLK_M, SF_K), "float8_e8m0fnu", sf_per_mma=1)
    SFB = tmem_pool.alloc_sf((BLK_N, SF_K), "float8_e8m0fnu", sf_per_mma=1)
    tmem_pool.commit()
    descA: Tx.uint64
    descB: Tx.uint64
    desc_sf: Tx.uint64
    desc_i: Tx.uint32
    if warp_id == 1:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(desc_sf), SFA_smem.ptr_to([0, 0]),
                                                     ldo=0, sdo=8, swizzle=0)
            Tx.ptx[_CP](Tx.cast(SFA.allocated_addr[0], "uint32"), desc_sf)
            Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(desc_sf), SFB_smem.ptr_to([0, 0]),
                                                     ldo=0, sdo=8, swizzle=0)
            Tx.ptx[_CP](Tx.cast(SFB.allocated_addr[0], "uint32"), desc_sf)
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
                Tx.ptx[_MMA](Tx.cast(acc.allocated_addr[0], "uint32"), descA, descB, desc_i,
                             Tx.cast(SFA.allocated_addr[0], "uint32"), Tx.cast(SFB.allocated_addr[0], "uint32"),
                             ki != 0)
    if warp_id == 0:
        Tx.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], Tx.uint32(512))
