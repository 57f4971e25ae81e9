"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a tile
task whose class_init constructs an object of a class with a base the extraction does not read
(imported from TVM): its construction is not evaluated, and the copy whose `mbar=` it gives stays
unresolved, naming why."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx
from tvm.tirx.bench import CudaProfiler


class Bar(CudaProfiler):
    def __init__(self, depth):
        self.depth = depth

    @T.inline
    def init(self):
        self.mbar = T.alloc_buffer((self.depth,), "uint64", scope="shared.dyn")


class UnreadTile:
    need_init = True

    @classmethod
    def class_init(cls):
        cls.full = Bar(2)
        cls.full.init()

    @T.inline
    def run(self, A: T.Buffer((128, 64), "float16")):
        A_smem = T.alloc_buffer((128, 64), "float16", scope="shared.dyn")
        Tx.copy_async(A_smem[:, :], A[:, :], dispatch="tma", mbar=self.full.mbar.ptr_to([0]))
