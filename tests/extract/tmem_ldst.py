"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
tcgen05.ld / tcgen05.st of every data-movement shape between register arrays and three buffers of
a 512-column TMEM pool (one 16-bit, for .pack::16b / .unpack::16b), addressed through
allocated_addr, get_tmem_addr and a raw number."""
from tvm.script import tirx as T

ACC_COLS = 256
AUX_COL = 256
UPPER = 16          # lane field of the upper 16-lane half-slab
BAD_LANE = False    # --param BAD_LANE=True: warp 5's half-slab read at lane field 24 (crosses into lane 32)
OVERLAP = False     # --param OVERLAP=True: a third buffer over acc's columns, then a raw address there

_LD256 = "tcgen05.ld.sync.aligned.16x256b.x2.b32"
_LD128 = "tcgen05.ld.sync.aligned.16x128b.x2.b32"
_LD64 = "tcgen05.ld.sync.aligned.16x64b.x4.b32"
_LDX2 = "tcgen05.ld.sync.aligned.16x32bx2.x4.b32"
_ST256 = "tcgen05.st.sync.aligned.16x256b.x1.b32"
_ST32 = "tcgen05.st.sync.aligned.32x32b.x8.b32"
_ST32U = "tcgen05.st.sync.aligned.32x32b.x8.unpack::16b.b32"
_LD256P = "tcgen05.ld.sync.aligned.16x256b.x1.pack::16b.b32"


@T.prim_func
def kernel(X: T.Buffer((128, 64), "float16")):
    wg_id = T.warpgroup_id([2])
    warp_id = T.warp_id_in_wg([4])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    pool.commit()
    tmem_pool = T.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    acc = tmem_pool.alloc((128, ACC_COLS), "float32")
    tmem_pool.move_base_to(AUX_COL)
    aux_col = T.meta_var(tmem_pool.offset)
    aux = tmem_pool.alloc((128, 128), "float32")
    p16 = tmem_pool.alloc((128, 64), "float16", layout=T.TileLayout(T.S[(128, 64):(1 @ T.TLane, 2 @ T.TCol)]))
    if OVERLAP:
        tmem_pool.move_base_to(0)
        ov = tmem_pool.alloc((128, 64), "float32")
    tmem_pool.commit()
    frag = T.alloc_local((16,), "float32")
    f128 = T.alloc_local((4,), "float32")
    f64 = T.alloc_local((4,), "float32")
    f64b = T.alloc_local((4,), "float32")
    fx2 = T.alloc_local((4,), "float32")
    words = T.alloc_local((8,), "uint32")
    fpk = T.alloc_local((4,), "uint32")
    fpk_hi = T.alloc_local((4,), "uint32")
    if wg_id == 0:
        T.ptx[_ST32U](p16.allocated_addr[0], *[words[j] for j in range(8)])
    if wg_id == 1:
        T.ptx[_LD256P](*[fpk[j] for j in range(4)], p16.allocated_addr[0])
        T.ptx[_LD256P](*[fpk_hi[j] for j in range(4)], T.cuda.get_tmem_addr(p16.allocated_addr[0], UPPER, 0))
        for half in T.unroll(2):
            lane = UPPER if half == 1 else 0
            T.ptx[_LD256](*[frag[half * 8 + j] for j in range(8)],
                          T.cuda.get_tmem_addr(acc.allocated_addr[0], lane, 32))
        T.ptx[_LD128](*[f128[j] for j in range(4)], T.cast(acc.allocated_addr[0] + 64, "uint32"))
        T.ptx[_LD64](*[f64[j] for j in range(4)], T.cuda.get_tmem_addr(acc.allocated_addr[0], 0, 72))
        T.ptx[_LDX2](*[fx2[j] for j in range(4)], acc.allocated_addr[0] + 80, 4)
        if warp_id == 1:
            T.ptx[_LD64](*[f64b[j] for j in range(4)],
                         T.cuda.get_tmem_addr(acc.allocated_addr[0], 24 if BAD_LANE else UPPER, 96))
        T.ptx[_ST256](T.cuda.get_tmem_addr(aux.allocated_addr[0], UPPER, 16), *[frag[j] for j in range(4)])
    else:
        T.ptx[_ST32](T.uint32(aux_col + 32), *[words[j] for j in range(8)])
        if OVERLAP:
            T.ptx[_ST32](T.uint32(8), *[words[j] for j in range(8)])
    if wg_id == 0:
        tmem_pool.dealloc()
