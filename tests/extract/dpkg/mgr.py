"""A shared-memory manager written for tirx-verify's extraction tests (not from any kernel
repository), in the form of the megakernel's SmemManager: two TVM SMEMPools over the driver's
pointer, per-tile bookkeeping keyed by str(tile), allocations recorded by buffer, and a wait that
asserts the buffer is one of its own."""
from tvm.script import tirx as T


@T.meta_class
class Manager:
    def __init__(self, total, chunk, ptr):
        self.total = total
        self.chunk = chunk
        self.regular = T.SMEMPool(ptr)
        self.persistent = T.SMEMPool(ptr)
        self.persistent.move_base_to(chunk * (total // chunk - 1))
        self.pools = {"exclusive": self.regular, "persistent": self.persistent}
        self.tiles = {}
        self.bufs = {}
        self.cur = ""

    def set_tile(self, tile):
        self.cur = str(tile)
        self.tiles[self.cur] = [0, {"exclusive": []}, [0 for _ in range(self.total // self.chunk)]]
        self.regular.move_base_to(0)

    def alloc(self, shape, dtype="float32", align=0, layout="default", method="exclusive"):
        pool = self.pools[method]
        beg = pool.offset
        if align > 0:
            beg = (beg + align - 1) // align * align
        buf = pool.alloc(shape, dtype, None, "shared.dyn", align, layout)
        end = pool.offset
        assert end - beg > 0, "an empty allocation"
        if method == "exclusive":
            self.tiles[self.cur][1]["exclusive"].append((beg, end))
            self.tiles[self.cur][2][(end - 1) // self.chunk] += 1
            self.bufs[buf] = (beg, end)
        return buf

    @T.inline
    def wait(self, buf):
        assert buf in self.bufs, "a buffer the manager did not allocate"
