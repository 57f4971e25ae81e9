"""A chunk manager written for tirx-verify's extraction tests (not from any kernel repository), in
the megakernel SmemManager form (a copy of cpkg/chunks.py for the probes, plus set_phase).
and, set up on the device by `init`, one mbarrier word per chunk and a phase register.  A tile's
lane l of a warp waits on / arrives at word l when chunk l is one of its buffer's chunks."""
from tvm.script import tirx as T


@T.meta_class
class ChunkManager:
    def __init__(self, total, chunk, ptr):
        self.chunk = chunk
        self.num = total // chunk
        self.regular = T.SMEMPool(ptr)
        self.persistent = T.SMEMPool(ptr)
        self.persistent.move_base_to(chunk * self.num)
        self.bufs = {}
        self.cur = ""

    def set_tile(self, tile):
        self.cur = str(tile)
        self.regular.move_base_to(0)

    def alloc(self, shape, dtype, align=0, layout="default", method="exclusive"):
        pool = self.regular if method == "exclusive" else self.persistent
        if method != "exclusive":
            return pool.alloc(shape, dtype, None, "shared.dyn", align, layout)
        beg = (pool.offset + align - 1) // align * align if align > 0 else pool.offset
        buf = pool.alloc(shape, dtype, None, "shared.dyn", align, layout)
        self.bufs[buf] = (beg // self.chunk, (pool.offset - 1) // self.chunk)
        return buf

    @T.inline
    def init(self):
        tid = T.thread_id([256])
        self.words = self.alloc((self.num,), "uint64", align=8, method="persistent")
        self.phase = T.alloc_local([1], "int32")
        self.phase[0] = 1
        if tid == 0:
            for i in T.serial(self.num):
                T.ptx.mbarrier.init(self.words.ptr_to([i]), 1)
        T.tvm_storage_sync("shared")

    @T.inline
    def wait_mine(self, lane_id, buf):
        first, last = self.bufs[buf]
        if (lane_id >= first) & (lane_id <= last):
            T.ptx.mbarrier.try_wait(self.words.ptr_to([lane_id]), self.phase[0])

    @T.inline
    def arrive_mine(self, lane_id, buf):
        first, last = self.bufs[buf]
        if (lane_id >= first) & (lane_id <= last):
            T.ptx.mbarrier.arrive(self.words.ptr_to([lane_id]))

    @T.inline
    def advance(self):
        self.phase[0] = self.phase[0] ^ 1

    @T.inline
    def set_phase(self, v):
        self.phase[0] = v
