"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a tile
task whose `run` parameters are not annotated; the package's driver (rpkg/driver.py) passes them:
`m_idx` a field of its tile scheduler, A and B global buffers of its prim_func, through
`run_tile`'s *args, two driver methods and the match_buffers of two prim_funcs (both pass the
same buffers), A's rows the batch size: an attribute the compile helper stores from run_test's
parameter, which the runner takes from CONFIGS (CONFIGS[0]: 128)."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


class RunTile:
    def __init__(self, K, dtype):
        self.K = K
        self.dtype = dtype

    @T.inline
    def run(self, m_idx, A, B):
        A_smem = T.alloc_buffer((128, self.K), self.dtype, scope="shared.dyn",
                                layout=T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(128, 64):(64, 1)])))
        B_smem = T.alloc_buffer((64, self.K), self.dtype, scope="shared.dyn",
                                layout=T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(64, 64):(64, 1)])))
        Tx.copy_async(A_smem[:, :], A[m_idx * 128:m_idx * 128 + 128, :], dispatch="tma")
        Tx.copy_async(B_smem[:, :], B[:, :], dispatch="tma")
