# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any
# kernel repository): a kernel function no code of the file calls, whose parameter has a default
# and an entry in CONFIGS[0]; the runner passes the entry as a keyword, so the entry wins.
from tvm.script import tirx as T

CONFIGS = [{"ROWS": 32, "label": "small"}]


@T.prim_func
def kernel(A: T.Buffer((ROWS, 8), "float16"), *, ROWS: T.constexpr = 64):
    pool = T.SMEMPool()
    S = pool.alloc((ROWS, 8), "float16", layout=T.TileLayout(T.S[(ROWS, 8):(8, 1)]))
