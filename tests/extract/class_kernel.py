"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
kernel written as the methods of a class, in the style of a megakernel tile task
(tools/extract/tile_class.py).

* `__init__` sets the configuration as instance attributes from its arguments (`N` has no
  default: the file does not construct the class, so `--param N=...` gives it) and builds a
  layout from them;
* class attributes (`SMEM_PIPE_DEPTH`, a tuple assignment) and an attribute of the base class;
* `class_init` (a classmethod, walked because `need_init` is True) declares the TMEM
  accumulator on the class; `init` allocates the shared buffers through a helper method;
  `run` issues TMA loads and an MMA through `self._load` / `self._mma`.
"""
from tvm.backend.cuda.operator.tile_primitive.tma_utils import SwizzleMode, mma_shared_layout
from tvm.script import tirx as T
from tvm.script import tirx as Tx


class TileBase:
    need_init = True
    MMA_K = 16

    def __init__(self):
        self.acc_cols = 64


class ClassTile(TileBase):
    SMEM_PIPE_DEPTH = 2
    BLK_N, BLK_K = (64, 64)

    def __init__(self, N, BLK_M=128, a_type="float16", acc_cols=64):
        super().__init__()
        self.N = N
        self.BLK_M = BLK_M
        self.a_type = a_type
        self.acc_cols = acc_cols
        self.A_layout = mma_shared_layout(a_type, SwizzleMode.SWIZZLE_128B_ATOM,
                                          (self.SMEM_PIPE_DEPTH, BLK_M, self.BLK_K))
        self.B_layout = mma_shared_layout(a_type, SwizzleMode.SWIZZLE_128B_ATOM,
                                          (self.SMEM_PIPE_DEPTH, self.BLK_N, self.BLK_K))

    @classmethod
    @T.inline
    def class_init(cls):
        cls.acc = T.decl_buffer((128, 64), "float32", scope="tmem", allocated_addr=0,
                                layout=T.TileLayout(T.S[(128, 64):(1 @ T.TLane, 1 @ T.TCol)]))

    def _alloc_buffer(self):
        self.A_smem = T.alloc_buffer((self.SMEM_PIPE_DEPTH, self.BLK_M, self.BLK_K), self.a_type,
                                     scope="shared.dyn", layout=self.A_layout)
        self.B_smem = T.alloc_buffer((self.SMEM_PIPE_DEPTH, self.BLK_N, self.BLK_K), self.a_type,
                                     scope="shared.dyn", layout=self.B_layout)

    @T.inline
    def init(self):
        self._alloc_buffer()

    @T.inline
    def _load(self, ks, A, B, m_idx):
        Tx.copy_async(self.A_smem[ks, :, :], A[m_idx * self.BLK_M:(m_idx + 1) * self.BLK_M,
                                              ks * self.BLK_K:(ks + 1) * self.BLK_K],
                      dispatch="tma")
        Tx.copy_async(self.B_smem[ks, :, :], B[0:self.BLK_N, ks * self.BLK_K:(ks + 1) * self.BLK_K],
                      dispatch="tma")

    @T.inline
    def _mma(self, ks):
        Tx.gemm_async(self.acc[:, 0:self.acc_cols], self.A_smem[ks, :, :], self.B_smem[ks, :, :],
                      accum=ks > 0, dispatch="tcgen05")

    @T.inline
    def run(self, A: T.Buffer((128, 128), "float16"), B: T.Buffer((self.N, 128), "float16"), m_idx=0):
        for ks in T.unroll(self.SMEM_PIPE_DEPTH):
            self._load(ks, A, B, m_idx)
            self._mma(ks)
