"""Test kernel written for tirx-verify's extraction tests: a tile task the package's wrapper
constructs once, with a parameter of the wrapper's method (a value its caller passes)."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


class BatchTile:
    def __init__(self, rows):
        self.rows = rows

    @T.inline
    def run(self, A: T.Buffer((128, 64), "float16")):
        A_smem = T.alloc_buffer((self.rows, 64), "float16", scope="shared.dyn")
        Tx.copy_async(A_smem[:, :], A[0:self.rows, :], dispatch="tma")
