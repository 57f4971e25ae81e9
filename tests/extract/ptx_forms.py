"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): raw
TMA stores in two spellings the op handlers read the same way -- TVM's printed T.ptx form (the
family, the operands, then the modifier tokens in slot order and a marker string;
tools/extract/ptx_printed.py) and the string form with the coordinates passed as a starred
tuple, with and without the optional cache-policy operand (PTX ISA 9.1 §9.7.9.25: `[tensorMap,
coords], [srcMem] {, cache-policy}`).  --param RUNTIME_ROW=True makes the starred row a runtime
value: the store is unresolved naming it; --param SHIFT=32 starts the printed store's source
32 columns into the 128B-swizzled tile, which kernel.tma-layout rejects."""
from tvm.script import tirx as Tx

M, N = 64, 128
ROWS, BOX = 16, 64
RUNTIME_ROW = False
SHIFT = 0  # --param SHIFT=32: the printed store's source starts half a swizzle row in


def epilogue(D: Tx.Buffer((M, N), "bfloat16"), row0: Tx.int32):
    D_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", D_map, "bfloat16", 2, D.data, N, M, N * 2, BOX, ROWS,
                   1, 1, 0, 3, 0, 0)
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    D_smem = pool.alloc_tcgen05_mma_AB((ROWS, N), "bfloat16")
    pool.commit()
    if warp_id == 0:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            # printed form: tokens async bulk tensor 2d global shared::cta tile bulk_group, the
            # cache-hint slot left out (""), and the marker (""); the map passed through
            # T.reinterpret to a handle (the same address)
            Tx.ptx.cp(Tx.reinterpret(Tx.handle().ty, Tx.address_of(D_map)), 0, 0, D_smem.ptr_to([0, SHIFT]),
                      "async", "bulk", "tensor", "2d", "global", "shared::cta", "tile", "bulk_group", "", "")
            coords = (BOX, row0 if RUNTIME_ROW else 16)
            Tx.ptx["cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group.L2::cache_hint"](
                Tx.address_of(D_map), *coords, D_smem.ptr_to([0, BOX]), Tx.uint64(0x12F0000000000000))
