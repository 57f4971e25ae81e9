"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): an
M = 64 tf32 tcgen05.mma (cta_group::1, data-path Layout F) whose A and accumulator live in plain
128-lane TMEM storage `tm` (128, 256) that the kernel addresses with raw column numbers, as
TVM-free hand-written kernels do.  The CTA's one 256-column TMEM pool is taken to start at lane 0,
column 0 (the representative instance).  Warps 4-7 write A's 64 rows with .16x256b stores at lane
field 0 (rows 16 w' + i in lanes 32 w' + i, PTX ISA §9.7.16.10.5: "Layouts F and C must use the
same lane alignment for A (if in TMEM), D"); warp 1 issues the .ts MMA with A at (A_LANE, 0), D
at column 128, and B's descriptor re-pointed by a helper that splits it with mov.b64, adds to the
low word with add.u32 and joins it again; warps 0-3 read D back with .16x256b loads.

--param A_LANE=16: A read from the interleaved half-slab (lanes 16..31 of each 32), which no
store wrote: kernel.coverage fails.  --param A_LANE=8: a lane PTX does not allow for Layout F:
the MMA is unresolved, saying so.  --param BAD_HELPER=True: the helper changes the low word with
an instruction the extraction does not model (xor.b32): B's descriptor is a register's runtime
content and the MMA stays unresolved.  --param WS=True: one more MMA, `.ws` M = 64 N = 64 (data
path Layout E) with A from shared memory and D at column 192: the accumulator is the view
tm.E64@192 (element (m, n) in lane m + 64 (n // 32), column 192 + n % 32); with WS_TS=True too
its A is a TMEM address, which Layout E reads from both 64-lane halves: unresolved, saying so."""
from tvm.script import tirx as T

A_LANE = 0
BAD_HELPER = False
D_COL = 128
WS = False
WS_TS = False
IDESC_WS = T.uint32((1 << 4) | (2 << 7) | (2 << 10) | (8 << 17) | (4 << 24))  # f32 D, tf32 A/B, N 64, M 64
_MMA = "tcgen05.mma.cta_group::1.kind::tf32"
_ST = "tcgen05.st.sync.aligned.16x256b.x4.b32"
_LD = "tcgen05.ld.sync.aligned.16x256b.x1.b32"
IDESC = T.uint32((1 << 4) | (2 << 7) | (2 << 10) | (1 << 17) | (4 << 24))  # f32 D, tf32 A/B, N 8, M 64


def add_desc_offset(desc, units):
    lo = T.alloc_local((1,), "uint32")
    hi = T.alloc_local((1,), "uint32")
    out = T.alloc_local((1,), "uint64")
    T.evaluate(T.ptx.mov.b64(lo[0], hi[0], desc))
    if BAD_HELPER:
        T.evaluate(T.ptx.xor.b32(lo[0], lo[0], T.uint32(units)))
    else:
        T.evaluate(T.ptx.add.u32(lo[0], lo[0], T.uint32(units)))
    T.evaluate(T.ptx.mov.b64(out[0], lo[0], hi[0]))
    return out[0]


@T.prim_func
def kernel(Bg: T.Buffer((8, 32), "float32")):
    wg_id = T.warpgroup_id([2])
    warp_id = T.warp_id_in_wg([4])
    lane_id = T.lane_id([32])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    B_smem = pool.alloc((8, 32), "float32", align=1024,
                        layout=T.mma_shared_layout("float32", T.SwizzleMode.SWIZZLE_128B_ATOM, (8, 32)))
    A_smem = pool.alloc((64, 32), "float32", align=1024,
                        layout=T.mma_shared_layout("float32", T.SwizzleMode.SWIZZLE_128B_ATOM, (64, 32)))
    B64 = pool.alloc((64, 32), "float32", align=1024,
                     layout=T.mma_shared_layout("float32", T.SwizzleMode.SWIZZLE_128B_ATOM, (64, 32)))
    pool.commit()
    tmem_pool = T.TMEMPool(pool, total_cols=256, cta_group=1, tmem_addr=tmem_addr)
    tm = tmem_pool.alloc((128, 256), "float32", layout=T.TileLayout(T.S[(128, 256):(1 @ T.TLane, 1 @ T.TCol)]))
    tmem_pool.commit()
    a_regs = T.alloc_local((16,), "uint32")
    d_regs = T.alloc_local((4,), "float32")
    desc_b: T.uint64
    desc_a: T.uint64
    desc_b64: T.uint64
    if wg_id == 1:
        T.ptx[_ST](T.cuda.get_tmem_addr(T.uint32(0), 0, 0), *[a_regs[j] for j in range(16)])
    T.cuda.cta_sync()
    if wg_id == 0:
        if warp_id == 1:
            if T.filter(lane_id, T.cuda.elect_sync()):
                T.cuda.tcgen05.encode_matrix_descriptor(T.address_of(desc_b), B_smem.ptr_to([0, 0]),
                                                        ldo=1, sdo=64, swizzle=3)
                for ki in T.unroll(4):
                    # one tf32 K step is 8 elements = 32 bytes = 2 16-byte units along B's rows
                    T.ptx[_MMA](T.uint32(D_COL), T.uint32((A_LANE << 16) | (ki * 8)),
                                add_desc_offset(desc_b, ki * 2), IDESC, 0, 0, 0, 0, ki != 0)
                if WS:
                    T.cuda.tcgen05.encode_matrix_descriptor(T.address_of(desc_a), A_smem.ptr_to([0, 0]),
                                                            ldo=1, sdo=64, swizzle=3)
                    T.cuda.tcgen05.encode_matrix_descriptor(T.address_of(desc_b64), B64.ptr_to([0, 0]),
                                                            ldo=1, sdo=64, swizzle=3)
                    T.ptx["tcgen05.mma.ws.cta_group::1.kind::tf32"](
                        T.uint32(192), T.uint32(0) if WS_TS else desc_a, desc_b64, IDESC_WS, False, 0)
    T.cuda.cta_sync()
    if wg_id == 0:
        T.ptx[_LD](d_regs[0], d_regs[1], d_regs[2], d_regs[3], T.uint32(D_COL))
    T.cuda.cta_sync()
    if wg_id == 0:
        if warp_id == 0:
            T.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], T.uint32(256))
