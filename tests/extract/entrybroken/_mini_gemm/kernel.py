# Test kernel written for tirx-verify's extraction tests (not from any kernel repository): the
# kernel body of the mini_gemm package.  build_kernel(spec) has no caller in this file; the
# package's entry modules (../mini_gemm.py, ../mini_bmm.py) call it through spec.build_kernel.
# The operand layout comes from a helper's tuple return, (layout, stride offset).
from tvm.script import tirx as T
from tvm.tirx.layout import S, TileLayout

from .spec import BLOCK_K, Spec


def build_kernel(spec: Spec):
    rows = spec.rows
    stages = spec.stages

    def _operand_layout(n_rows, n_stages):
        sdo = 8 * BLOCK_K // 16
        return TileLayout(S[(n_stages, n_rows, BLOCK_K):(n_rows * BLOCK_K, BLOCK_K, 1)]), sdo

    a_layout, a_sdo = _operand_layout(rows, stages)

    @T.prim_func
    def mini_gemm(A: T.Buffer((1024, BLOCK_K), "float16")):
        smem = T.alloc_buffer((stages, rows, BLOCK_K), "float16", scope="shared.dyn", layout=a_layout)
        for s in T.unroll(stages):
            T.copy(smem[s, :, :], A[s * rows:(s + 1) * rows, :])

    return mini_gemm
