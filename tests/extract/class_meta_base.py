"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
tile-task class whose base is decorated `@T.meta_class`, as the megakernel's `Tile` is.

TVM's `T.meta_class` (apache/tvm 5d4dc87 python/tvm/tirx/script/builder/ir.py:2898-2945) returns
the class itself, only wrapping `__init__` / `__setattr__` / `__init_subclass__` and adding two
marker attributes: the base's class attributes (`need_init`, `MMA_K`) and methods read as
written.  `need_init` is the base's, so the driver's `class_init` runs and declares the TMEM
accumulator on the class; `--param NEED_INIT=False` makes the base's `need_init` False: class_init
is not walked and the MMA's `self.acc` is unresolved.
"""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

NEED_INIT = True


@T.meta_class
class TileBase:
    need_init = NEED_INIT
    MMA_K = 16

    def __init__(self):
        self.acc_cols = 64

    def init(self):
        pass


class MetaTile(TileBase):
    BLK_M, BLK_N, BLK_K = (128, 64, 64)

    def __init__(self, a_type="float16"):
        super().__init__()
        self.a_type = a_type

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
