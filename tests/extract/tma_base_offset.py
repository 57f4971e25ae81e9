"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a tensor
map whose base is a byte offset into a kernel buffer, `T.handle_add_byte_offset(A.data, OFF)` (the
second half of each row, as a kernel that loads a row's two halves through two maps does).  The
model's tensor_map.base_offset_bytes is OFF and `global` the second half of the rows; OFF = 0 is
A.data itself; an OFF that is not a multiple of 16 is refused (cuTensorMapEncodeTiled's
globalAddress alignment), and one whose map reaches past A's last element too."""
from tvm.script import tirx as Tx

M, K = 64, 128
OFF = K  # bytes: the second half of a float16 row
_TILE = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"


def half_rows(A: Tx.Buffer((M, K), "float16")):
    A_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 2, Tx.handle_add_byte_offset(A.data, OFF),
                   K // 2, M, K * 2, K // 2, 8, 1, 1, 0, 3, 0, 0)
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    bar = pool.alloc([1], "uint64", align=8)
    A_smem = pool.alloc_tcgen05_mma_AB((8, K // 2), "float16")
    pool.commit()
    if warp_id == 0:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            Tx.ptx[_TILE](A_smem.ptr_to([0, 0]), Tx.address_of(A_map), 0, 0, bar.ptr_to([0]))
