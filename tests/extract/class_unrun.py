"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
tile-task class (tools/extract/tile_class.py) whose __init__ binds `self.cols` in a `try`
statement and sets `self.rows` with `setattr`, neither of which the extraction runs: what
uses them is unresolved, naming the statement's line (never the value bound before it, nor
"no attribute")."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


class UnrunTile:
    def __init__(self, cols=64):
        self.cols = cols
        try:
            self.cols = 16
        except ValueError:
            pass
        setattr(self, "rows", 128)

    @T.inline
    def run(self, A: T.Buffer((128, 128), "float16")):
        A_smem = T.alloc_buffer((128, self.cols), "float16", scope="shared.dyn")
        Tx.copy_async(A_smem[:, :], A[0:128, 0:self.cols], dispatch="tma")
        B_smem = T.alloc_buffer((self.rows, 64), "float16", scope="shared.dyn")
        Tx.copy_async(B_smem[:, :], A[0:self.rows, 0:64], dispatch="tma")
