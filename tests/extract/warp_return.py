# `return` in a branch on a thread index: those warps run nothing after it.
from tvm.script import tirx as T


@T.prim_func
def early(G: T.Buffer((64, 64), "float16")):
    wg = T.warpgroup_id([2])
    w = T.warp_id_in_wg([4])
    lane = T.lane_id([32])
    slot = T.alloc_shared((1,), "uint32")
    if wg == 1:
        return
    if w == 0:
        T.ptx.tcgen05.alloc.cta_group_1.sync.aligned.shared_cta.b32(slot.ptr_to([0]), T.uint32(32))
