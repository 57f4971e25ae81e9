"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
block-scaled 128 x 128 x 128 fp8 MMA tile (`tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale
.scale_vec::1X`, four K steps of 32) whose descriptors all come from TVM's compile-time folds, as
numbers: the instruction descriptor from `encode_instr_descriptor_block_scaled_uint32` (its SF ids
patched per K step by bit arithmetic, bits 29-30 / 4-5), the A / B shared-memory descriptors from
`encode_smem_descriptor_base_uint64(ldo, sdo, swizzle)` with the address ORed into bits 13..0 at
run time (the DeepGEMM-port idiom).  The extraction models both helpers' numbers from their
arguments (idesc_fold.py, sdesc_fold.py).
--param SWZ=2: the A / B descriptors say 64B swizzle for 128B-swizzled tiles: encoded as asked, and
kernel.mma-descriptor fails.  --param SWZ=5: not one of TVM's swizzle enums (its helper raises):
refused.  --param SF='"float8_e4m3fn"': E4M3 scale factors with FP8 operands match no block-scaled
kind (TVM's helper raises): refused."""
from tvm.script import tirx as Tx

BLK_M, BLK_N, BLK_K, MMA_K = 128, 128, 128, 32
SF_K = BLK_K // 32
SFA_COL, SFB_COL = 128, 132
SWZ = 3
SF = "float8_e8m0fnu"
_MMA = "tcgen05.mma.cta_group::1.kind::mxf8f6f4.block_scale.scale_vec::1X"


def _bases():
    from tvm.backend.cuda.cpp.descriptors import (encode_instr_descriptor_block_scaled_uint32,
                                                  encode_smem_descriptor_base_uint64)

    idesc = encode_instr_descriptor_block_scaled_uint32(BLK_M, BLK_N, MMA_K, "float32", "float8_e4m3fn",
                                                        "float8_e4m3fn", SF, False, False, cta_group=1)
    return idesc, encode_smem_descriptor_base_uint64(1, 64, SWZ)


IDESC, SMEM_BASE = _bases()


def _with_addr(base, ptr):
    return Tx.bitwise_or(Tx.uint64(base), Tx.cast(Tx.bitwise_and(
        Tx.shift_right(Tx.cuda.cvta_generic_to_shared(ptr), Tx.uint32(4)), Tx.uint32(0x3FFF)), "uint64"))


def _with_sf_id(desc, sf_id):
    out = Tx.bitwise_and(desc, Tx.uint32(0x9FFFFFCF))
    out = Tx.bitwise_or(out, Tx.shift_left(Tx.uint32(sf_id), Tx.uint32(29)))
    return Tx.bitwise_or(out, Tx.shift_left(Tx.uint32(sf_id), Tx.uint32(4)))


def mma_tile(A: Tx.Buffer((BLK_M, BLK_K), "float8_e4m3fn"), B: Tx.Buffer((BLK_N, BLK_K), "float8_e4m3fn")):
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = Tx.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    A_smem = pool.alloc_tcgen05_mma_AB((BLK_M, BLK_K), "float8_e4m3fn")
    B_smem = pool.alloc_tcgen05_mma_AB((BLK_N, BLK_K), "float8_e4m3fn")
    pool.commit()
    acc = Tx.decl_buffer((128, BLK_N), "float32", scope="tmem", allocated_addr=0,
                         layout=Tx.TileLayout(Tx.S[(128, BLK_N):(1 @ Tx.TLane, 1 @ Tx.TCol)]))
    SFA = Tx.decl_buffer((BLK_M, SF_K), "float8_e8m0fnu", scope="tmem", allocated_addr=SFA_COL,
                         layout=sf_tmem_layout(BLK_M, SF_K, 1))
    SFB = Tx.decl_buffer((BLK_N, SF_K), "float8_e8m0fnu", scope="tmem", allocated_addr=SFB_COL,
                         layout=sf_tmem_layout(BLK_N, SF_K, 1))
    tmem_pool.commit()
    if warp_id == 1:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            for ki in Tx.unroll(BLK_K // MMA_K):
                Tx.ptx[_MMA](Tx.cast(acc.allocated_addr[0], "uint32"), _with_addr(SMEM_BASE, A_smem.ptr_to([0, ki * MMA_K])),
                             _with_addr(SMEM_BASE, B_smem.ptr_to([0, ki * MMA_K])), _with_sf_id(Tx.uint32(IDESC), ki),
                             Tx.cast(SFA_COL, "uint32"), Tx.cast(SFB_COL, "uint32"), ki != 0)
    if warp_id == 0:
        Tx.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], Tx.uint32(512))
