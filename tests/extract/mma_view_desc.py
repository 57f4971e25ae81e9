"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
tcgen05.mma whose B descriptor is an `add_16B_offset` into a rearranged view (mma_layout_match.py).
B_base is a (64, 128) fp16 128B-swizzled operand (two 64-column atoms); `B_mma =
B_base.rearrange("r (h c) -> (h r) c", h=2)` stacks the two column halves into (128, 64) rows,
whose layout `ComposeLayout(3, 3, 3, S[(2,64,64):(4096,64,1)])` is mma_shared_layout(float16,
SWIZZLE_128B_ATOM, (128, 64)) written another way, so the descriptor's K steps (2 x 16 bytes
each) are elements of B_mma.  `--param ORDER="r (c h) -> (h r) c"` interleaves the halves
instead: not an mma_shared_layout, unresolved.  `--param SDO=32` gives the descriptor an SBO of
512 bytes, not the layout's 1024: kernel.mma-descriptor fails."""
from tvm.script import tirx as Tx
from tvm.tirx.lang.smem_desc import SmemDescriptor

BLK_M, BLK_N, BLK_K, MMA_K = 128, 128, 64, 16
ORDER = "r (h c) -> (h r) c"
SDO = 64
_MMA = "tcgen05.mma.cta_group::1.kind::f16"


def mma_view(A: Tx.Buffer((BLK_M, BLK_K), "float16")):
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = Tx.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    A_smem = pool.alloc_tcgen05_mma_AB((BLK_M, BLK_K), "float16")
    B_base = pool.alloc_tcgen05_mma_AB((BLK_N // 2, 2 * BLK_K), "float16")
    B_mma = B_base.rearrange(ORDER, h=2)
    pool.commit()
    acc = tmem_pool.alloc_tcgen05_mma_D((BLK_M, BLK_N), "float32", M=128, cta_group=1)
    tmem_pool.commit()
    desc_i: Tx.uint32
    desc_a = Tx.meta_var(SmemDescriptor())
    desc_b = Tx.meta_var(SmemDescriptor())
    if warp_id == 1:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            Tx.cuda.tcgen05.encode_instr_descriptor(Tx.address_of(desc_i), d_dtype="float32", a_dtype="float16",
                                                    b_dtype="float16", M=BLK_M, N=BLK_N, K=MMA_K, trans_a=False,
                                                    trans_b=False, n_cta_groups=1)
            desc_a.init(A_smem.ptr_to([0, 0]), ldo=1, sdo=64, swizzle=3)
            desc_b.init(B_mma.ptr_to([0, 0]), ldo=1, sdo=SDO, swizzle=3)
            for ki in Tx.unroll(BLK_K // MMA_K):
                Tx.ptx[_MMA](Tx.cast(acc.allocated_addr[0], "uint32"), desc_a.add_16B_offset(2 * ki),
                             desc_b.add_16B_offset(2 * ki), desc_i, 0, 0, 0, 0, ki != 0)
    if warp_id == 0:
        Tx.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], Tx.uint32(512))
