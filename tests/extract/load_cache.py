"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
thread's global -> register copies with load cache options (copy_options.load_cache).

Default: `Tx.copy(regs, idx[...], cache="nc")` -- the cache hint is accepted (ld.global.nc moves
the same bytes), and TVM's vector width for the thread's register copy is derived (thread_copy.py:
16 bytes, the start a source constant).  --param SHARED=True: cache="nc" on a shared -> register
copy (TVM reads it only on a global load: refused).  --param WIDE=True: a forced
`dispatch="vec_256b"` copy: one 32-byte access per thread from global memory (thread_copy.forced)."""
from tvm.script import tirx as T
from tvm.script.tirx import tile as Tx

SHARED = False
WIDE = False


@T.prim_func
def load_cache_kernel(idx: T.Buffer((64,), "int32")):
    warp = T.warp_id([4])
    T.lane_id([32])
    pool = T.SMEMPool()
    I_smem = pool.alloc((4, 4), "int32")
    pool.commit()
    regs = T.alloc_local((4, 4), "int32")
    lane_regs = T.alloc_local((8,), "int32")
    idx_view = idx.view(4, 4, 4)
    if warp == 1:
        if T.cuda.elect_sync():
            if SHARED:
                Tx.copy(regs[:, :], I_smem[:, :], cache="nc")
            elif WIDE:
                Tx.copy(lane_regs[0:8], idx[8:16], dispatch="vec_256b", cache="nc")
            else:
                Tx.copy(regs[:, :], idx_view[1, :, :], cache="nc", l2_evict="L2::evict_normal")
