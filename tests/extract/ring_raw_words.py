"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): the
2-slot ring of ring_wait_order.py, but its mbarriers are raw words of plain shared uint64 buffers
driven by raw PTX (the megakernel's Barriers form: a class holding `self.mbar`, init under
`tid == 0` in a `T.serial` loop, waits by `T.ptx.mbarrier.try_wait`).  The producer (warp 4, first in
the source) loads LOADS tiles: `empty.wait` (init_phase 1), a TMA load completing on `full`'s word,
`mbarrier.arrive.expect_tx`; the consumer (warp 0) waits on `full`, stores the slot and releases it
on `empty`'s word.  Walked as coroutines (role_sched.py) with the words' phases followed
(raw_phase.py), the producer's third load (slot 0 again) waits for the consumer's release:
load 0, load 1, store 0, load 2, store 1, store 2.
--param FORM=arrive (default: plain mbarrier.arrive), commit (tcgen05.commit(ptr, cta_group=1)),
remote0 (mbarrier.arrive(ptr, remote=0, pred=True): CTA rank 0's word, this CTA's under the
representative instance), remote1 (rank 1's word: not walked, the waits on it undecided), none (no
release: a deadlock, listed unresolved, never a hang).
--param REG_PHASE=True: both roles keep the phase in one `T.alloc_buffer((1,), "int32", scope="local")`
declared before the roles (the megakernel's `GemmTile.phase`), flipped by `ph[0] = ph[0] ^ 1` after
slot 1: element 0 is a per-thread scalar (reg_cell.py), each role its own copy -- the same order.
--param ESCAPE=True (with REG_PHASE): the producer also passes `T.address_of(alias[0])` (alias: another
name bound to the buffer before its first store) to an instruction, which may write it: the register is no longer followed, its waits' parity is not fixed,
listed unresolved.
The poll-then-wait shape (raw_phase.poll_shape) is not exercised here: a `done = poll(...)`
assigned in this file's helper is not an undecided condition to the walk (the branch on it is walked
as decided), so no case asserts it."""
from tvm.script import tirx as T

LOADS = 3
FORM = "arrive"
REG_PHASE = False
ESCAPE = False

from tvm.script import tirx as Tx


class Words:
    def __init__(self, depth, p2c):
        self.depth = depth
        self.init_phase = 0 if p2c else 1

    @T.inline
    def init(self, count):
        tid = T.thread_id([256])
        self.mbar = T.alloc_buffer((self.depth,), "uint64", scope="shared.dyn")
        if tid == 0:
            for i in T.serial(self.depth):
                T.ptx.mbarrier.init(self.mbar.ptr_to([i]), count)

    @T.inline
    def wait(self, idx, phase):
        T.ptx.mbarrier.try_wait(self.mbar.ptr_to([idx]), self.init_phase ^ phase)


class RingTile:
    need_init = True

    @classmethod
    def class_init(cls):
        cls.full = Words(2, True)
        cls.empty = Words(2, False)
        cls.full.init(1)
        cls.empty.init(1)

    @T.inline
    def run(self, A: T.Buffer((512, 64), "float16"), D: T.Buffer((512, 64), "float16")):
        wg_id = T.warpgroup_id([2])
        warp_id = T.warp_id_in_wg([4])
        A_smem = T.alloc_buffer((2, 128, 64), "float16", scope="shared.dyn",
                                layout=T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(2, 128, 64):(8192, 64, 1)])))

        ph = T.alloc_buffer((1,), "int32", scope="local")
        alias = ph
        ph[0] = 0

        @T.inline
        def producer():
            for i in T.unroll(LOADS):
                if REG_PHASE:
                    self.empty.wait(i % 2, ph[0])
                    if ESCAPE:
                        T.ptx.mov.b32(T.address_of(alias[0]), 0)
                    if i % 2 == 1:
                        ph[0] = ph[0] ^ 1
                else:
                    self.empty.wait(i % 2, (i // 2) & 1)
                if T.ptx.elect_sync():
                    Tx.copy_async(A_smem[i % 2, :, :], A[i * 128:(i + 1) * 128, :], dispatch="tma",
                                  mbar=self.full.mbar.ptr_to([i % 2]))
                    T.ptx.mbarrier.arrive.expect_tx(self.full.mbar.ptr_to([i % 2]), 128 * 64 * 2)

        @T.inline
        def consumer():
            for i in T.unroll(LOADS):
                if REG_PHASE:
                    self.full.wait(i % 2, ph[0])
                    if i % 2 == 1:
                        ph[0] = ph[0] ^ 1
                else:
                    self.full.wait(i % 2, (i // 2) & 1)
                if T.ptx.elect_sync():
                    Tx.copy_async(D[i * 128:(i + 1) * 128, :], A_smem[i % 2, :, :], dispatch="tma")
                    if FORM == "arrive":
                        T.ptx.mbarrier.arrive(self.empty.mbar.ptr_to([i % 2]))
                    elif FORM == "commit":
                        T.ptx.tcgen05.commit(self.empty.mbar.ptr_to([i % 2]), cta_group=1)
                    elif FORM == "remote0":
                        T.ptx.mbarrier.arrive(self.empty.mbar.ptr_to([i % 2]), remote=0, pred=True)
                    elif FORM == "remote1":
                        T.ptx.mbarrier.arrive(self.empty.mbar.ptr_to([i % 2]), remote=1, pred=True)

        if wg_id == 1:
            if warp_id == 0:
                producer()
        else:
            if warp_id == 0:
                consumer()
