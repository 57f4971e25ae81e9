"""Probe driver b1: `self.mgr.advance()` inside the tile loop before run.  The first tile runs with
phase = 0, not the 1 init() left; the extractor walks init() alone and claims phase = 1 (before the fix of 2026-12-03: exit 0).
Right: the tile's parity-0 waits on fresh words block (not complete)."""
from mgrprobe_b1.chunks import ChunkManager
from mgrprobe_b1.tiles import ProbeTile
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
        while self.valid():
            self.mgr.advance()  # in the loop: the first tile runs with phase 0, not 1
            self.tiles[0].run(A, D)
