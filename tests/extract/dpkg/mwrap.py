"""The driver of dpkg/tiles/mgr_tile.py (written for tirx-verify's extraction tests): it builds
the manager once, over its shared buffer's pointer, and calls each tile's init and class_init
with it after telling the manager which tile allocates (as the megakernel's base.py does)."""
from dpkg.mgr import Manager
from dpkg.tiles import MgrTile


class MWrapper:
    SMEM = 32768

    def set_manager(self, total, chunk, ptr):
        self.mgr = Manager(total, chunk, ptr)

    def body(self, buf):
        self.set_manager(self.SMEM, 8192, buf.data)
        self.init_all(self.mgr)

    def init_all(self, mgr: Manager):
        for tile in self.tiles:
            mgr.set_tile(tile)
            tile.init(mgr)
        for cls in self.classes:
            mgr.set_tile(cls)
            cls.class_init(mgr)

    def build(self):
        self.tiles = [MgrTile(64)]
