"""Adversarial probes of the extractor's manager words (written for tirx-verify's tests, not from
any kernel).  --param PROBE=... picks the body of warp 0 / warp 1; see ../README for each probe's
right answer (PTX: try_wait.parity(P) passes iff the word's current phase parity != P)."""
from mgrprobe_b1.chunks import ChunkManager
from tvm.script import tirx as T
from tvm.script import tirx as Tx

PROBE = "base"


class ProbeTile:
    def __init__(self, rows):
        self.rows = rows
        self.layout = T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(2, 128, 64):(8192, 64, 1)]))

    def __str__(self):
        return f"ProbeTile-{id(self):x}"

    def init(self, mgr: ChunkManager):
        self.mgr = mgr
        self.A_smem = mgr.alloc((2, self.rows, 64), "float16", align=1024, layout=self.layout)
        self.D_smem = mgr.alloc((2, self.rows, 64), "float16", align=1024, layout=self.layout)

    @T.inline
    def run(self, A: T.Buffer((128, 64), "float16"), D: T.Buffer((128, 64), "float16")):
        warp_id = T.warp_id([8])
        lane_id = T.lane_id([32])
        if PROBE == "rootwait":
            # every thread, outside any warp role: parity 0 on fresh word 0 blocks forever (no arrive before)
            T.ptx.mbarrier.try_wait(self.mgr.words.ptr_to([0]), 0)
        if PROBE == "root":
            # every warp, outside roles: advance (phase 0) then lanes 0-1 wait parity 0 on fresh words: blocks
            self.mgr.advance()
            self.mgr.wait_mine(lane_id, self.A_smem)
        if PROBE == "regrole":
            # warp 1 alone flips its (thread-local) phase register: warp 1 then waits parity 0 on fresh
            # words 2-3 (blocks); warp 0 still waits parity 1 on words 0-1 (passes)
            if warp_id == 1:
                self.mgr.advance()
        if warp_id == 0:
            if PROBE == "plus1b":
                # lanes 0-2 wait on fresh words 1-3 with parity 1: every wait passes at once, no order
                if lane_id < 3:
                    T.ptx.mbarrier.try_wait(self.mgr.words.ptr_to([lane_id + 1]), 1)
            elif PROBE == "elect":
                # the elected lane (the lowest active one, lane 0) arrives on words[lane_id] = word 0
                if T.ptx.elect_sync():
                    T.ptx.mbarrier.arrive(self.mgr.words.ptr_to([lane_id]))
            elif PROBE == "oobarr":
                # lanes 0-7 arrive on words[lane_id]: words 4-7 are past the manager's 4 words (not
                # mbarriers the set-up initialised: undefined behaviour)
                if lane_id < 8:
                    T.ptx.mbarrier.arrive(self.mgr.words.ptr_to([lane_id]))
            elif PROBE == "neg":
                # lanes 0-1 wait on words[lane_id - 1]: lane 0 addresses the word before the buffer
                if lane_id < 2:
                    T.ptx.mbarrier.try_wait(self.mgr.words.ptr_to([lane_id - 1]), 1)
            elif PROBE == "div":
                # lanes 0-3 wait on words[lane_id / 2] (a true division: 0.5, 1.5 are no word index)
                if lane_id < 4:
                    T.ptx.mbarrier.try_wait(self.mgr.words.ptr_to([lane_id / 2]), 1)
            elif PROBE == "arr32":
                # 32 lanes arrive on word 0 (count 1): 32 phases complete, current phase 32 (parity 0)
                T.ptx.mbarrier.arrive(self.mgr.words.ptr_to([0]))
                T.ptx.mbarrier.try_wait(self.mgr.words.ptr_to([0]), 0)  # blocks forever
            elif PROBE == "mod2":
                # lanes 0-3 arrive on word lane%2: each of words 0,1 gets 2 arrivals, current phase 2
                if lane_id < 4:
                    T.ptx.mbarrier.arrive(self.mgr.words.ptr_to([lane_id % 2]))
                T.ptx.mbarrier.try_wait(self.mgr.words.ptr_to([0]), 0)  # parity 0, phase 2: blocks
            elif PROBE == "plus1":
                # lanes 0-3 wait on word lane+1 (fresh, parity 1): lane 3 reads words[4], past the 4 words
                if lane_id < 4:
                    T.ptx.mbarrier.try_wait(self.mgr.words.ptr_to([lane_id + 1]), 1)
            else:
                self.mgr.wait_mine(lane_id, self.A_smem)
            T.cuda.warp_sync()
            if T.ptx.elect_sync():
                Tx.copy_async(self.A_smem[0, :, :], A[0:128, :], dispatch="tma")
                T.ptx.cp_async.bulk.commit_group()
                T.ptx.cp_async.bulk.wait_group(0)
                Tx.copy_async(D[0:128, :], self.A_smem[0, :, :], dispatch="tma")
            if PROBE == "rolemerge":
                self.mgr.advance()  # warp 0's own (thread-local) phase register: now 0
        elif warp_id == 1:
            if PROBE == "elect" or PROBE == "oobarr":
                T.ptx.mbarrier.try_wait(self.mgr.words.ptr_to([0]), 0)  # passes after warp 0's arrive
            self.mgr.wait_mine(lane_id, self.D_smem)
            self.mgr.arrive_mine(lane_id, self.D_smem)
        T.tvm_storage_sync("shared")
        if PROBE == "lonerole":
            # warp 0 alone (a lone `if`, no sibling role) waits parity 0 on fresh word 0: blocks forever
            if warp_id == 0:
                T.ptx.mbarrier.try_wait(self.mgr.words.ptr_to([0]), 0)
        if PROBE == "rolemerge":
            # warp 0 (phase 0) waits parity 0 on word 0, still fresh (its arrive is below): blocks forever
            if warp_id == 0:
                T.ptx.mbarrier.try_wait(self.mgr.words.ptr_to([0]), self.mgr.phase[0])
            elif warp_id == 1:
                T.cuda.warp_sync()
        if warp_id == 0:
            self.mgr.arrive_mine(lane_id, self.A_smem)
        self.mgr.advance()
