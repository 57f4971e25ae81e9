"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
128 x 128 x 64 bf16 MMA tile whose instruction descriptors are numbers, decoded field by field
(PTX ISA §9.7.16.4.2): a literal `Tx.uint32(...)`, a name bound to an expression of constants,
one with the B transpose bit (B read MN-major from a K x N tile), and a `.ws` MMA.  Under `--param BAD_BTYPE=True` the literal's B type (bits 10-12) is 0, F16,
although B holds bf16: the extraction writes what the number says, and kernel.mma-descriptor
fails (the instruction reads B as another dtype than its buffer's)."""
from tvm.script import tirx as Tx

BLK_M, BLK_N, BLK_K, MMA_K = 128, 128, 64, 16
BAD_BTYPE = False
IDESC_EXTRA = 0  # --param IDESC_EXTRA=8: the saturate bit (3), which a kind::f16 descriptor cannot carry
# bit 4: D F32; bits 7-9 / 10-12: A / B BF16 (1); bits 17-22: N >> 3; bits 24-28: M >> 4
IDESC_BF16 = (1 << 4) | (1 << 7) | (1 << 10) | ((BLK_N >> 3) << 17) | ((BLK_M >> 4) << 24)
LBO_T, SBO_T = 512, 64  # the MN-major B descriptor's LBO / SBO (16-byte units)
_MMA = "tcgen05.mma.cta_group::1.kind::f16"
_MMA_WS = "tcgen05.mma.ws.cta_group::1.kind::f16"


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
                if ki == 0:
                    Tx.ptx[_MMA](Tx.cast(0, "uint32"), descA, descB,
                                 Tx.uint32(136315024 if BAD_BTYPE else 136316048), 0, 0, 0, 0, False)
                else:
                    Tx.ptx[_MMA](Tx.cast(0, "uint32"), descA, descB, IDESC_BF16 | IDESC_EXTRA, 0, 0, 0, 0, True)
                Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descBt), Bt_smem.ptr_to([ki * MMA_K, 0]),
                                                         ldo=LBO_T, sdo=SBO_T, swizzle=3)
                Tx.ptx[_MMA](Tx.cast(128, "uint32"), descA, descBt, IDESC_BF16 | (1 << 16), 0, 0, 0, 0, ki != 0)
                Tx.ptx[_MMA_WS](Tx.cast(256, "uint32"), descA, descB, Tx.uint32(IDESC_BF16), ki != 0,
                                Tx.uint64(0))
    if warp_id == 0:
        Tx.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], Tx.uint32(512))
