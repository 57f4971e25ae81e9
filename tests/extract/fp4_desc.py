"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): an
nvfp4 block-scaled MMA (`kind::mxf4nvf4`, scale_vec 4X) whose operands are fp4 views of packed
uint8 tiles (`A_packed.view("float4_e2m1fn")`: two e2m1 values per byte, the layout
`mma_shared_layout("uint8", ...).unpack(2)`).  The SmemDescriptor starts at element [0, 0] and each
K step of 64 fp4 values adds 32 bytes (`add_16B_offset(ki * MMA_K // 32)`): the descriptor walks the
packed bytes, the operand region is in fp4 elements (A_smem[:, 64 ki : 64 ki + 64]).  The stage
size comes from `torch.empty((), dtype=torch.uint8).element_size()` and a K-step count from a
condition cast to uint32.  Under --param BAD_SWIZZLE=2 A's descriptor says 64B swizzling while the
tile is 128B-swizzled: kernel.mma-descriptor finds it.  Under --param BAD_STEP=True each K step
adds 16 bytes (32 fp4 values, half a step): refused (the scale factors' K step does not match)."""
import torch
from tvm.script import tirx as T
from tvm.tirx.lang.smem_desc import SmemDescriptor

BLK_M, BLK_N, BLK_K, MMA_K = 128, 128, 256, 64
SF_K = BLK_K // 16
SFA_COL, SFB_COL = 256, 272
BAD_STEP = False
BAD_SWIZZLE = 3
BYTES = torch.empty((), dtype=torch.uint8).element_size()
_MMA = "tcgen05.mma.cta_group::1.kind::mxf4nvf4.block_scale.scale_vec::4X"


def mma_tile():
    warp_id = T.warp_id([4])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = T.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    A_packed = pool.alloc_tcgen05_mma_AB((BLK_M, BLK_K // 2 * BYTES), "uint8")
    B_packed = pool.alloc_tcgen05_mma_AB((BLK_N, BLK_K // 2 * BYTES), "uint8")
    pool.commit()
    acc = T.decl_buffer((128, BLK_N), "float32", scope="tmem", allocated_addr=0,
                        layout=T.TileLayout(T.S[(128, BLK_N):(1 @ T.TLane, 1 @ T.TCol)]))
    SFA = T.decl_buffer((BLK_M, SF_K), "float8_e4m3fn", scope="tmem", allocated_addr=SFA_COL,
                        layout=sf_tmem_layout(BLK_M, SF_K, 4))
    SFB = T.decl_buffer((BLK_N, SF_K), "float8_e4m3fn", scope="tmem", allocated_addr=SFB_COL,
                        layout=sf_tmem_layout(BLK_N, SF_K, 4))
    tmem_pool.commit()
    A_smem = A_packed.view("float4_e2m1fn")
    B_smem = B_packed.view("float4_e2m1fn")
    steps = BLK_K // MMA_K * T.cast(BLK_K >= MMA_K, "uint32")
    desc_a = T.meta_var(SmemDescriptor())
    desc_b = T.meta_var(SmemDescriptor())
    desc_i: T.uint32
    if warp_id == 1:
        if T.cuda.elect_sync():
            desc_a.init(A_smem.ptr_to([0, 0]), ldo=0, sdo=64, swizzle=BAD_SWIZZLE)
            desc_b.init(B_smem.ptr_to([0, 0]), ldo=0, sdo=64, swizzle=3)
            T.cuda.tcgen05.encode_instr_descriptor_block_scaled(
                T.address_of(desc_i), d_dtype="float32", a_dtype="float4_e2m1fn", b_dtype="float4_e2m1fn",
                sfa_dtype="float8_e4m3fn", sfb_dtype="float8_e4m3fn", sfa_tmem_addr=SFA_COL,
                sfb_tmem_addr=SFB_COL, M=BLK_M, N=BLK_N, K=MMA_K, trans_a=False, trans_b=False, n_cta_groups=1)
            for ki in T.unroll(steps):
                step = T.meta_var(ki * MMA_K // (64 if BAD_STEP else 32))
                T.ptx[_MMA](T.cast(acc.allocated_addr[0], "uint32"), desc_a.add_16B_offset(step),
                            desc_b.add_16B_offset(step), desc_i,
                            T.cuda.get_tmem_addr(SFA.allocated_addr[0], 0, ki * 4),
                            T.cuda.get_tmem_addr(SFB.allocated_addr[0], 0, ki * 4), ki != 0)
    if warp_id == 0:
        T.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], T.uint32(512))
