"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
64 x 64 x 64 fp16 tile on the M=64 cta_group::1 data path (PTX ISA §9.7.16.10.5 Layout F: row
16 w + i in lane 32 w + i).  Four K steps read A from shared memory (the .ss form), four more
read A from TMEM (the .ts form: A is a TMEM address), with B's descriptor built as a number
(`bitwise_or(bits, start field)`, PTX ISA §9.7.16.4.1).  The accumulator comes from
alloc_tcgen05_mma_D(M=64), whose layout is Layout F; A in TMEM is declared with Layout F's lanes
(PTX: "Layouts F and C must use the same lane alignment for A (if in TMEM), D").  Under
`--param BAD_LANES=True` the accumulator is declared with rows in lanes 0..63 (the identity):
the extraction writes what the source says and kernel.tmem-datapath fails.  Under
`--param BAD_RAW_SBO=True` the number's SBO is 512 bytes, not the layout's 1024:
kernel.mma-descriptor fails on the .ts MMAs."""
from tvm.script import tirx as Tx

BLK_M, BLK_N, BLK_K, MMA_K = 64, 64, 64, 16
BAD_LANES = False
BAD_RAW_SBO = False
RAW_B_BITS = (0x40004020 if BAD_RAW_SBO else 0x40004040) << 32 | 1 << 16
_MMA = "tcgen05.mma.cta_group::1.kind::f16"


def mma64(A: Tx.Buffer((BLK_M, BLK_K), "float16"), B: Tx.Buffer((BLK_N, BLK_K), "float16")):
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    tmem_pool = Tx.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    A_smem = pool.alloc_tcgen05_mma_AB((BLK_M, BLK_K), "float16")
    B_smem = pool.alloc_tcgen05_mma_AB((BLK_N, BLK_K), "float16")
    pool.commit()
    if BAD_LANES:
        acc = tmem_pool.alloc((BLK_M, BLK_N), "float32",
                              layout=Tx.TileLayout(Tx.S[(BLK_M, BLK_N):(1 @ Tx.TLane, 1 @ Tx.TCol)]))
    else:
        acc = tmem_pool.alloc_tcgen05_mma_D((BLK_M, BLK_N), "float32", M=64, cta_group=1)
    a_tm = tmem_pool.alloc((BLK_M, BLK_K), "float16",
                           layout=Tx.TileLayout(Tx.S[(4, 16, BLK_K):(32 @ Tx.TLane, 1 @ Tx.TLane, 1 @ Tx.TCol)]))
    tmem_pool.commit()
    descA: Tx.uint64
    descB: Tx.uint64
    desc_i: Tx.uint32
    if warp_id == 1:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            Tx.cuda.tcgen05.encode_instr_descriptor(Tx.address_of(desc_i), d_dtype="float32", a_dtype="float16",
                                                    b_dtype="float16", M=BLK_M, N=BLK_N, K=MMA_K, trans_a=False,
                                                    trans_b=False, n_cta_groups=1)
            for ki in Tx.unroll(BLK_K // MMA_K):
                Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descA), A_smem.ptr_to([0, ki * MMA_K]),
                                                         ldo=1, sdo=64, swizzle=3)
                Tx.cuda.tcgen05.encode_matrix_descriptor(Tx.address_of(descB), B_smem.ptr_to([0, ki * MMA_K]),
                                                         ldo=1, sdo=64, swizzle=3)
                Tx.ptx[_MMA](Tx.cast(acc.allocated_addr[0], "uint32"), descA, descB, desc_i, 0, 0, 0, 0, ki != 0)
            for ki in Tx.unroll(BLK_K // MMA_K):
                # B's descriptor as a number: the start field of the element's shared address OR'd
                # into the other fields' bits (SBO 1024 B, version 1, 128B swizzle; LBO 16 B)
                start = Tx.cast(Tx.bitwise_and(Tx.shift_right(Tx.cuda.cvta_generic_to_shared(
                    B_smem.ptr_to([0, ki * MMA_K])), Tx.uint32(4)), Tx.uint32(0x3FFF)), "uint64")
                raw_b = Tx.bitwise_or(Tx.uint64(RAW_B_BITS), start)
                # A in TMEM: 16 fp16 elements of K are 8 32-bit columns
                Tx.ptx[_MMA](Tx.cast(acc.allocated_addr[0], "uint32"),
                             Tx.cast(a_tm.allocated_addr[0] + ki * (MMA_K * 16 // 32), "uint32"), raw_b, desc_i,
                             0, 0, 0, 0, True)
    if warp_id == 0:
        Tx.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], Tx.uint32(512))
