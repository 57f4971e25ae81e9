"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a tile
task whose shared buffers come from the driver's manager (dpkg/mgr.py), as the megakernel's
GemmTile's come from SmemManager.alloc.  The package's driver (dpkg/mwrap.py) constructs the tile
and the manager; the manager's own code places A_smem at byte 0 and B_smem after it (align 1024)
in its regular pool, which set_tile moves to 0 before init, and `flag` in its persistent pool,
whose offset the driver's other tiles may have moved (not known)."""
from dpkg.mgr import Manager
from tvm.script import tirx as T
from tvm.script import tirx as Tx

ALIGN = 1024


class MgrTile:
    need_init = True

    def __init__(self, rows):
        self.rows = rows
        self.A_layout = T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(64, 64):(64, 1)]))

    def __str__(self):
        return f"MgrTile-{id(self):x}"

    @classmethod
    def class_init(cls, mgr: Manager):
        cls.flag = mgr.alloc((1,), "uint32", align=4, method="persistent")

    def init(self, mgr: Manager):
        self.mgr = mgr
        self.A_smem = mgr.alloc((self.rows, 64), "float16", align=ALIGN, layout=self.A_layout)
        self.B_smem = mgr.alloc((64, 64), "float16", align=ALIGN, layout=self.A_layout)

    @T.inline
    def run(self, A: T.Buffer((128, 64), "float16"), B: T.Buffer((64, 64), "float16")):
        self.mgr.wait(self.A_smem)
        Tx.copy_async(self.A_smem[:, :], A[0:self.rows, :], dispatch="tma")
        Tx.copy_async(self.B_smem[:, :], B[:, :], dispatch="tma")
