"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): two
tile-task classes in one file (tools/extract/tile_class.py).  A model describes one kernel, so
extract refuses the file without --function naming the class."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


class LoadTile:
    def __init__(self, rows=64):
        self.rows = rows

    @T.inline
    def run(self, A: T.Buffer((64, 64), "float16")):
        S = T.alloc_buffer((self.rows, 64), "float16", scope="shared.dyn")
        Tx.copy_async(S[:, :], A[0:self.rows, :], dispatch="tma")


class StoreTile(LoadTile):
    @T.inline
    def run(self, A: T.Buffer((64, 64), "float16")):
        S = T.alloc_buffer((self.rows, 64), "float16", scope="shared.dyn")
        Tx.copy_async(A[0:self.rows, :], S[:, :], dispatch="tma")
