"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a tile
task whose class_init constructs plain objects of the file (`Bar(2, True)`, the megakernel's
Barriers form) and calls their methods through the class attribute (`cls.full.init()`): the
object's __init__ runs, its allocation `self.mbar` is the model buffer `full.mbar` (named after
the attribute holding it), and a TMA copy's `mbar=` is the address of one of its words.  ROWS
moves the copy's rows (past A's 128: not a model region); WAIT adds a raw mbarrier wait on that
word in one of two warp roles (its phases are not followed: the roles' order is not established)."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

ROWS = 128
WAIT = False


class Bar:
    def __init__(self, depth, p2c):
        self.depth = depth
        self.init_phase = 0 if p2c else 1

    @T.inline
    def init(self):
        self.mbar = T.alloc_buffer((self.depth,), "uint64", scope="shared.dyn")

    @T.inline
    def wait(self, idx, phase):
        T.ptx.mbarrier.try_wait(self.mbar.ptr_to([idx]), self.init_phase ^ phase)


class ObjTile:
    need_init = True

    @classmethod
    def class_init(cls):
        cls.full = Bar(2, True)
        cls.empty = Bar(2, False)
        cls.full.init()
        cls.empty.init()

    @T.inline
    def run(self, A: T.Buffer((128, 64), "float16")):
        warp_id = T.warp_id([4])
        A_smem = T.alloc_buffer((128, 64), "float16", scope="shared.dyn",
                                layout=T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(128, 64):(64, 1)])))
        if warp_id == 0:
            Tx.copy_async(A_smem[0:ROWS, :], A[0:ROWS, :], dispatch="tma", mbar=self.full.mbar.ptr_to([0]))
        elif warp_id == 1:
            if WAIT:
                self.full.wait(0, 0)
            T.cuda.warp_sync()
