"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a kern
kernel whose consumer role comes first in the source.  `compute` (warps 0-3) waits on `ready`
(a TMABar: its first wait blocks) and then reads the whole tile with ldmatrix; `loader` (warp 4), written
after it, waits on `free` (declared with phase_offset=1: its first wait passes at once) and fills
the tile with a TMA load that completes `ready`.  The model's one pass must put the load before
the reads (role_order.py); kernel.coverage then passes.  The grid is two-dimensional, so
`K.cta_id()` is a pair of ids (0, 0 at CTA 0); the loader's row uses the second.  Under --param
EMPTY_OFFSET=0 the loader's wait on `free` would block too (a cycle): the source order stays and
kernel.coverage finds the reads before the write."""
import ctypes

import torch

import tirx_kernels.kern as K

EMPTY_OFFSET = 1
_TMA = "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"


def _make():
    @K.kernel(warps=8, arch="sm_100a", grid=(2, 3))
    def ordered(a_map: K.TensorMap, rows: K.i32):
        bx, by = K.cta_id()
        smem = K.smem_pool()
        ready = K.TMABar(smem, 1)
        free = K.MBarrier(smem, 1, phase_offset=EMPTY_OFFSET)
        tile = smem.alloc((1, 16, 64), K.bf16, swizzle=K.SW128B)
        smem.commit()
        lane = K.lane_id()
        spec = K.specialize()
        compute = spec.role("compute", warps=range(4))
        loader = spec.role("loader", warps=range(4, 5))
        with compute:
            ready.wait(0, 0)
            for c in range(8):
                frag = K.alloc_local((2,), "uint32")
                K.ptx.ldmatrix.sync.aligned.m8n8.x2.shared.b16(frag[0], frag[1], tile[0].m8n8(lane % 16, c * 8))
            free.arrive(0)
        with loader:
            free.wait(0, 0)
            with K.If(K.cuda.elect_sync()), K.Then():
                K.ptx[_TMA](tile[0].ptr_to(0, 0), K.address_of(a_map), 0, by * 16, ready.ptr_to([0]))

    return ordered


class _Holder:
    def __init__(self):
        self.ptr = ctypes.c_void_p(0)


def run_test(rows=64):
    import tvm

    a = torch.empty((rows, 64), dtype=torch.bfloat16, device="cuda")
    holder = _Holder()
    encode = tvm.get_global_func("runtime.cuTensorMapEncodeTiled")
    encode(holder.ptr, "bfloat16", 2, ctypes.c_void_p(a.data_ptr()), 64, rows, a.stride(0) * 2, 64, 16, 1, 1, 0,
           3, 0, 0)
    kernel = tvm.compile(_make(), target="cuda")
    kernel(holder.ptr, rows)
