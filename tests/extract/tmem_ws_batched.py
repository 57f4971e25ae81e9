"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
64 x N x 64 bf16 tile on the .ws M = 64 data path (PTX ISA §9.7.16.10.5 Layout E: accumulator
element (m, n) in lane m + 64 (n // (N/2)), column C0 + n % (N/2)) whose accumulator is TVM's
batched C[2, 64, 64] (alloc_tcgen05_mma_D((2, 64, 64), M=64, ws=True): element [h, m, c] in lane
64 h + m, column c), addressed with raw column numbers from the pool's offset as hand-written
kernels do.  Four .ss K steps write D at column D_COL of P.

The N = 128 accumulator at column 0 is exactly P's cells: the view P.packed128@0 (element (m, n)
= P[n // 64, m, n % 64]), kernel.tmem-datapath passes.  --param N=64 --param D_COL=32: N / 2 = 32
columns of each half from column 32, the view P.packed64@32.  --param D_COL=32 (N = 128): columns
32..95 of each half, past P's 64: refused.  --param WS=False: the same instruction shape without
.ws is Layout F (64 rows, 128 columns in lanes 0..63 only), which P's 64 columns do not hold:
refused.  --param BAD_LAYOUT=True: P is declared (2, 64, 64) with its halves side by side in
columns 0..127 of lanes 0..63 (a layout no MMA writes): the view re-indexes that layout and
kernel.tmem-datapath fails at element (0, 64)."""
from tvm.script import tirx as Tx

N = 128
D_COL = 0
WS = True
BAD_LAYOUT = False
BLK_K, MMA_K = 64, 16
# bit 4: D F32; bits 7-9 / 10-12: A / B BF16 (1); bits 17-22: N >> 3; bits 24-28: M >> 4
IDESC = (1 << 4) | (1 << 7) | (1 << 10) | ((N >> 3) << 17) | ((64 >> 4) << 24)
_MMA_WS = "tcgen05.mma.ws.cta_group::1.kind::f16"
_MMA = "tcgen05.mma.cta_group::1.kind::f16"


def qk_ws(A: Tx.Buffer((64, BLK_K), "bfloat16"), B: Tx.Buffer((N, BLK_K), "bfloat16")):
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = Tx.TMEMPool(pool, total_cols=128, cta_group=1, tmem_addr=tmem_addr)
    A_smem = pool.alloc_tcgen05_mma_AB((64, BLK_K), "bfloat16")
    B_smem = pool.alloc_tcgen05_mma_AB((N, BLK_K), "bfloat16")
    pool.commit()
    p_col = Tx.meta_var(tmem_pool.offset)
    if BAD_LAYOUT:
        P = tmem_pool.alloc((2, 64, 64), "float32",
                            layout=Tx.TileLayout(Tx.S[(2, 64, 64):(64 @ Tx.TCol, 1 @ Tx.TLane, 1 @ Tx.TCol)]))
    else:
        P = tmem_pool.alloc_tcgen05_mma_D((2, 64, 64), "float32", M=64, cta_group=1, ws=True)
    tmem_pool.commit()
    descA: Tx.uint64
    descB: Tx.uint64
    if warp_id == 1:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            for ki in Tx.unroll(BLK_K // MMA_K):
                Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descA), A_smem.ptr_to([0, ki * MMA_K]),
                                                         ldo=1, sdo=64, swizzle=3)
                Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descB), B_smem.ptr_to([0, ki * MMA_K]),
                                                         ldo=1, sdo=64, swizzle=3)
                if WS:
                    Tx.ptx[_MMA_WS](Tx.cast(p_col + D_COL, "uint32"), descA, descB, Tx.uint32(IDESC), ki != 0,
                                    Tx.uint64(0))
                else:
                    Tx.ptx[_MMA](Tx.cast(p_col + D_COL, "uint32"), descA, descB, Tx.uint32(IDESC), 0, 0, 0, 0,
                                 ki != 0)
    Tx.cuda.cta_sync()
    if warp_id == 0:
        Tx.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], Tx.uint32(128))
