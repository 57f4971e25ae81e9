"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): the
kernel takes a tensor map built on the host and two runtime scalars; the file's own host code
creates the tensors with torch, encodes the map with TVM's runtime.cuTensorMapEncodeTiled into a
ctypes holder class, and launches `executable.mod(*_args(case))`.  The extraction follows that
launch: `rows` and `k_tiles` take the launch's integers, `a_map` the host map (its base tensor
`weight` a global buffer of the model), and `out` is checked against the tensor passed for it; the
host record also holds an entry the model does not compute (torch.nn.functional), which nothing
the launch reads depends on, and k_tiles goes through a functools.cache'd helper.
Two TMA loads of a 64-column box fill the two 128-byte halves of a 128B-swizzled tile.
--param MAP_SWIZZLE=2 encodes the host map with the 64B swizzle, not the tile's 128B: a 64-column
box (128 bytes) is wider than that swizzle's span, which kernel.tma-layout refuses.  --param
OUT_COLS=16 declares a match_buffer the launch's tensor does not match: a finding, unresolved."""
import ctypes
import functools

import torch
import torch.nn.functional as F
from tvm.script import tirx as Tx

CONFIGS = [{"M": 32, "K": 256}]
BOX_ROWS, BOX_COLS, TILE_COLS = 16, 64, 128
OUT_COLS = 8
MAP_SWIZZLE = 3  # CU_TENSOR_MAP_SWIZZLE_128B
HOST_BOX_COLS = BOX_COLS
_TMA_LOAD = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"


def get_kernel():
    @Tx.prim_func
    def tile_load(a_map: Tx.TensorMap, rows: Tx.int32, k_tiles: Tx.int32, out_h: Tx.handle):
        out = Tx.match_buffer(out_h, (BOX_ROWS, OUT_COLS), "float32")
        warp_id = Tx.warp_id([4])
        lane_id = Tx.lane_id([32])
        pool = Tx.SMEMPool()
        bar = pool.alloc([1], "uint64", align=8)
        A_smem = pool.alloc_tcgen05_mma_AB((BOX_ROWS, TILE_COLS), "bfloat16")
        pool.commit()
        if warp_id == 0:
            if Tx.filter(lane_id, Tx.cuda.elect_sync()):
                for kt in Tx.serial(k_tiles):
                    for h in Tx.unroll(TILE_COLS // BOX_COLS):
                        Tx.ptx[_TMA_LOAD](A_smem.ptr_to([0, h * BOX_COLS]), Tx.address_of(a_map),
                                          kt * TILE_COLS + h * BOX_COLS, rows - BOX_ROWS, bar.ptr_to([0]))

    return tile_load


class _MapStorage:
    """128-byte aligned host storage for one CUtensorMap."""

    def __init__(self):
        self.raw = ctypes.create_string_buffer(256)
        self.ptr = ctypes.c_void_p((ctypes.addressof(self.raw) + 127) & ~127)


def _encode(tensor, rows, cols):
    import tvm

    holder = _MapStorage()
    encode = tvm.get_global_func("runtime.cuTensorMapEncodeTiled")
    encode(holder.ptr, "bfloat16", 2, ctypes.c_void_p(int(tensor.data_ptr())), cols, rows,
           tensor.stride(0) * tensor.element_size(), HOST_BOX_COLS, BOX_ROWS, 1, 1, 0, MAP_SWIZZLE, 0, 0)
    return holder


def prepare_data(M, K):
    if not torch.cuda.is_available():
        raise RuntimeError("needs a GPU")
    weight = (torch.randn((M, K), dtype=torch.float32, device="cuda") / 4).bfloat16()
    out = torch.zeros((BOX_ROWS, 8), dtype=torch.float32, device="cuda")
    # "reference" is computed by torch.nn.functional, which the model does not follow: only a read of
    # that entry would depend on it (the dict is partial, partial_values.py)
    return {"M": M, "K": K, "weight": weight, "out": out, "map": _encode(weight, M, K),
            "reference": F.relu(weight)}


def _tiles_of(k):
    return k // TILE_COLS


_tiles = functools.cache(_tiles_of)


def _args(case):
    return (case["map"].ptr, case["M"], _tiles(case["K"]), case["out"])


def run_test(M, K):
    case = prepare_data(M, K)
    executable = tvm_compile(get_kernel())
    executable.mod(*_args(case))


def tvm_compile(f):
    import tvm

    return tvm.compile(f, target="cuda")
