"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a thread's
own register copy, `Tx.copy` at thread scope (thread_copy.py).

Default: one elected lane of each of warps 0..3 loads a 4x4 int32 block of a `.sub` view whose
runtime subscripts (the loop index, the warp) all have strides that are multiples of 4: the width
is 16 bytes both with this instance's start and with only the strides (decided).  --param ODD=True:
rows of 5 int32, the row picked by the loop index: 16 bytes at this instance (row 0), 4 bytes from
the stride 5 alone -> unresolved.  --param CONST=True: the same rows, row 1 picked by a source
constant: the start 5 is known, 4 bytes (decided).  --param WIDE=True: lanes 0..15 of warp 4 each load
8 int32 with dispatch="vec_256b" from `idx[base + 8 lane ...]`: the warp's fragment copy, 32 bytes
per thread.  --param WIDE_SMEM=True: the same from shared memory (no 32-byte shared access)."""
from tvm.script import tirx as T
from tvm.script.tirx import tile as Tx

ODD = False
CONST = False
WIDE = False
WIDE_SMEM = False
ROWS = 4


@T.prim_func
def thread_copy_kernel(idx: T.Buffer((128,), "int32"), rows5: T.Buffer((160,), "int32")):
    thread = T.thread_id([256])
    warp: T.let = thread // 32
    lane: T.let = thread % 32
    pool = T.SMEMPool()
    I_smem = pool.alloc((128,), "int32")
    pool.commit()
    if warp < 4:
        if T.cuda.elect_sync():
            for k in T.serial(0, 2):
                regs = T.alloc_local((ROWS, 4), "int32")
                if ODD:
                    Tx.copy(regs[0, :], rows5.view(32, 5).sub[k, 0:4], cache="nc")
                elif CONST:
                    Tx.copy(regs[0, :], rows5.view(32, 5).sub[1, 0:4], cache="nc")
                else:
                    block = idx.view(2, ROWS, 4, 4).sub[k, :, warp, :]
                    Tx.copy(regs[:, :], block[:, :], cache="nc")
    elif warp == 4:
        if lane < 16:
            lane_regs = T.alloc_local((8,), "int32")
            base: T.let = lane * 8
            if WIDE_SMEM:
                Tx.copy(lane_regs[0:8], I_smem[base : base + 8], dispatch="vec_256b")
            elif WIDE:
                Tx.copy(lane_regs[0:8], idx[base : base + 8], dispatch="vec_256b", cache="nc")
