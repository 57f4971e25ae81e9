"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a tile
task whose buffer comes from the driver's `body`, which two prim_funcs call with different
buffers (rpkg/driver.py: X of [batch, 64] and W of [64, 64]): a choice, unresolved naming both."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


class ChoiceTile:
    def __init__(self, K):
        self.K = K

    @T.inline
    def run(self, X):
        X_smem = T.alloc_buffer((64, self.K), "float16", scope="shared.dyn")
        Tx.copy_async(X_smem[:, :], X[0:64, :], dispatch="tma")
