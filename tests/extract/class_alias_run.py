"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): two
tile-task classes (tools/extract/tile_class.py), the second reusing the first's `run` by a class
attribute (`run = FirstTile.run`).  Both are tile tasks, so the file is refused without
--function; `--function SecondTile` leaves its `run` unresolved (an assignment, not a def)."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


class FirstTile:
    @T.inline
    def run(self, A: T.Buffer((128, 128), "float16")):
        A_smem = T.alloc_buffer((128, 64), "float16", scope="shared.dyn")
        Tx.copy_async(A_smem[:, :], A[0:128, 0:64], dispatch="tma")


class SecondTile:
    run = FirstTile.run
