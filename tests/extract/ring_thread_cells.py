"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): the
2-slot ring of ring_wait_order.py (producer warp 4 first in the source, consumer warp 0), with a
declared TIR scalar `ph` set to 0 before the roles fork.  The producer flips its copy (`ph ^= 1`)
and then waits on a one-slot gate barrier with `ph ^ 1`; the consumer waits on the same gate with
`ph` before its loop.  `ph` is per-thread storage: each role has its own copy (thread_cells.py), so
the producer reads 1 (its wait, parity 0 ^ 1 = 1, passes on the fresh gate) and the consumer reads
the entry value 0 (parity 1, passes), and the roles interleave exactly as in ring_wait_order.py.
With one cell shared by all warps the consumer's read of `ph` (stored by warp 4 only) was
unresolved, its wait undecided and its wrapped copies unresolved.
--param BOTH=True: the consumer flips its copy too, after its loop; after the fork `ph` is 1 for
both roles' warps, and the op after the branches (`D` store of row block ph * 128 by warp 0) reads it.
--param DIFFER=True: the consumer stores 5 instead: after the fork the roles' copies differ, and
that op's row block is unresolved."""
from tvm.script import tirx as T
from tvm.tirx.lang.pipeline import TCGen05Bar, TMABar, PipelineState

LOADS = 3
BOTH = False
DIFFER = False

_TMA_2D = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
_STORE_2D = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


def ring(A: T.Buffer((512, 64), "float16"), D: T.Buffer((512, 64), "float16")):
    A_map: T.let[T.handle("tensormap")] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 2, A.data, 64, 512, 128, 64, 128,
                  1, 1, 0, 3, 0, 0)
    D_map: T.let[T.handle("tensormap")] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", D_map, "float16", 2, D.data, 64, 512, 128, 64, 128,
                  1, 1, 0, 3, 0, 0)
    wg_id = T.warpgroup_id([2])
    warp_id = T.warp_id_in_wg([4])
    pool = T.SMEMPool()
    A_smem = pool.alloc_tcgen05_mma_AB((2, 128, 64), "float16")
    full = TMABar(pool, 2)
    full.init(1)
    empty = TCGen05Bar(pool, 2, phase_offset=1)
    empty.init(1)
    gate = TCGen05Bar(pool, 1, phase_offset=1)
    gate.init(1)
    pool.commit()
    prod = PipelineState(2, 0)
    cons = PipelineState(2, 0)
    ph: T.int32
    ph = 0

    if wg_id == 1:
        if warp_id == 0:
            ph ^= 1
            gate.wait(0, ph ^ 1)
            for i in T.unroll(LOADS):
                empty.wait(prod.stage, prod.phase)
                if T.cuda.elect_sync():
                    T.ptx[_TMA_2D](A_smem.ptr_to([prod.stage, 0, 0]), T.address_of(A_map), 0, i * 128,
                                   full.ptr_to([prod.stage]))
                    full.arrive(prod.stage, 128 * 64 * 2)
                prod.advance()
    else:
        if warp_id == 0:
            gate.wait(0, ph)
            for i in T.unroll(LOADS):
                full.wait(cons.stage, cons.phase)
                if T.cuda.elect_sync():
                    T.ptx[_STORE_2D](T.address_of(D_map), 0, i * 128, A_smem.ptr_to([cons.stage, 0, 0]))
                    empty.arrive(cons.stage)
                cons.advance()
            if BOTH:
                ph ^= 1
            if DIFFER:
                ph = 5
    if BOTH or DIFFER:
        if (wg_id == 0) & (warp_id == 0):
            if T.cuda.elect_sync():
                T.ptx[_STORE_2D](T.address_of(D_map), 0, ph * 128, A_smem.ptr_to([0, 0, 0]))
