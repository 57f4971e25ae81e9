"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): the
block-scaled MMA tile of mma_block_scaled.py, with each K step's instruction descriptor a declared
scalar copied from the encoded one (`desc_l: Tx.uint32 = desc_i`, as a kernel keeps a per-phase
local) and `runtime_instr_desc` rewriting the copy: a store into the declared scalar, followed
exactly in straight-line code (mma_forms.bind_encoder).  `--param BAD_SF_ID=True`: the copies get
SF id (ki + 1) % 4 and kernel.sf-layout fails; `--param UNDECIDED=True` rewrites the copy under a
test on the warp's runtime data (a register), so the MMA's descriptor is unresolved."""
from tvm.script import tirx as Tx

BLK_M, BLK_N, BLK_K, MMA_K = 128, 128, 128, 32
SF_K = BLK_K // 32
SFA_COL, SFB_COL = 128, 132
BAD_SF_ID = False
UNDECIDED = False
_MMA = "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X"


@Tx.prim_func
def mma_tile(A: Tx.Buffer((BLK_M, BLK_K), "float8_e4m3fn"), B: Tx.Buffer((BLK_N, BLK_K), "float8_e4m3fn")):
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = Tx.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    A_smem = pool.alloc_tcgen05_mma_AB((BLK_M, BLK_K), "float8_e4m3fn")
    B_smem = pool.alloc_tcgen05_mma_AB((BLK_N, BLK_K), "float8_e4m3fn")
    pool.commit()
    acc = Tx.decl_buffer((128, BLK_N), "float32", scope="tmem", allocated_addr=0,
                         layout=Tx.TileLayout(Tx.S[(128, BLK_N):(1 @ Tx.TLane, 1 @ Tx.TCol)]))
    SFA = Tx.decl_buffer((BLK_M, SF_K), "float8_e8m0fnu", scope="tmem", allocated_addr=SFA_COL,
                         layout=sf_tmem_layout(BLK_M, SF_K, 1))
    SFB = Tx.decl_buffer((BLK_N, SF_K), "float8_e8m0fnu", scope="tmem", allocated_addr=SFB_COL,
                         layout=sf_tmem_layout(BLK_N, SF_K, 1))
    tmem_pool.commit()
    descA: Tx.uint64
    descB: Tx.uint64
    desc_i: Tx.uint32
    flag = Tx.alloc_local((1,), "uint32")
    if warp_id == 1:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            Tx.cuda.tcgen05.encode_instr_descriptor_block_scaled(
                Tx.address_of(desc_i), d_dtype="float32", a_dtype="float8_e4m3fn", b_dtype="float8_e4m3fn",
                sfa_dtype="float8_e8m0fnu", sfb_dtype="float8_e8m0fnu", sfa_tmem_addr=SFA_COL,
                sfb_tmem_addr=SFB_COL, M=BLK_M, N=BLK_N, K=MMA_K, trans_a=False, trans_b=False, n_cta_groups=1)
            for ki in Tx.unroll(BLK_K // MMA_K):
                Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descA), A_smem.ptr_to([0, ki * MMA_K]),
                                                         ldo=1, sdo=64, swizzle=3)
                Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descB), B_smem.ptr_to([0, ki * MMA_K]),
                                                         ldo=1, sdo=64, swizzle=3)
                desc_l: Tx.uint32 = desc_i
                if UNDECIDED:
                    if flag[0] != 0:
                        Tx.cuda.runtime_instr_desc(Tx.address_of(desc_l), ki)
                else:
                    Tx.cuda.runtime_instr_desc(Tx.address_of(desc_l), (ki + 1) % 4 if BAD_SF_ID else ki)
                Tx.ptx[_MMA](Tx.cast(acc.allocated_addr[0], "uint32"), descA, descB, desc_l,
                             Tx.cuda.get_tmem_addr(SFA.allocated_addr[0], 0, 0), Tx.cast(SFB_COL, "uint32"),
                             ki != 0)
    if warp_id == 0:
        Tx.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], Tx.uint32(512))
