"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a tile
task that keeps a per-thread counter as a class attribute, in the megakernel GemmTile's form
(tools/extract/tile_cells.py): a helper declares `CellTile.idx = T.local_scalar("int32")`,
class_init stores START into it, and run reads it (A's rows), increments it (a store into the
register, as TVM's parser makes `self.idx += 1`) and reads it again (B's rows, one tile further).
At run's entry START is the first tile's value only (the driver runs run once per tile): bound
under the representative instance, unresolved with --instance none."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

START = 0


class CellTile:
    need_init = True
    idx = None

    def __init__(self, rows=64):
        self.rows = rows

    @classmethod
    def _members(cls):
        CellTile.idx = T.local_scalar("int32")

    @classmethod
    @T.inline
    def class_init(cls):
        cls._members()
        cls.idx = START

    @T.inline
    def run(self, A: T.Buffer((256, 64), "float16"), B: T.Buffer((256, 64), "float16")):
        A_smem = T.alloc_buffer((self.rows, 64), "float16", scope="shared.dyn")
        B_smem = T.alloc_buffer((self.rows, 64), "float16", scope="shared.dyn")
        Tx.copy_async(A_smem[:, :], A[self.idx * self.rows:self.idx * self.rows + self.rows, :], dispatch="tma")
        self.idx += 1
        Tx.copy_async(B_smem[:, :], B[self.idx * self.rows:self.idx * self.rows + self.rows, :], dispatch="tma")
