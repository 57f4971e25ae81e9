"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
tile-task class (tools/extract/tile_class.py) whose class body and __init__ hold compound
statements that the straight-line evaluator runs as Python does:

* the class body doubles W in a `for` loop (W = 32) and picks DEPTH in an `if` (DEPTH = 2);
* __init__ widens `cols` under `if wide:` and doubles `self.rows` in a `for` loop (rows = 128);
* `--param W=V` applies where the class body binds W (after each binding, as for a module
  constant), so `--param W=16` gives DEPTH 1 and 16 columns.
"""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


class FlowTile:
    W = 8
    for _i in range(2):
        W = W * 2
    if W > 16:
        DEPTH = 2
    else:
        DEPTH = 1

    def __init__(self, rows=64, wide=False):
        cols = self.W
        if wide:
            cols = cols * 2
        self.rows = rows
        for _ in range(1):
            self.rows = self.rows * 2
        self.cols = cols

    @T.inline
    def run(self, A: T.Buffer((128, 128), "float16")):
        A_smem = T.alloc_buffer((self.DEPTH, self.rows, self.cols), "float16", scope="shared.dyn")
        Tx.copy_async(A_smem[0, :, :], A[0:self.rows, 0:self.cols], dispatch="tma")
