# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any kernel
# repository): builder members with a static meaning (tools/extract/builder_ns.py) -- a layout
# value bound with T.meta_var and a method chain on it, T.alloc_local of 2-D shapes with and
# without layout=, T.launch_thread for the thread and CTA indices, a warp index broadcast from
# lane 0 with T.cuda.__shfl_sync, `(k > 0) & flag` at k = 0, a condition cast to an integer,
# TMA options that do not change the data moved, and a configuration dict a helper fills under a
# test the source does not decide.
from tvm.script import tirx as T
from tvm.script import tirx as Tx

from runtime_flags import EXTRA  # not read: a value the source does not fix

BAD_LAYOUT = False
STAGES = 4
RUNTIME_CFG = False


def tma_opts(*, hint=None, prefetch: bool = True):
    cfg = {"dispatch": "tma", "prefetch_tensormap": prefetch, "tensormap_l2_promotion": "L2::128B"}
    for key, value in (("cache_hint", hint),):
        if value is not None:
            cfg[key] = value
    return cfg


@T.prim_func
def builder_kernel(A: T.Buffer((256, 64), "float16"), B: T.Buffer((64, 64), "float16")):
    with T.launch_thread("blockIdx.x", 4) as bx:
        tx = T.launch_thread("threadIdx.x", 128)
        warp = T.cuda.__shfl_sync(T.uint32(0xFFFFFFFF), tx // 32, 0, 32)
        ROW_L = T.meta_var(T.TileLayout(T.S[(8, 32):(32 if not BAD_LAYOUT else 16, 1)]))
        rows = T.alloc_buffer((8, 32), "float16", scope="shared.dyn", layout=ROW_L)
        rows_u8 = T.alloc_buffer((8, 64), "uint8", scope="shared.dyn", layout=ROW_L.unpack(2))
        tile = T.alloc_buffer((64, 64), "float16", scope="shared.dyn")
        acc = T.alloc_local((4, 8), "float32", layout=T.TileLayout(T.S[(4, 8):(8, 1)]))
        plain = T.alloc_local((T.Cast("int32", STAGES > 2) + 1, 2))  # a condition cast to int32: 1
        tmem_addr = T.alloc_shared((1,), "uint32")
        if warp == 1:
            T.ptx.tcgen05.alloc.cta_group_1.sync.aligned.shared_cta.b32(tmem_addr.ptr_to([0]), T.uint32(32))
        for k in T.serial(4):
            if (k > 0) & T.cuda.any_sync(T.uint32(0xFFFFFFFF), tx > 7):
                Tx.copy_async(tile[:, :], A[64:128, :], dispatch="tma")
            if warp == 0:
                Tx.copy_async(tile[:, :], A[bx * 64 : bx * 64 + 64, :], **tma_opts(hint=T.uint64(0x12F0000000000000)))
        cfg = tma_opts(hint=EXTRA) if RUNTIME_CFG else tma_opts(prefetch=False)
        if warp == 0:
            Tx.copy_async(B[:, :], tile[:, :], **cfg)
        if warp == 1:
            T.ptx.tcgen05.dealloc.cta_group_1.sync.aligned.b32(tmem_addr[0], T.uint32(32))
