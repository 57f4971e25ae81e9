# exec() at module level may rebind any name bound before it: those names are unresolved.
from tvm.script import tirx as T

ROWS = 64
exec("ROWS = 4")
COLS = 8                          # bound after the exec: known


@T.prim_func
def dynamic(G: T.Buffer((64, 64), "float16")):
    pool = T.SMEMPool()
    V = pool.alloc((ROWS, COLS), "float16", layout=T.TileLayout(T.S[(ROWS, COLS):(COLS, 1)]))
    W = pool.alloc((COLS, COLS), "float16", layout=T.TileLayout(T.S[(COLS, COLS):(COLS, 1)]))
