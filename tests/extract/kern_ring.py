"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): kern's
`K.RingState` cursor (kern/ring.py: stage 0, phase 0, advance() is stage + stride with a subtract
wrap at depth and phase ^ 1), a host tensor viewed through a multi-dimensional slice (`base[:, 64:]`,
the map's base 128 bytes into each row of `base`), and a TMA row read from a one-register kern array
that ld.global fills at run time (`K.Cast("int32", K.uint32(row[0]))`: runtime data the representative
instance binds to 0).  The loader fills stage 0 and then stage 1 of a two-stage tile through the
ring; the compute role waits for each stage and reads it, so kernel.coverage passes only when the
second load lands in stage 1.  --param STRIDE=2 makes a ring of stride 2 (not followed: unresolved);
--param SAME_STAGE=True leaves the ring unadvanced (both loads into stage 0, the stage-1 reads find
no writer); --param REINIT=True calls ring.init(0, 0) after the first load (RingState's init takes a
stage and a phase, not followed: the second load's stage is unresolved)."""
import ctypes

import torch

import tirx_kernels.kern as K

STRIDE = 1
SAME_STAGE = False
REINIT = False
_TMA = "cp.async.bulk.tensor.2d.shared::cta.global.mbarrier::complete_tx::bytes"


def _make():
    @K.kernel(warps=8, arch="sm_100a", grid=1)
    def ringed(a_map: K.TensorMap, starts: K.gptr[K.u32]):
        smem = K.smem_pool()
        ready = K.TMABar(smem, 2)
        tile = smem.alloc((2, 16, 64), K.bf16, swizzle=K.SW128B)
        smem.commit()
        lane = K.lane_id()
        spec = K.specialize()
        compute = spec.role("compute", warps=range(4))
        loader = spec.role("loader", warps=range(4, 5))
        with loader:
            ring = K.RingState(2, stride=STRIDE)
            row = K.alloc_local([1], "uint32")
            K.ptx.ld.global_.u32(row[0], starts.ptr_to([0]))
            with K.If(K.cuda.elect_sync()), K.Then():
                for i in range(2):
                    K.ptx[_TMA](tile[ring.stage].ptr_to(0, 0), K.address_of(a_map), 0,
                                K.Cast("int32", K.uint32(row[0])) + i * 16, ready.ptr_to([ring.stage]))
                    if not SAME_STAGE:
                        ring.advance()
                    if REINIT:
                        ring.init(0, 0)
        with compute:
            for s in range(2):
                ready.wait(s, 0)
                for c in range(8):
                    frag = K.alloc_local((2,), "uint32")
                    K.ptx.ldmatrix.sync.aligned.m8n8.x2.shared.b16(frag[0], frag[1], tile[s].m8n8(lane % 16, c * 8))

    return ringed


class _Holder:
    def __init__(self):
        self.ptr = ctypes.c_void_p(0)


def run_test(rows=64):
    import tvm

    base = torch.empty((rows, 128), dtype=torch.bfloat16, device="cuda")
    a = base[:, 64:]
    starts = torch.zeros((1,), dtype=torch.int32, device="cuda")
    holder = _Holder()
    encode = tvm.get_global_func("runtime.cuTensorMapEncodeTiled")
    encode(holder.ptr, "bfloat16", 2, ctypes.c_void_p(a.data_ptr()), 64, rows, a.stride(0) * 2, 64, 16, 1, 1, 0,
           3, 0, 0)
    kernel = tvm.compile(_make(), target="cuda")
    kernel(holder.ptr, starts)
