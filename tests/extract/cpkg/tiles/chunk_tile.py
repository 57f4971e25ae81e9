"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a tile
task whose two shared buffers take chunks 0-1 (A_smem) and 2-3 (D_smem) of its manager
(cpkg/chunks.py), each chunk guarded by one of the manager's mbarrier words, which the driver
(cpkg/kwrap.py) sets up on the device before its tile loop (mgr_init.py).  Warp 0 waits with one
word per lane on A_smem's chunks, loads A through it and stores it to D; warp 1 waits on and
releases D_smem's chunks; after both, warp 0 releases A_smem's chunks and every thread advances the
manager's phase.  On the CTA's first tile every word is fresh and the waits (parity 1) pass at once.
--param ROUND=block: warp 1 advances the phase before its wait (parity 0 on a fresh word: it would
block until another lane's arrive -- lanes apart, not decided); ROUND=twice: warp 1 waits again
after its release and an advance (the wait passes on a completed phase -- it orders the lane after
an arrive, which the walk, moving the warp as one, does not decide)."""
from cpkg.chunks import ChunkManager
from tvm.script import tirx as T
from tvm.script import tirx as Tx

ROUND = "once"


class ChunkTile:
    def __init__(self, rows):
        self.rows = rows
        self.layout = T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(2, 128, 64):(8192, 64, 1)]))

    def __str__(self):
        return f"ChunkTile-{id(self):x}"

    def init(self, mgr: ChunkManager):
        self.mgr = mgr
        self.A_smem = mgr.alloc((2, self.rows, 64), "float16", align=1024, layout=self.layout)
        self.D_smem = mgr.alloc((2, self.rows, 64), "float16", align=1024, layout=self.layout)

    @T.inline
    def run(self, A: T.Buffer((128, 64), "float16"), D: T.Buffer((128, 64), "float16")):
        warp_id = T.warp_id([8])
        lane_id = T.lane_id([32])
        if warp_id == 0:
            self.mgr.wait_mine(lane_id, self.A_smem)
            T.cuda.warp_sync()
            if T.ptx.elect_sync():
                Tx.copy_async(self.A_smem[0, :, :], A[0:128, :], dispatch="tma")
                T.ptx.cp_async.bulk.commit_group()
                T.ptx.cp_async.bulk.wait_group(0)
                Tx.copy_async(D[0:128, :], self.A_smem[0, :, :], dispatch="tma")
        elif warp_id == 1:
            if ROUND == "block":
                self.mgr.advance()
            self.mgr.wait_mine(lane_id, self.D_smem)
            self.mgr.arrive_mine(lane_id, self.D_smem)
            if ROUND == "twice":
                self.mgr.advance()
                self.mgr.wait_mine(lane_id, self.D_smem)
        T.tvm_storage_sync("shared")
        if warp_id == 0:
            self.mgr.arrive_mine(lane_id, self.A_smem)
        self.mgr.advance()
