"""The driver of cpkg/tiles/chunk_tile.py (written for tirx-verify's extraction tests): it builds the
manager, runs each tile's init with it, sets the manager up on the device (`self.mgr.init()`) and
then runs its tile loop, as the megakernel's moe.py:566-590 does."""
from cpkg.chunks import ChunkManager
from cpkg.tiles import ChunkTile
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
        self.tiles = [ChunkTile(128)]

    @T.inline
    def body(self, buf, A, D):
        self.set_manager(self.SMEM, 16384, buf.data)
        self.init_all(self.mgr)
        self.mgr.init()
        while self.valid():
            self.tiles[0].run(A, D)
