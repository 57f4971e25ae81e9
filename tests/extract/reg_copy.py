"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
warpgroup's register tile (`T.wg_reg_tile(16, "float16")`, one row of 16 registers per thread)
stored to shared memory by `Tx.wg.copy` without `dispatch=` (reg_copy.py: TVM's ldstmatrix
declines it, vec_auto_reg picks the vector width from both layouts; `vec_len=8` is read by no
copy variant).
Default: a 128B-swizzled MMA tile, columns 16:32 -- 8 float16 per access (16 bytes, the swizzle's
cap).  --param PLAIN=True: a row-major (128, 64) tile, columns 4:20 -- the base offset 4 allows 4
float16 per access (8 bytes).  --param LANE=True: the copy runs on lane 0 only (under
elect_sync): TVM's variants need every lane, so it stays unresolved."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

PLAIN = False
LANE = False


@T.prim_func
def reg_copy_kernel(A: T.Buffer((128, 64), "float16")):
    wg_id = T.warpgroup_id([2])
    pool = T.SMEMPool()
    O_smem = pool.alloc_tcgen05_mma_AB((2, 128, 128), "float16")
    P_smem = pool.alloc((128, 64), "float16")
    pool.commit()
    frag = T.wg_reg_tile(16, "float16")
    if wg_id == 1:
        if PLAIN:
            Tx.wg.copy(P_smem[0:128, 4:20], frag, vec_len=8)
        elif LANE:
            if T.cuda.elect_sync():
                Tx.wg.copy(O_smem[1, 0:128, 16:32], frag, vec_len=8)
        else:
            Tx.wg.copy(O_smem[1, 0:128, 16:32], frag, vec_len=8)
