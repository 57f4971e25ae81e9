"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
16 x 128 bf16 epilogue tile in a 128B-swizzled MMA layout stored by two raw TMA stores of a
64-column box each (the left and right 128-byte halves of every row).  The shared region of a
store is the box placed at its pointer (D_smem[0:16, 0:64] and D_smem[0:16, 64:128]), not the
first 1024 elements in row order.  Under --param MAP_SWIZZLE=2 the map's swizzle (64B) is not
the layout's, which kernel.tma-layout finds."""
from tvm.script import tirx as Tx

M, N = 256, 128
ROWS, COLS, HALF = 16, 128, 64
MAP_SWIZZLE = 3

_TMA_STORE = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


def epilogue(D: Tx.Buffer((M, N), "bfloat16")):
    D_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", D_map, "bfloat16", 2, D.data, N, M, N * 2, HALF, ROWS,
                   1, 1, 0, MAP_SWIZZLE, 0, 0)
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    D_smem = pool.alloc_tcgen05_mma_AB((ROWS, COLS), "bfloat16")
    pool.commit()
    if warp_id == 0:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            for h in Tx.unroll(COLS // HALF):
                Tx.ptx[_TMA_STORE](Tx.address_of(D_map), h * HALF, 0, D_smem.ptr_to([0, h * HALF]))
