"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): raw
TMA loads with `.multicast::cluster` (the model's `multicast` ranks from a constant ctaMask).
`--param MASK=2` names only the peer CTA (rank 1): the load does not write this CTA's shared
memory, so the op is unresolved; `--param GATHER=True` adds a `.tile::gather4` load over A_map, whose box is
64 rows where gather4's must be one (unresolved, saying so; gather4.py has the modelled form).  The map's base is
`Tx.handle_add_byte_offset(A.data, 0)`: byte 0 of A."""
from tvm.script import tirx as Tx

M, K = 256, 128
BLK_M, BLK_K = 64, 64
MASK = 3
GATHER = False
_MC = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster"
_MC_HINT = _MC + ".L2::cache_hint"
_G4 = "cp.async.bulk.tensor.2d.shared::cluster.global.tile::gather4.mbarrier::complete_tx::bytes"


def load_tiles(A: Tx.Buffer((M, K), "float16")):
    A_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 2, Tx.handle_add_byte_offset(A.data, 0), K, M, K * 2, BLK_K, BLK_M,
                   1, 1, 0, 3, 0, 0)
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    rank = Tx.cta_id_in_cluster([2])
    pool = Tx.SMEMPool()
    bar = pool.alloc([2], "uint64", align=8)
    A_smem = pool.alloc_tcgen05_mma_AB((2, BLK_M, BLK_K), "float16")
    pool.commit()
    if warp_id == 0:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            Tx.ptx[_MC](A_smem.ptr_to([0, 0, 0]), Tx.address_of(A_map), 0, rank * BLK_M, bar.ptr_to([0]),
                        Tx.cast(MASK, "uint16"))
            Tx.ptx[_MC_HINT](A_smem.ptr_to([1, 0, 0]), Tx.address_of(A_map), BLK_K, rank * BLK_M,
                             bar.ptr_to([1]), Tx.cast(1 << rank, "uint16"), Tx.uint64(0x1000000000000000))
            if GATHER:
                Tx.ptx[_G4](A_smem.ptr_to([0, 0, 0]), Tx.address_of(A_map), 0, 0, 1, 2, 3, bar.ptr_to([0]))
