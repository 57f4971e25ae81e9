# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any
# kernel repository): every allocator and op form tools/extract recognises, resolved from
# module constants, a config dictionary, tuple unpacking, a helper and the call site.
from tvm.script import tirx as T
from tvm.script import tirx as Tx

_DEFAULT_CONFIG = {"blk_m": 128, "blk_k": 64, "stages": 2}
EPI_N, EPI_ROWS = 32, 128


def _swizzle_for_row_bytes(row_bytes):
    if row_bytes % 128 == 0:
        return 3
    return 2


@T.jit
def _kernel(
    A: T.Buffer((256, 64), "float16"),
    *,
    BLK_M: T.constexpr,
    BLK_K: T.constexpr,
    STAGES: T.constexpr,
    N_COLS: T.constexpr = 256,
):
    BLK_N = T.meta_var(BLK_M // 2)
    SW = T.meta_var(_swizzle_for_row_bytes(BLK_K * 2))
    pool = T.SMEMPool()
    tmem_addr = pool.alloc((1,), "uint32")
    Asmem = pool.alloc_tcgen05_mma_AB((STAGES, BLK_M, BLK_K), "float16")
    Bsmem = pool.alloc((STAGES, BLK_N, BLK_K), "float16", swizzle=SW)
    Csmem = pool.alloc((BLK_M, EPI_N), "float32", layout=T.TileLayout(T.S[(BLK_M, EPI_N):(EPI_N, 1)]))
    Aview = Asmem.view(STAGES * BLK_M, BLK_K, layout=T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(STAGES * BLK_M, BLK_K):(BLK_K, 1)])))
    scratch = T.decl_buffer((64,), "float32", scope="shared.dyn", layout=T.TileLayout(T.S[64:1]))
    gbuf = T.alloc_buffer((8, 8), "int32", layout=T.TileLayout(T.S[(8, 8):(1, 8)]))
    tmem_pool = T.TMEMPool(pool, total_cols=N_COLS, cta_group=1, tmem_addr=tmem_addr, alloc_warp=4)
    acc = tmem_pool.alloc((128, N_COLS), "float32")
    accD = tmem_pool.alloc_tcgen05_mma_D((128, 64), "float32", M=128, cta_group=1)
    sfa = tmem_pool.alloc_sf((128, 4), "float8_e8m0fnu", sf_per_mma=4)
    tmem_pool.commit()
    frag = T.alloc_tcgen05_ldst_frag("32x32b", (EPI_ROWS, EPI_N), "float32")
    tile = T.wg_reg_tile(EPI_N, dtype="float32")
    half = T.alloc_cast_frag(frag, "float16")
    Tx.copy_async(Asmem[0, :, :], A[0:BLK_M, :])
    Tx.gemm_async(acc[:, 0:64], Asmem[0, :, :], Bsmem[0, :, :], accum=False)
    Tx.gemm_async(acc[:, 0:64], Asmem[1, :, :], Bsmem[1, :, :], accum=True)
    T.ptx.tcgen05.mma(acc.ptr_to([0, 0]))
    tmem_pool.dealloc()


def get_kernel(mode="default"):
    cfg = _DEFAULT_CONFIG
    blk_m, blk_k = cfg["blk_m"], cfg["blk_k"]
    return _kernel.specialize(BLK_M=blk_m, BLK_K=blk_k, STAGES=cfg["stages"])
