"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
an epilogue in the pre-kern-DSL style.  Two warpgroups each read 32 accumulator columns from
TMEM (tcgen05.ld .32x32b), pack them to fp16 with cvt.rn.f16x2.f32, store their 128 rows to a
128B-swizzled shared tile with st.shared.v4 (16 bytes = 8 fp16 per thread and instruction), and
read the first 16 bytes of each row back with ld.shared.v4 into a fresh register array.  A
scratch word without a layout is read with a plain ld.shared too (not a model buffer: no op)."""
from tvm.script import tirx as Tx

COLS = 32
SKEW = 0  # --param SKEW=4: each thread's 8 elements start 4 columns in, across two 16-byte chunks

_LD = f"tcgen05.ld.sync.aligned.32x32b.x{COLS}.b32"
_CVT = "cvt.rn.f16x2.f32"


def epilogue(D: Tx.Buffer((256, COLS), "float16")):
    wg_id = Tx.warpgroup_id([2])
    warp_id = Tx.warp_id_in_wg([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = Tx.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    D_smem = pool.alloc_tcgen05_mma_AB((2, 128, 64), "float16")
    pool.commit()
    tmem = tmem_pool.alloc((128, 512), "float32")
    tmem_pool.commit()
    acc = Tx.alloc_buffer((COLS,), "float32", scope="local")
    acc16 = Tx.alloc_buffer((COLS // 2,), "uint32", scope="local")
    back = Tx.alloc_buffer((4,), "uint32", scope="local")
    word = Tx.alloc_buffer((1,), "uint32", scope="local")
    Tx.ptx.ld.shared.u32(word[0], tmem_addr.ptr_to([0]))
    Tx.ptx[_LD](*[acc[j] for j in range(COLS)], Tx.cast(wg_id * COLS, "uint32"))
    for j in Tx.unroll(COLS // 2):
        Tx.ptx[_CVT](acc16[j], acc[j * 2 + 1], acc[j * 2])
    for jv in Tx.unroll(COLS // 8):
        Tx.ptx.st.shared.v4.u32(
            D_smem.ptr_to([wg_id, warp_id * 32 + lane_id, jv * 8 + SKEW]),
            acc16[jv * 4], acc16[jv * 4 + 1], acc16[jv * 4 + 2], acc16[jv * 4 + 3])
    Tx.ptx.ld.shared.v4.b32(back[0], back[1], back[2], back[3],
                            D_smem.ptr_to([wg_id, warp_id * 32 + lane_id, 0]))
    if wg_id == 0:
        if warp_id == 0:
            tmem_pool.dealloc()
