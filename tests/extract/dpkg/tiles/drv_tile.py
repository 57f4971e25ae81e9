"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a tile
task whose `__init__` arguments have no defaults; the file does not construct it, the package's
wrapper (dpkg/wrapper.py) does, once: `DrvTile(self.A_TYPE, self.blk_n, acc_cols=self.acc)`,
the wrapper's class attribute and two values its `__init__` reads from a configuration dict."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


class DrvTile:
    need_init = True
    BLK_M, BLK_K = (128, 64)

    def __init__(self, a_type, BLK_N, acc_cols):
        self.a_type = a_type
        self.BLK_N = BLK_N
        self.acc_cols = acc_cols

    @classmethod
    @T.inline
    def class_init(cls):
        cls.acc = T.decl_buffer((128, 64), "float32", scope="tmem", allocated_addr=0,
                                layout=T.TileLayout(T.S[(128, 64):(1 @ T.TLane, 1 @ T.TCol)]))

    @T.inline
    def run(self, A: T.Buffer((128, 64), "float16"), B: T.Buffer((64, 64), "float16")):
        A_smem = T.alloc_buffer((self.BLK_M, self.BLK_K), self.a_type, scope="shared.dyn",
                                layout=T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(128, 64):(64, 1)])))
        B_smem = T.alloc_buffer((self.BLK_N, self.BLK_K), self.a_type, scope="shared.dyn",
                                layout=T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(64, 64):(64, 1)])))
        Tx.copy_async(A_smem[:, :], A[:, :], dispatch="tma")
        Tx.copy_async(B_smem[:, :], B[:, :], dispatch="tma")
        Tx.gemm_async(self.acc[:, 0:self.acc_cols], A_smem[:, :], B_smem[:, :], accum=False,
                      dispatch="tcgen05")
