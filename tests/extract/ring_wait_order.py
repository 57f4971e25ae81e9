"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a producer
warp (warp 4) loads LOADS tiles into a 2-slot ring guarded by TVM's barrier classes (`full`: TMABar,
`empty`: TCGen05Bar with phase_offset 1), and a consumer warp (warp 0) stores each slot back out and
releases it.  The producer's branch comes first in the source, so walking the roles one after the
other put its third load (slot 0 again, phase 1) before the consumer's first store; its
`empty.wait(0, 1)` (parity 0 on a fresh barrier) does not pass until the consumer's
`empty.arrive(0)`: walked as coroutines (role_sched.py), the producer is suspended there and the
model orders load 0, load 1, store 0, load 2 (slot 0 reused), store 1, store 2.
--param DEADLOCK=True: the consumer never releases a slot, so the producer's third wait never passes
and the consumer's third `full.wait` waits for that load: every role waits, a deadlock, listed
unresolved (never a hang).
--param RAW_ARRIVE=True: the consumer releases the slot by a raw `mbarrier.arrive` on the slot's
address (not followed): the producer's wait is undecided, so its wrapped copy stays unresolved.
--param MASK=True: the consumer releases the slot by a multicast commit (`cta_mask=3`): the walked
CTA (rank 0 under the representative instance, recorded) gets the arrival, the same order; under
--instance none the CTA's rank is not fixed, the wait is undecided and the wrapped copy unresolved.
--param SPLIT=True: the two roles are consecutive `if`s on disjoint warps instead of an if / else:
the same interleaved model."""
from tvm.script import tirx as T
from tvm.tirx.lang.pipeline import TCGen05Bar, TMABar, PipelineState

LOADS = 3
DEADLOCK = False
RAW_ARRIVE = False
MASK = False
SPLIT = False

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
    pool.commit()
    prod = PipelineState(2, 0)
    cons = PipelineState(2, 0)
    @T.inline
    def producer():
        for i in T.unroll(LOADS):
            empty.wait(prod.stage, prod.phase)
            if T.cuda.elect_sync():
                T.ptx[_TMA_2D](A_smem.ptr_to([prod.stage, 0, 0]), T.address_of(A_map), 0, i * 128,
                               full.ptr_to([prod.stage]))
                full.arrive(prod.stage, 128 * 64 * 2)
            prod.advance()

    @T.inline
    def consumer():
        for i in T.unroll(LOADS):
            full.wait(cons.stage, cons.phase)
            if T.cuda.elect_sync():
                T.ptx[_STORE_2D](T.address_of(D_map), 0, i * 128, A_smem.ptr_to([cons.stage, 0, 0]))
                if RAW_ARRIVE:
                    T.ptx.mbarrier.arrive(empty.ptr_to([cons.stage]))
                elif MASK:
                    empty.arrive(cons.stage, cta_group=2, cta_mask=3)
                elif not DEADLOCK:
                    empty.arrive(cons.stage)
            cons.advance()

    if SPLIT:  # two consecutive ifs taken by disjoint warps: sibling roles as well
        if (wg_id == 1) & (warp_id == 0):
            producer()
        if (wg_id == 0) & (warp_id == 0):
            consumer()
    elif wg_id == 1:
        if warp_id == 0:
            producer()
    else:
        if warp_id == 0:
            consumer()
