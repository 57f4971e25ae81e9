"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
tcgen05.cp .128x256b of a 128B-swizzled K-major shared tile into a .ws M=64 TMEM A operand,
four copies 32 bytes apart along K, through a descriptor whose start field is replaced by bit
arithmetic.  The tile comes after a move_base_to the extraction does not evaluate, so its pool
offset is known only modulo its alignment (SMEMPool.alloc rounds up to it)."""
from tvm.script import tirx as T

ALIGN = 1024        # --param ALIGN=512: the tile's address modulo 1024 is not fixed (refused)
KNOWN_512 = False   # --param KNOWN_512=True: the tile at the known pool offset 512 (align=512): a phase
                    # other than 0 (refused)
TALL = False        # --param TALL=True: a (128, 64) tile, whose copied elements are a box of it (no view)
SWIZZLE = 3         # the descriptor's swizzle (TVM's encoding: 3 = 128B); --param SWIZZLE=2: 64B (refused)
_CP = "tcgen05.cp.cta_group::1.128x256b"


def _repoint(desc, ptr):
    start = T.cast(T.bitwise_and(T.shift_right(T.cuda.cvta_generic_to_shared(ptr), T.uint32(4)),
                                 T.uint32(0x3FFF)), "uint64")
    return T.bitwise_or(T.bitwise_and(desc, T.bitwise_not(T.uint64(0x3FFF))), start)


@T.prim_func
def kernel(X: T.Buffer((64, 128), "bfloat16")):
    wg_id = T.warpgroup_id([2])
    warp_id = T.warp_id_in_wg([4])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    if KNOWN_512:
        pool.alloc((508,), "uint8")
    else:
        after = T.meta_var(pool.offset)
        pool.move_base_to(after + 100)
    q = pool.alloc_tcgen05_mma_AB((128, 64) if TALL else (64, 128), "bfloat16", align=512 if KNOWN_512 else ALIGN)
    pool.commit()
    tmem_pool = T.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    q_col = T.meta_var(tmem_pool.offset)
    qt = tmem_pool.alloc_tcgen05_mma_A((2, 64, 64), "bfloat16", M=64, cta_group=1, ws=True)
    tmem_pool.commit()
    if wg_id == 1:
        if warp_id == 0:
            if T.cuda.elect_sync():
                cp_desc: T.uint64
                T.cuda.tcgen05.encode_matrix_descriptor(T.address_of(cp_desc), T.reinterpret(T.handle().ty,
                                                        T.uint64(0)), 1, 64, SWIZZLE)
                for f in T.unroll(4):
                    T.ptx[_CP](T.cast(q_col + f * 8, "uint32"),
                               _repoint(cp_desc, T.ptr_byte_offset(q.ptr_to([0, 0]), f * 32, "bfloat16")))
    if wg_id == 0:
        tmem_pool.dealloc()
