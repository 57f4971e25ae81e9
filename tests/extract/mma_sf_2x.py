"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): an
mxf4 block-scaled MMA (`kind::mxf4.block_scale.scale_vec::2X`, e8m0 scale factors) on fp4 views of
packed uint8 tiles, four K steps of 64.  scale_vec::2X reads two scale factors per row per K step:
bytes SF_ID and SF_ID + 1 of the addressed 32-bit column, SF_ID 0 or 2 (PTX ISA §9.7.16.10.7).
The SF buffers group four per column (`sf_tmem_layout(R, SF_K, 4)`), so one column serves two K
steps told apart by the SF id: step ki reads scale factors 2 ki, 2 ki + 1 at column 4 (ki // 2),
SF id 2 ki % 4 (mqa_logits_fp4's form).  --param FOLD=True declares SFA with twice the scale
factors (a second group of columns, as mqa's sfkv_tmem folds two row halves into SF_K) and points
the MMAs at the second group: the group is matched from the address.  --param BAD_SF_ID=True
keeps SF id 0 on every step: the extraction writes what the source says, and kernel.sf-layout
fails (the odd steps read the even steps' scale factors)."""
from tvm.script import tirx as T
from tvm.tirx.lang.smem_desc import SmemDescriptor

BLK_M, BLK_N, BLK_K, MMA_K = 128, 128, 256, 64
SF_K = BLK_K // 32
FOLD = False
BAD_SF_ID = False
SFA_K = 2 * SF_K if FOLD else SF_K
SFA_COL = 256
SFB_COL = SFA_COL + SFA_K
SFA_GROUP = SF_K if FOLD else 0  # column of the group the MMAs read (4 scale factors per column)
_MMA = "tcgen05.mma.cta_group::1.kind::mxf4.block_scale.scale_vec::2X"


def mma_tile():
    warp_id = T.warp_id([4])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = T.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    A_packed = pool.alloc_tcgen05_mma_AB((BLK_M, BLK_K // 2), "uint8")
    B_packed = pool.alloc_tcgen05_mma_AB((BLK_N, BLK_K // 2), "uint8")
    pool.commit()
    acc = T.decl_buffer((128, BLK_N), "float32", scope="tmem", allocated_addr=0,
                        layout=T.TileLayout(T.S[(128, BLK_N):(1 @ T.TLane, 1 @ T.TCol)]))
    SFA = T.decl_buffer((BLK_M, SFA_K), "float8_e8m0fnu", scope="tmem", allocated_addr=SFA_COL,
                        layout=sf_tmem_layout(BLK_M, SFA_K, 4))
    SFB = T.decl_buffer((BLK_N, SF_K), "float8_e8m0fnu", scope="tmem", allocated_addr=SFB_COL,
                        layout=sf_tmem_layout(BLK_N, SF_K, 4))
    tmem_pool.commit()
    A_smem = A_packed.view("float4_e2m1fn")
    B_smem = B_packed.view("float4_e2m1fn")
    desc_a = T.meta_var(SmemDescriptor())
    desc_b = T.meta_var(SmemDescriptor())
    desc_i: T.uint32
    if warp_id == 1:
        if T.cuda.elect_sync():
            desc_a.init(A_smem.ptr_to([0, 0]), ldo=0, sdo=64, swizzle=3)
            desc_b.init(B_smem.ptr_to([0, 0]), ldo=0, sdo=64, swizzle=3)
            T.cuda.tcgen05.encode_instr_descriptor_block_scaled(
                T.address_of(desc_i), d_dtype="float32", a_dtype="float4_e2m1fn", b_dtype="float4_e2m1fn",
                sfa_dtype="float8_e8m0fnu", sfb_dtype="float8_e8m0fnu", sfa_tmem_addr=SFA_COL,
                sfb_tmem_addr=SFB_COL, M=BLK_M, N=BLK_N, K=MMA_K, trans_a=False, trans_b=False, n_cta_groups=1)
            for ki in T.unroll(BLK_K // MMA_K):
                T.cuda.runtime_instr_desc(T.address_of(desc_i), 0 if BAD_SF_ID else 2 * ki % 4)
                T.ptx[_MMA](T.cast(acc.allocated_addr[0], "uint32"), desc_a.add_16B_offset(ki * MMA_K // 32),
                            desc_b.add_16B_offset(ki * MMA_K // 32), desc_i,
                            T.cuda.get_tmem_addr(SFA.allocated_addr[0], 0, SFA_GROUP + 4 * (ki // 2)),
                            T.cuda.get_tmem_addr(SFB.allocated_addr[0], 0, 4 * (ki // 2)), ki != 0)
    if warp_id == 0:
        T.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], T.uint32(512))
