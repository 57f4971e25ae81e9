"""Probe driver b3: after init() thread 0 arrives on mgr.words[0] (count 1: phase 0 completes), then
`self.mgr.set_phase(1)` (an argument: not walked, silently).  The extractor binds 'no phase
completed' (before the fix of 2026-12-03: exit 0).  Right: word 0 is in phase 1, lane 0's parity-1 wait on it blocks."""
from mgrprobe_b3.chunks import ChunkManager
from mgrprobe_b3.tiles import ProbeTile
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
        tid = T.thread_id([256])
        if tid == 0:
            T.ptx.mbarrier.arrive(self.mgr.words.ptr_to([0]))  # word 0 completes phase 0 before the first tile
        T.tvm_storage_sync("shared")
        self.mgr.set_phase(1)  # a set-up call with an argument
        while self.valid():
            self.tiles[0].run(A, D)
