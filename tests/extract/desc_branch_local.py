"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
128 x 128 x 64 bf16 MMA tile issued only when a count read from global memory at run time is
positive (`if n_work > 0:`, a branch the source does not decide).  Inside that branch TVM
SmemDescriptors are built, initialised and used by the MMAs: the init is exact relative to the
descriptors' own construction (branch_local.py), so the MMAs are extracted.  --param
BUILT_OUTSIDE=True makes the MMAs read A through desc_o, built before the branch (a use after the
branch could see either state): its init under the undecided condition stays unresolved, as
before."""
from tvm.script import tirx as T
from tvm.tirx.lang.smem_desc import SmemDescriptor

BLK_M, BLK_N, BLK_K, MMA_K = 128, 128, 64, 16
BUILT_OUTSIDE = False
IDESC_BF16 = (1 << 4) | (1 << 7) | (1 << 10) | ((BLK_N >> 3) << 17) | ((BLK_M >> 4) << 24)
_MMA = "tcgen05.mma.cta_group::1.kind::f16"


def mma_tile(A: T.Buffer((BLK_M, BLK_K), "bfloat16"), B: T.Buffer((BLK_N, BLK_K), "bfloat16"),
             Cnt: T.Buffer((1,), "int32")):
    warp_id = T.warp_id([4])
    lane_id = T.lane_id([32])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = T.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    A_smem = pool.alloc_tcgen05_mma_AB((BLK_M, BLK_K), "bfloat16")
    B_smem = pool.alloc_tcgen05_mma_AB((BLK_N, BLK_K), "bfloat16")
    pool.commit()
    tmem = tmem_pool.alloc((128, 512), "float32")
    tmem_pool.commit()
    if warp_id == 1:
        n_work: T.int32 = Cnt[0]
        desc_o = T.meta_var(SmemDescriptor())  # built before the branch
        if n_work > 0:
            desc_a = T.meta_var(SmemDescriptor())
            desc_b = T.meta_var(SmemDescriptor())
            desc_a.init(A_smem.ptr_to([0, 0]), ldo=1, sdo=64, swizzle=3)
            desc_b.init(B_smem.ptr_to([0, 0]), ldo=1, sdo=64, swizzle=3)
            desc_o.init(A_smem.ptr_to([0, 0]), ldo=1, sdo=64, swizzle=3)
            da = T.meta_var(desc_o if BUILT_OUTSIDE else desc_a)
            if T.filter(lane_id, T.cuda.elect_sync()):
                for ki in T.unroll(BLK_K // MMA_K):
                    T.ptx[_MMA](T.cast(0, "uint32"), da.add_16B_offset(2 * ki), desc_b.add_16B_offset(2 * ki),
                                T.uint32(IDESC_BF16), 0, 0, 0, 0, ki != 0)
    if warp_id == 0:
        T.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], T.uint32(512))
