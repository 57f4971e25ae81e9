"""Test kernel written for tirx-verify's extraction tests: a tile task the package's wrapper
constructs twice, with different arguments (two configurations: which one to model is a choice)."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


class TwiceTile:
    def __init__(self, rows):
        self.rows = rows

    @T.inline
    def run(self, A: T.Buffer((128, 64), "float16")):
        A_smem = T.alloc_buffer((self.rows, 64), "float16", scope="shared.dyn")
        Tx.copy_async(A_smem[:, :], A[0:self.rows, :], dispatch="tma")
