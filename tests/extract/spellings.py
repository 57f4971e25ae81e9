# Spellings of buffers and ops that name what TVM builds: an alias of a tile op, getattr, keyword
# operands, T.alloc_shared / T.alloc_local with layout=, a helper returning a pool allocation;
# and ones the extraction refuses: strides= next to a layout, a format spec Python rejects.
from tvm.script import tirx as T
from tvm.script import tirx as Tx

load = Tx.copy_async
DT = "float16"
WIDTH = 64


def stage_buffer(pool, rows):
    return pool.alloc((3, rows, WIDTH), DT, layout=T.TileLayout(T.S[(3, rows, WIDTH):(rows * WIDTH, WIDTH, 1)]))


@T.prim_func
def spelled(G: T.Buffer((64, 64), "float16")):
    pool = T.SMEMPool()
    H = stage_buffer(pool, 16)
    load(H[0, :, :], G[0:16, :])
    getattr(Tx, "copy_async")(H[1, :, :], G[16:32, :])
    Tx.copy_async(src=G[32:48, :], dst=H[2, :, :])
    Sh = T.alloc_shared((8, 8), f"{DT:s}", layout=T.TileLayout(T.S[(8, 8):(1, 8)]))
    Lo = T.alloc_local((4,), "float32", layout=T.TileLayout(T.S[4:1]))
    Bad = pool.alloc((8, 8), f"{DT:d}", layout=T.TileLayout(T.S[(8, 8):(8, 1)]))
    Str = T.alloc_buffer((8, 8), "float16", scope="shared", strides=(16, 1))
