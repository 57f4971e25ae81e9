"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a loader
warpgroup and a consumer warpgroup in two sibling `if` branches with a function definition between
them (`@T.inline def store_rows`), ordered by an mbarrier and by a named barrier.

The loader fills the one-slot buffer A_smem with A's rows 0-127, waits at named barrier 1 until the
consumer has stored the slot to D and arrived there, then refills the slot with rows 128-255 (full
slot 1).  The definition runs nothing, so the two branches are still sibling warp roles walked as
coroutines (kernel_walk.warp_if_run): the model's order is load, store, load, store.
Walked before kernel_walk.warp_if_run let a definition stand between sibling branches, the roles
ran one after the other: the loader's `bar.sync` was outside a coroutine walk, not followed, and the
model put both loads before both stores (kernel.coverage: the slot written twice before a read).
--param BAR_ID=2: the consumer arrives at another barrier than the loader waits at, so the loader's
`bar.sync` never completes: a deadlock in the walked pass, listed unresolved."""
from tvm.script import tirx as T
from tvm.tirx.lang.pipeline import TMABar

BAR_ID = 1

_TMA_2D = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
_STORE_2D = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


def roles(A: T.Buffer((512, 64), "float16"), D: T.Buffer((512, 64), "float16")):
    A_map: T.let[T.handle("tensormap")] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 2, A.data, 64, 512, 128, 64, 128,
                  1, 1, 0, 3, 0, 0)
    D_map: T.let[T.handle("tensormap")] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", D_map, "float16", 2, D.data, 64, 512, 128, 64, 128,
                  1, 1, 0, 3, 0, 0)
    wg_id = T.warpgroup_id([2])
    warp_id = T.warp_id_in_wg([4])
    pool = T.SMEMPool()
    A_smem = pool.alloc_tcgen05_mma_AB((1, 128, 64), "float16")
    full = TMABar(pool, 2)
    full.init(1)
    pool.commit()

    if wg_id == 1:
        for k in T.unroll(2):
            if warp_id == 0:
                if T.cuda.elect_sync():
                    T.ptx[_TMA_2D](A_smem.ptr_to([0, 0, 0]), T.address_of(A_map), 0, k * 128, full.ptr_to([k]))
                    full.arrive(k, 128 * 64 * 2)
            if k == 0:
                T.ptx.bar.sync(T.uint32(1), 256)

    @T.inline
    def store_rows(row):
        if warp_id == 0:
            if T.cuda.elect_sync():
                T.ptx[_STORE_2D](T.address_of(D_map), 0, row, A_smem.ptr_to([0, 0, 0]))
                T.ptx.cp.async_.bulk.commit_group()
                T.ptx.cp.async_.bulk.wait_group.read(0)

    if wg_id == 0:
        full.wait(0, 0)
        store_rows(0)
        T.ptx.bar.arrive(T.uint32(BAR_ID), 256)
        full.wait(1, 0)
        store_rows(128)
