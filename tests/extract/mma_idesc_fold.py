"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
128 x 128 x 64 bf16 MMA tile whose instruction descriptors come from TVM's compile-time fold
`encode_instr_descriptor_dense_uint32` (imported inside a host helper, called with static
arguments), passed as `Tx.uint32(...)` literals: one K-major B, one MN-major B (trans_b=True).
The extraction models the helper's number from its arguments (idesc_fold.py) and decodes it at the
MMA (idesc.py).  --param BAD_K=True passes K = 32 for a kind::f16 MMA (TVM's helper raises: refused);
--param BTYPE='"float16"' names F16 for a bf16 B (encoded as asked; kernel.mma-descriptor fails);
--param NEG=True sets neg_a (bit 13, which the model format has no field for: refused at the MMA)."""
from tvm.script import tirx as Tx

BLK_M, BLK_N, BLK_K, MMA_K = 128, 128, 64, 16
BAD_K = False
BTYPE = "bfloat16"
NEG = False
LBO_T, SBO_T = 512, 64  # the MN-major B descriptor's LBO / SBO (16-byte units)
_MMA = "tcgen05.mma.cta_group::1.kind::f16"


def _idesc(trans_b=False):
    from tvm.backend.cuda.cpp.descriptors import encode_instr_descriptor_dense_uint32

    k = 32 if BAD_K else MMA_K
    return encode_instr_descriptor_dense_uint32(BLK_M, BLK_N, k, "float32", "bfloat16", BTYPE, False, trans_b,
                                                cta_group=1, neg_a=NEG)


def mma_tile(A: Tx.Buffer((BLK_M, BLK_K), "bfloat16"), B: Tx.Buffer((BLK_N, BLK_K), "bfloat16")):
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = Tx.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    A_smem = pool.alloc_tcgen05_mma_AB((BLK_M, BLK_K), "bfloat16")
    B_smem = pool.alloc_tcgen05_mma_AB((BLK_N, BLK_K), "bfloat16")
    Bt_smem = pool.alloc_tcgen05_mma_AB((BLK_K, BLK_N), "bfloat16")
    pool.commit()
    descA: Tx.uint64
    descB: Tx.uint64
    descBt: Tx.uint64
    tmem = tmem_pool.alloc((128, 512), "float32")
    tmem_pool.commit()
    if warp_id == 1:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            for ki in Tx.unroll(BLK_K // MMA_K):
                Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descA), A_smem.ptr_to([0, ki * MMA_K]),
                                                         ldo=1, sdo=64, swizzle=3)
                Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descB), B_smem.ptr_to([0, ki * MMA_K]),
                                                         ldo=1, sdo=64, swizzle=3)
                Tx.ptx[_MMA](Tx.cast(0, "uint32"), descA, descB, Tx.uint32(_idesc()), 0, 0, 0, 0, ki != 0)
                Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descBt), Bt_smem.ptr_to([ki * MMA_K, 0]),
                                                         ldo=LBO_T, sdo=SBO_T, swizzle=3)
                Tx.ptx[_MMA](Tx.cast(128, "uint32"), descA, descBt, Tx.uint32(_idesc(trans_b=True)), 0, 0, 0, 0,
                             ki != 0)
    if warp_id == 0:
        Tx.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], Tx.uint32(512))
