"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): raw
TMA `.tile::gather4` loads (PTX ISA §5.5.3.4): four rows of a 2-D map whose box is one row, at
four row coordinates the source fixes, into the first four rows of 128B-swizzled 8-row stages.
`--param SWZ=0` encodes the map without the swizzle the shared layout has (kernel.tma-layout
catches it); `--param RUNTIME=True` takes the rows from an index buffer (unresolved, naming
them); `--param RANK3=True` issues gather4 on a 3-D map (refused: gather4 is 2-D only)."""
from tvm.script import tirx as Tx

M, K = 256, 64
ROWS = (5, 17, 2, 9)
SWZ = 3
RUNTIME = False
RANK3 = False
_G4 = "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes"
_G4_HINT = _G4 + ".L2::cache_hint"
_G4_3D = "cp.async.bulk.tensor.3d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes"


def gather_rows(A: Tx.Buffer((M, K), "float16"), idx: Tx.Buffer((4,), "int32")):
    A_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 2, A.data, K, M, K * 2, K, 1,
                   1, 1, 0, SWZ, 0, 0)
    B_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", B_map, "float16", 3, A.data, K, M // 2, 2, K * 2, K * 2 * (M // 2),
                   K, 1, 1, 1, 1, 1, 0, SWZ, 0, 0)
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    bar = pool.alloc([2], "uint64", align=8)
    A_smem = pool.alloc_tcgen05_mma_AB((3, 8, K), "float16")
    pool.commit()
    if warp_id == 0:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            Tx.ptx[_G4](A_smem.ptr_to([0, 0, 0]), Tx.address_of(A_map), 0, ROWS[0], ROWS[1], ROWS[2], ROWS[3],
                        bar.ptr_to([0]))
            for g in Tx.unroll(2):
                Tx.ptx[_G4_HINT](A_smem.ptr_to([1 + g, 0, 0]), Tx.address_of(A_map), 0, 64 * g + 3, 64 * g + 2,
                                 64 * g + 1, 64 * g, bar.ptr_to([1]), Tx.uint64(0x1000000000000000))
            if RUNTIME:
                Tx.ptx[_G4](A_smem.ptr_to([1, 0, 0]), Tx.address_of(A_map), 0, idx[0], idx[1], idx[2], idx[3],
                            bar.ptr_to([0]))
            if RANK3:
                Tx.ptx[_G4_3D](A_smem.ptr_to([1, 0, 0]), Tx.address_of(B_map), 0, 0, 1, 2, 3, bar.ptr_to([0]))
