"""The probes' driver in cpkg's form (written for tirx-verify's tests): set_manager, init_all, mgr.init(), then the tile loop."""
from mgrprobe_b0.chunks import ChunkManager
from mgrprobe_b0.tiles import ProbeTile
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
            self.tiles[0].run(A, D)
