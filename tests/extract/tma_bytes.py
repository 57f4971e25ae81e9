"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): tensor
maps that the row-major, same-dtype path does not cover, and shared addresses given in bytes.

* warp Role.SF (an IntEnum member: `int(Role.SF)`) loads scale factors through a "uint16" map over
  a uint8 global buffer laid out by sf_smem_layout (the map moves the same bytes, two at a time):
  the global region is found byte by byte through the buffer's layout (rows 128..255, columns
  0..7); the shared address is T.ptr_byte_offset(SF_smem.ptr_to([0, 0, 0]), 1024, "uint8"),
  which is element [1, 0, 0] (stage 1);
* warp Role.SF + 1 loads a float32 tile through a map with force_cu_dtype 11 (TFLOAT32: 4-byte
  elements at the same bytes) into stage 1 of a 128B-swizzled ring, addressed as 8192 bytes after
  element [0, 0, 0];
* warp Role.EPI stores a 64 x 32 box of which only 40 rows and 24 columns lie inside D (40, 24):
  both regions name the in-bounds part.
Under --param STORE_SWIZZLE=0 the store's map does not swizzle while D_smem is 128B-swizzled:
kernel.tma-layout finds it.  Under --param B_OFFSET=8194 the address is inside an element:
refused."""
from enum import IntEnum

from tvm.backend.cuda.tile_primitive.gemm_async.tcgen05 import sf_smem_layout
from tvm.script import tirx as T

STORE_SWIZZLE = 3
B_OFFSET = 8192

_LOAD_3D = "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
_LOAD_2D = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
_STORE_2D = "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group"


class Role(IntEnum):
    EPI = 0
    SF = 2


def kernel(SF: T.Buffer((256, 16), "uint8", layout=sf_smem_layout(256, 16, sf_per_mma=4)),
           B: T.Buffer((64, 32), "float32"), D: T.Buffer((40, 24), "float32")):
    sf_map: T.let[T.TensorMap()] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", sf_map, "uint16", 3, SF.data, 256, 4, 2, 512, 2048,
                  256, 2, 1, 1, 1, 1, 0, 0, 0, 0)
    b_map: T.let[T.TensorMap()] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", b_map, "float32", 2, B.data, 32, 64, 128, 32, 64,
                  1, 1, 0, 3, 0, 0, 11)
    d_map: T.let[T.TensorMap()] = T.tvm_stack_alloca("tensormap", 1)
    T.call_packed("runtime.cuTensorMapEncodeTiled", d_map, "float32", 2, D.data, 24, 40, 96, 32, 64,
                  1, 1, 0, STORE_SWIZZLE, 0, 0)
    warp_id = T.warp_id([4])
    pool = T.SMEMPool()
    bars = pool.alloc([2], "uint64", align=8)
    SF_smem = pool.alloc((2, 128, 8), "uint8", layout=sf_smem_layout(128, 8, sf_per_mma=4, pipe_depth=2),
                         align=1024)
    B_smem = pool.alloc_tcgen05_mma_AB((2, 64, 32), "float32")
    D_smem = pool.alloc_tcgen05_mma_AB((64, 32), "float32")
    pool.commit()
    if warp_id == int(Role.SF):
        if T.cuda.elect_sync():
            T.ptx[_LOAD_3D](T.ptr_byte_offset(SF_smem.ptr_to([0, 0, 0]), 1024, "uint8"), T.address_of(sf_map),
                            0, 0, 1, bars.ptr_to([0]))
    elif warp_id == Role.SF + 1:
        if T.cuda.elect_sync():
            T.ptx[_LOAD_2D](T.ptr_byte_offset(B_smem.ptr_to([0, 0, 0]), B_OFFSET, "float32"), T.address_of(b_map),
                            0, 0, bars.ptr_to([1]))
    elif warp_id == int(Role.EPI):
        if T.cuda.elect_sync():
            T.ptx[_STORE_2D](T.address_of(d_map), 0, 0, D_smem.ptr_to([0, 0]))
