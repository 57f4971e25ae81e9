# Written for tirx-verify's extraction tests: branches on thread indices select the warps that
# issue an op; a raw tcgen05.alloc/dealloc becomes an op with its column count.
from tvm.script import tirx as T

NUM_COLS = 256


@T.prim_func
def kernel(A: T.Buffer((128, 64), "float16")):
    wg_id = T.warpgroup_id([2])
    warp_id = T.warp_id_in_wg([4])
    lane_id = T.lane_id([32])
    is_mma_warp = (wg_id == 1) & (warp_id == 2)
    tmem_addr = T.alloc_shared((1,), "uint32")
    if (wg_id == 0) & (warp_id == 0):
        T.ptx.tcgen05.alloc.cta_group_1.sync.aligned.shared_cta.b32(tmem_addr.ptr_to([0]), T.uint32(NUM_COLS))
    if wg_id == 5:
        T.ptx.tcgen05.alloc.cta_group_1.sync.aligned.shared_cta.b32(tmem_addr.ptr_to([0]), T.uint32(64))
    bad = T.decl_buffer((8, 8), "float32", scope="shared.dyn", layout=T.TileLayout(T.S[(8, 8):(1, 1)]))
    if is_mma_warp:
        if lane_id == 0:
            T.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], T.uint32(NUM_COLS))
