"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
tile-task classes (tools/extract/tile_class.py) whose constructor may not return.

* `CheckedTile.__init__` raises when rows > 64 (rows defaults to 64: complete; `--param
  rows=128`: the file's own raise, and no method is walked);
* `ChainTile.__init__` builds another ChainTile through a method (`self.next = self.spawn()`),
  which recurses without end in Python: whether it returns is not known, so unresolved.
"""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


class CheckedTile:
    def __init__(self, rows=64):
        if rows > 64:
            raise ValueError("rows must be at most 64")
        self.rows = rows

    @T.inline
    def run(self, A: T.Buffer((128, 128), "float16")):
        A_smem = T.alloc_buffer((self.rows, 64), "float16", scope="shared.dyn")
        Tx.copy_async(A_smem[:, :], A[0:self.rows, 0:64], dispatch="tma")


class ChainTile:
    def __init__(self, rows=64):
        self.rows = rows
        self.next = self.spawn()

    def spawn(self):
        return ChainTile(self.rows)

    @T.inline
    def run(self, A: T.Buffer((128, 128), "float16")):
        A_smem = T.alloc_buffer((self.rows, 64), "float16", scope="shared.dyn")
        Tx.copy_async(A_smem[:, :], A[0:self.rows, 0:64], dispatch="tma")
