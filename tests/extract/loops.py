# Written for tirx-verify's extraction tests: loops over a range the source fixes are walked
# iteration by iteration; kern registers (K.local_scalar(init=), K.assign) hold known values;
# a helper from a sibling module; an instruction text built by an f-string; a helper that only
# issues ops on its operands is not a kernel of its own.
from tvm.script import tirx as T
from tvm.script import tirx as Tx

import tirx_kernels.kern as K

from . import loop_helpers as _h

CTA_GROUP = 1
STAGES = _h.STAGES


def _issue(dst, src):
    Tx.copy_async(dst, src)


@T.prim_func
def kernel(A: T.Buffer((1024, 64), "float16"), M: T.int32):
    wg_id = T.warpgroup_id([1])
    warp_id = T.warp_id_in_wg([4])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc((1,), "uint32")
    Asmem = pool.alloc_tcgen05_mma_AB((STAGES, _h.ROWS, 64), "float16")
    for stage in T.unroll(STAGES):
        Tx.copy_async(Asmem[stage, :, :], A[stage * 128:stage * 128 + 128, :])
    for stage in range(STAGES):
        _h.load_stage(Asmem, A, stage)
    row = K.local_scalar("int32", init=256)
    K.assign(row, row + 128)
    Tx.copy_async(Asmem[0, :, :], A[row:row + 128, :])
    for k in T.serial(M // 64):
        Tx.copy_async(Asmem[1, :, :], A[k * 128:k * 128 + 128, :])
    if warp_id == 0:
        T.ptx[f"tcgen05.dealloc.cta_group::{CTA_GROUP}.sync.aligned.b32"](tmem_addr[0], T.uint32(128))
