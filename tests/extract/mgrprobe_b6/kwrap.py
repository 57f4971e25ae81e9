"""Probe driver b6: `self.mgr.init()` under `if self.SMEM < 0:` (never true) with its own while loop;
the real tile loop follows.  The extractor walks init() (before the fix of 2026-12-03: exit 0).  Right: words never initialised,
the wait is not fixed (not complete)."""
from mgrprobe_b6.chunks import ChunkManager
from mgrprobe_b6.tiles import ProbeTile
from tvm.script import tirx as T


class KWrapper:
    SMEM = 66560

    def set_manager(self, total, chunk, ptr):
        self.mgr = ChunkManager(total, chunk, ptr)

    def init_all(self, mgr: ChunkManager):
        for tile in self.tiles:
            mgr.set_tile(tile)
            tile.init(mgr)

    def build(self):
        self.tiles = [ProbeTile(128)]

    @T.inline
    def body(self, buf, A, D):
        self.set_manager(self.SMEM, 16384, buf.data)
        self.init_all(self.mgr)
        if self.SMEM < 0:  # never true: the set-up never runs
            self.mgr.init()
            while self.valid():
                T.cuda.warp_sync()
        while self.valid():
            self.tiles[0].run(A, D)
