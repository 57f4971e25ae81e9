"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a tile
task the driver constructs inside `self._keep(...)`, a method that returns nothing, and never
binds to an attribute: which call of run is its is not followed, so its buffer stays unresolved."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


class KeepTile:
    def __init__(self, K):
        self.K = K

    @T.inline
    def run(self, X):
        X_smem = T.alloc_buffer((64, self.K), "float16", scope="shared.dyn")
        Tx.copy_async(X_smem[:, :], X[0:64, :], dispatch="tma")
