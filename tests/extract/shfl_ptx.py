# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any kernel
# repository): the warp index broadcast from lane 0 by the raw PTX statement
# T.ptx.shfl_sync.idx.b32(d, a, b, c, membermask) into a declared scalar (the DeepGEMM-port idiom),
# then branches on it that select warps.  C packs the segment mask (bits 12:8) and the clamp (4:0);
# SRC is the source lane: every lane of warp w reads tx = 32 w + SRC, so `warp == 32 + SRC` selects
# warp 1 whole (and a lane-0 read, `tx // 32`, selects warp 2 for the copy).
# --param GATED=True: a copy whose row is a declared scalar stored only under a runtime test
# (`n > 0`): unresolved, the reason naming that store, not the declaration.
from tvm.script import tirx as T
from tvm.script import tirx as Tx

SRC = 0
C = 0x1F
GATED = False


@T.prim_func
def shfl_kernel(A: T.Buffer((256, 64), "float16"), n: T.int32):
    tx = T.launch_thread("threadIdx.x", 128)
    warp: T.int32
    T.ptx.shfl_sync.idx.b32(warp, tx, T.uint32(SRC), T.uint32(C), T.uint32(0xFFFFFFFF))
    w32: T.int32
    T.ptx.shfl_sync.idx.b32(w32, tx // 32, T.uint32(0), T.uint32(0x1F), T.uint32(0xFFFFFFFF))
    tile = T.alloc_buffer((64, 64), "float16", scope="shared.dyn")
    tmem_addr = T.alloc_shared((1,), "uint32")
    if warp == 32 + SRC:
        T.ptx.tcgen05.alloc.cta_group_1.sync.aligned.shared_cta.b32(tmem_addr.ptr_to([0]), T.uint32(32))
    if w32 == 2:
        Tx.copy_async(tile[:, :], A[0:64, :], dispatch="tma")
    if warp == 32 + SRC:
        T.ptx.tcgen05.dealloc.cta_group_1.sync.aligned.b32(tmem_addr[0], T.uint32(32))
    row: T.int32
    if n > 0:
        row = 64
    if GATED:
        if w32 == 2:
            Tx.copy_async(tile[:, :], A[row:row + 64, :], dispatch="tma")
