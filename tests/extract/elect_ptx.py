# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any kernel
# repository): one elected lane per warp by the raw PTX statement T.ptx.elect_sync(d, p, membermask)
# into declared scalars (the DeepGEMM-port idiom), then a branch on the predicate inside a warp
# branch: warp 1's elected lane allocates / frees TMEM, warp 2's issues the copy, whose row its
# elected lane computes from scalars it stores under the predicate (a scheduler's `valid` flag).
# --param MASK=0xFFFF: a partial member mask (the elected lane need not be lane 0): not modelled,
# the predicate stays a runtime value, so are the stores under it and the copy's row.
# --param READ_LANE=True: the copy's row is the elected lane's id d (which lane PTX elects is not
# specified): unresolved, naming it.
from tvm.script import tirx as T
from tvm.script import tirx as Tx

MASK = 0xFFFFFFFF
READ_LANE = False


@T.prim_func
def elect_kernel(A: T.Buffer((256, 64), "float16")):
    warp = T.warp_id([4])
    tile = T.alloc_buffer((64, 64), "float16", scope="shared.dyn")
    tmem_addr = T.alloc_shared((1,), "uint32")
    elected: T.uint32
    elected_lane: T.uint32
    T.ptx.elect_sync(elected_lane, elected, T.uint32(MASK))
    if warp == 1:
        if elected == T.uint32(1):
            T.ptx.tcgen05.alloc.cta_group_1.sync.aligned.shared_cta.b32(tmem_addr.ptr_to([0]), T.uint32(32))
    if warp == 2:
        if elected == T.uint32(1):
            valid: T.int32
            row: T.int32
            valid = 1
            row = 0
            if valid == 1:
                row = 64
            if READ_LANE:
                row = T.cast(elected_lane, "int32")
            Tx.copy_async(tile[:, :], A[row:row + 64, :], dispatch="tma")
    if warp == 1:
        if elected == T.uint32(1):
            T.ptx.tcgen05.dealloc.cta_group_1.sync.aligned.b32(tmem_addr[0], T.uint32(32))
