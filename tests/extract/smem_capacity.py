# SMEMPool offsets place the shared buffers (align rounding, alloc_tcgen05_mma_AB's 1024, the
# shape's bytes); STAGES=12 reaches past the target's shared memory, which run's kernel.overlap reports.
from tvm.script import tirx as T
from tvm.script import tirx as Tx

STAGES = 2


@T.prim_func
def staged(G: T.Buffer((128, 64), "float16")):
    pool = T.SMEMPool()
    bar = pool.alloc((STAGES,), "uint64", align=8)
    tile = pool.alloc_tcgen05_mma_AB((STAGES, 128, 64), "float16")
    sc = pool.alloc((3,), "float32")
    out = pool.alloc((128, 128), "float32", align=128, layout=T.TileLayout(T.S[(128, 128):(128, 1)]))
    Tx.copy_async(tile[0, :, :], G[:, :])
