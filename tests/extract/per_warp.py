"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): buffers
per warp (per_warp.py) and a plain register buffer's elements as runtime-data registers
(buffer_regs.py).  Warpgroup 1 (warps 4..7) gathers rows of A into its warp's rows of a staged
shared buffer: `A_warp` picks the warp's 8 rows from a (stripe, warp, row) split of each stage, by
`w = warp_id - 4`, which differs between the warps executing there -- one model buffer per warp --
and `A_stage` is a `.sub` view of it (per-warp in turn); `B_warp` is a `decl_buffer` whose
`elem_offset` is computed from `w` (B_ROWS rows of 128 bytes per warp).  The gather4 rows are `rows[g, j]`, a (2, 4) int32 register
buffer filled from the index buffer by `ld.global.nc.v4.u32` through a uint32 view: runtime data,
bound under the representative instance to 0, 1, 2, 3.  `--param LANE=True` picks the rows by the
lane index (differs inside a warp: no buffer per warp, unresolved); `--param B_ROWS=4` puts warp
5's and 7's B_warp 512 bytes into a 128B swizzle atom, which its layout does not say
(kernel.tma-layout); `--param SHARE=True` gives warps 4 and 5 the same rows (`w // 2`)."""
from tvm.script import tirx as Tx

M, K = 256, 64
B_ROWS = 8
LANE = False
SHARE = False
_G4 = "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes"


def per_warp_rows(A: Tx.Buffer((M, K), "float16"), idx: Tx.Buffer((64,), "int32")):
    A_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 2, A.data, K, M, K * 2, K, 1,
                   1, 1, 0, 3, 0, 0)
    warp_id = Tx.warp_id([8])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    bar = pool.alloc([1], "uint64", align=8)
    A_smem = pool.alloc_tcgen05_mma_AB((2, 64, K), "float16")
    B_smem = pool.alloc_tcgen05_mma_AB((4 * B_ROWS, K), "float16")
    pool.commit()
    if warp_id >= 4:
        w: Tx.let = warp_id - 4
        if SHARE:
            w = (warp_id - 4) // 2
        if LANE:
            w = lane_id % 4
        A_warp = A_smem.tile((1, (-1, 4, 8)))[:, w, :]
        B_warp = Tx.decl_buffer((B_ROWS, K), "float16", data=B_smem.data, elem_offset=B_smem.elem_offset + w * B_ROWS * K,
                                scope="shared.dyn",
                                layout=Tx.ComposeLayout(3, 3, 3, Tx.TileLayout(Tx.S[(B_ROWS, K):(K, 1)])))
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            rows = Tx.alloc_local((2, 4), "int32")
            words = rows.view(8).view("uint32")
            for g in Tx.unroll(2):
                Tx.ptx.ld.global_.nc.v4.u32(words[g * 4], words[g * 4 + 1], words[g * 4 + 2], words[g * 4 + 3],
                                            idx.ptr_to([w * 8 + g * 4]))
            A_stage = A_warp.sub[1, :, :]
            Tx.ptx[_G4](A_stage.ptr_to([0, 0]), Tx.address_of(A_map), 0, rows[0, 0], rows[0, 1], rows[0, 2],
                        rows[0, 3], bar.ptr_to([0]))
            Tx.ptx[_G4](B_warp.ptr_to([0, 0]), Tx.address_of(A_map), 0, rows[1, 0], rows[1, 1], rows[1, 2],
                        rows[1, 3], bar.ptr_to([0]))
