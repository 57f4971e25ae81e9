"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a runtime
loop whose START is runtime data (range_data.py).  A count loaded from global memory by a helper's
register (`ld_global_i32`) decides a branch; inside it a number of groups is computed through a helper
(`ceil_div_u32`, a declared scalar cast to uint32), a first loop over the groups from FIRST is walked
as its first iteration (so the instance assumes it runs at least once), and a drain loop from
`begin = groups - 2` (or 0) to `groups` loads into the stage slot `t & 1` its variable selects.
Binding the count to 0 would skip the branch; the smallest count that keeps the branch taken and both
loops running is bound instead (GROUP = 4, FIRST = 2: 9 -> groups 3, begin 1, t = 1, slot 1;
`--param FIRST=0`: 1 -> groups 1, begin 0, slot 0).  The drain is under `if cnt < LIMIT:`; with
`--param LIMIT=5` no count >= 9 takes it: no value is consistent and the load stays unresolved."""
from tvm.script import tirx as Tx

M, K = 256, 64
GROUP = 4
FIRST = 2
LIMIT = 1 << 20
_TILE = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"


def ld_global_i32(buf, i):
    out = Tx.alloc_local((1,), "int32")
    Tx.evaluate(Tx.ptx.ld.global_.b32(out[0], buf.ptr_to([i])))
    return out[0]


def ceil_div_u32(x, d):
    num: Tx.uint32 = Tx.cast(x, "uint32") + Tx.cast(d, "uint32") - Tx.uint32(1)
    return Tx.cast(num // Tx.cast(d, "uint32"), "int32")


def range_start(A: Tx.Buffer((M, K), "float16"), meta: Tx.Buffer((8,), "int32")):
    T_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", T_map, "float16", 2, A.data, K, M, K * 2, K, 8,
                   1, 1, 0, 3, 0, 0)
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    bar = pool.alloc([1], "uint64", align=8)
    T_smem = pool.alloc_tcgen05_mma_AB((3, 8, K), "float16")
    pool.commit()
    if warp_id == 0:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            cnt: Tx.int32 = ld_global_i32(meta, 0)
            if cnt > 0:
                groups: Tx.int32 = ceil_div_u32(cnt, GROUP)
                for g in Tx.serial(FIRST, groups):
                    Tx.ptx[_TILE](T_smem.ptr_to([2, 0, 0]), Tx.address_of(T_map), 0, 0, bar.ptr_to([0]))
                begin = Tx.if_then_else(groups == 1, 0, groups - 2)
                if cnt < LIMIT:
                    for t in Tx.serial(begin, groups):
                        slot: Tx.int32 = Tx.bitwise_and(t, 1)
                        Tx.ptx[_TILE](T_smem.ptr_to([slot, 0, 0]), Tx.address_of(T_map), 0, 8, bar.ptr_to([0]))
