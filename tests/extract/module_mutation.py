# Module-level code that changes names after binding them: evaluated as Python runs it, or the
# name is unresolved -- never the first value kept.
from tvm.script import tirx as T

TILES = {"rows": 64}
TILES["rows"] = 32                # an item store: rows is 32
ORDER = {"cols": 64}
ORDER.update(cols=16)             # a dict method: cols is 16
for DEPTH in (1, 2):              # a module-level loop: DEPTH is 2
    pass
WIDE = 64


def shrink():
    global WIDE
    WIDE = 8


shrink()                          # changes WIDE: not followed, so WIDE is unresolved


@T.prim_func
def mutated(G: T.Buffer((64, 64), "float16")):
    pool = T.SMEMPool()
    P = pool.alloc((TILES["rows"], ORDER["cols"]), "float16",
                   layout=T.TileLayout(T.S[(TILES["rows"], ORDER["cols"]):(ORDER["cols"], 1)]))
    Q = pool.alloc((DEPTH, 8, 8), "float16", layout=T.TileLayout(T.S[(DEPTH, 8, 8):(64, 8, 1)]))
    R = pool.alloc((WIDE, 8), "float16", layout=T.TileLayout(T.S[(WIDE, 8):(8, 1)]))
