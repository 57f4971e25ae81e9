"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
tcgen05.cp .128x256b of a K-major shared tile into TMEM through a descriptor whose start field
is replaced by bit arithmetic (two ways: an encode_matrix_descriptor with a null start, and a
SmemDescriptor), then read back by tcgen05.ld."""
from tvm.script import tirx as T
from tvm.tirx.lang.smem_desc import SmemDescriptor

SBO_UNITS = 16      # 8 rows x 32 bytes apart: the tile's core-matrix stride
BAD_SBO = False     # --param BAD_SBO=True: SBO 128 bytes, so rows 8.. read row 0..'s second chunk
_CP = "tcgen05.cp.cta_group::1.128x256b"
_LD = "tcgen05.ld.sync.aligned.32x32b.x8.b32"


def _repoint(desc, ptr):
    start = T.cast(T.bitwise_and(T.shift_right(T.cuda.cvta_generic_to_shared(ptr), T.uint32(4)),
                                 T.uint32(0x3FFF)), "uint64")
    return T.bitwise_or(T.bitwise_and(desc, T.bitwise_not(T.uint64(0x3FFF))), start)


@T.prim_func
def kernel(X: T.Buffer((128, 64), "float16")):
    wg_id = T.warpgroup_id([2])
    warp_id = T.warp_id_in_wg([4])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    # (r, k) at (r // 8) 64 + (k // 4) 32 + (r % 8) 4 + k % 4: 8-row core matrices of 16-byte lines
    tile = pool.alloc((2, 128, 8), "float32", align=16,
                      layout=T.TileLayout(T.S[(2, 16, 8, 2, 4):(1024, 64, 4, 32, 1)]))
    pool.commit()
    tmem_pool = T.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    acc = tmem_pool.alloc((128, 64), "float32")
    tmem_pool.commit()
    regs = T.alloc_local((8,), "float32")
    regs2 = T.alloc_local((8,), "float32")
    if wg_id == 1:
        if warp_id == 0:
            if T.cuda.elect_sync():
                cp_desc: T.uint64
                T.cuda.tcgen05.encode_matrix_descriptor(T.address_of(cp_desc), T.reinterpret(T.handle().ty,
                                                        T.uint64(0)), 8, 8 if BAD_SBO else SBO_UNITS, 0)
                T.ptx[_CP](T.cast(acc.allocated_addr[0] + 8, "uint32"), _repoint(cp_desc, tile.ptr_to([0, 0, 0])))
                sd = SmemDescriptor()
                sd.init(tile.ptr_to([0, 0, 0]), ldo=8, sdo=SBO_UNITS, swizzle=0)
                T.ptx[_CP](T.cast(acc.allocated_addr[0] + 16, "uint32"),
                           _repoint(sd.desc, T.ptr_byte_offset(tile.ptr_to([0, 0, 0]), 4096, "float32")))
    else:
        T.ptx[_LD](*[regs[j] for j in range(8)], acc.allocated_addr[0] + 8)
        T.ptx[_LD](*[regs2[j] for j in range(8)], acc.allocated_addr[0] + 16)
    if wg_id == 0:
        tmem_pool.dealloc()
