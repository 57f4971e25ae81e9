"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): the TMA
loads of a K loop whose last slot lies wholly past the tensor, as a kernel's last-slot warp issues
them when K is not a multiple of the slots' span.

A is 64 x 96 float16; warp 0 loads three 64 x 64 boxes of it into the three stages of a
128B-swizzled ring: stage 0 at column 0 (inside), stage 1 at column 64 (32 columns inside: the
in-bounds part), stage 2 at column 128 (wholly outside: the TMA reads no global memory and fills
the stage with zeros, so the model's op has no `global`). Then it stores stage 2 to D, which reads
the filled stage. Under --param SKIP_FILL=True the third load is not issued: kernel.coverage finds
the store reading a stage nothing wrote."""
from tvm.script import tirx as T

SKIP_FILL = False

_LOAD_2D = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
_STORE_2D = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


def kernel(A: T.Buffer((64, 96), "float16"), D: T.Buffer((64, 64), "float16")):
    a_map: T.let[T.TensorMap()] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", a_map, "float16", 2, A.data, 96, 64, 192, 64, 64,
                  1, 1, 0, 3, 0, 0)
    d_map: T.let[T.TensorMap()] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", d_map, "float16", 2, D.data, 64, 64, 128, 64, 64,
                  1, 1, 0, 3, 0, 0)
    warp_id = T.warp_id([4])
    pool = T.SMEMPool()
    bars = pool.alloc([1], "uint64", align=8)
    A_smem = pool.alloc_tcgen05_mma_AB((3, 64, 64), "float16")
    pool.commit()
    if warp_id == 0:
        if T.cuda.elect_sync():
            T.ptx[_LOAD_2D](A_smem.ptr_to([0, 0, 0]), T.address_of(a_map), 0, 0, bars.ptr_to([0]))
            T.ptx[_LOAD_2D](A_smem.ptr_to([1, 0, 0]), T.address_of(a_map), 64, 0, bars.ptr_to([0]))
            if not SKIP_FILL:
                T.ptx[_LOAD_2D](A_smem.ptr_to([2, 0, 0]), T.address_of(a_map), 128, 0, bars.ptr_to([0]))
            T.ptx[_STORE_2D](T.address_of(d_map), 0, 0, A_smem.ptr_to([2, 0, 0]))
