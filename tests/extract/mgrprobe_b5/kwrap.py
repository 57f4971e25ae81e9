"""Probe driver b5: the tile loop runs before `self.mgr.init()` (init stands before a second, empty
while loop).  The extractor walks init() before run (before the fix of 2026-12-03: exit 0).  Right: run waits on words no
mbarrier.init has set up (undefined behaviour; not complete)."""
from mgrprobe_b5.chunks import ChunkManager
from mgrprobe_b5.tiles import ProbeTile
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
        while self.valid():
            self.tiles[0].run(A, D)  # the tile loop runs before the set-up: its words are not initialised
        self.mgr.init()
        while self.valid():
            T.cuda.warp_sync()
