"""Probe driver b2: `self.mgr.phase[0] = 0` (a plain assignment) after init() and before the loop.
The extractor walks init() alone and binds phase = 1 (before the fix of 2026-12-03: exit 0).  Right: phase 0 at run's entry,
the tile's waits are parity 0 on fresh words and block (not complete)."""
from mgrprobe_b2.chunks import ChunkManager
from mgrprobe_b2.tiles import ProbeTile
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
        self.mgr.init()
        self.mgr.phase[0] = 0  # a plain assignment before the loop: the first tile runs with phase 0
        while self.valid():
            self.tiles[0].run(A, D)
