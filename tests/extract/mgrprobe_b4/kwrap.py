"""Probe driver b4: two tile classes; each loop pass runs ProbeTile2 then ProbeTile.  Extracting
ProbeTile binds 'the CTA's first tile: words fresh, phase 1' (before the fix of 2026-12-03: exit 0), a state ProbeTile never sees
(ProbeTile2 completed phase 0 of words 0-3 and advanced first).  With PROBE=plus1b the parity-1
waits on words 1-3 block in truth."""
from mgrprobe_b4.chunks import ChunkManager
from mgrprobe_b4.tiles import ProbeTile
from mgrprobe_b4.tiles.tile2 import ProbeTile2
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
        self.tiles = [ProbeTile2(128), ProbeTile(128)]

    @T.inline
    def body(self, buf, A, D):
        self.set_manager(self.SMEM, 16384, buf.data)
        self.init_all(self.mgr)
        self.mgr.init()
        while self.valid():
            self.tiles[0].run(A, D)  # ProbeTile2 always runs first: ProbeTile never sees fresh words
            self.tiles[1].run(A, D)
