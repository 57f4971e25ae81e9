"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
kernel that declares no TMEM buffer.  Warp 0 allocates all 512 columns with a raw
`tcgen05.alloc`, and every TMEM operand is a raw number: warpgroup 1 stores A (fp16, packed two
per 32-bit column) at column 0 with .32x32b, warp 1 issues four .ts fp16 MMAs (M = 128, N = 64,
A in TMEM at column 8 ki, D at column 256), warpgroup 0 reads D back.  B's descriptors are built
from one anchor: the start field of Q's shared address plus `(K.elem_offset - Q.elem_offset) * 2
// 16` 16-byte units (K lies past Q in the SMEMPool), OR'd into fixed layout bits, and advanced by
2 units (32 bytes, one K step) per MMA.

--param BAD_SBO=True: the fixed bits say SBO 512 bytes, K's layout has 1024: kernel.mma-descriptor
fails.  --param ALIAS=True: a second buffer (E) is placed over K's bytes with move_base_to, so the
anchor's address lies in two pool buffers; the offset was computed from K.elem_offset, so K is
named.  With --param PLAIN_DELTA=True as well the byte distance is the literal 8192: the address
alone does not say which buffer, and the MMAs are unresolved, naming both."""
from tvm.script import tirx as T

BAD_SBO = False
ALIAS = False
PLAIN_DELTA = False
D_COL = 256
_MMA = "tcgen05.mma.cta_group::1.kind::f16"
B_BITS = (0x40004020 if BAD_SBO else 0x40004040) << 32 | 1 << 16   # 128B swizzle, version 1, SBO, LBO 16 B
IDESC = T.uint32((1 << 4) | (8 << 17) | (8 << 24))                   # f32 D, f16 A/B, N 64, M 128, K-major


def desc_from_anchor(bits, anchor_start, byte_delta):
    start = T.bitwise_and(anchor_start + T.cast(byte_delta // 16, "uint64"), T.uint64(0x3FFF))
    return T.bitwise_or(T.uint64(bits), start)


@T.prim_func
def kernel(Kg: T.Buffer((64, 64), "float16")):
    wg_id = T.warpgroup_id([2])
    warp_id = T.warp_id_in_wg([4])
    lane_id = T.lane_id([32])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    Q = pool.alloc((64, 64), "float16", align=1024,
                   layout=T.mma_shared_layout("float16", T.SwizzleMode.SWIZZLE_128B_ATOM, (64, 64)))
    K = pool.alloc((64, 64), "float16", align=1024,
                   layout=T.mma_shared_layout("float16", T.SwizzleMode.SWIZZLE_128B_ATOM, (64, 64)))
    if ALIAS:
        pool.move_base_to(9216)
        E = pool.alloc((64, 64), "float16", align=1024,
                       layout=T.mma_shared_layout("float16", T.SwizzleMode.SWIZZLE_128B_ATOM, (64, 64)))
    pool.commit()
    a_regs = T.alloc_local((32,), "uint32")
    d_regs = T.alloc_local((64,), "float32")
    if wg_id == 0:
        if warp_id == 0:
            T.ptx.tcgen05.alloc.cta_group__1.sync.aligned.shared__cta.b32(T.address_of(tmem_addr), T.uint32(512))
    T.cuda.cta_sync()
    if wg_id == 1:
        T.ptx["tcgen05.st.sync.aligned.32x32b.x32.b32"](T.uint32(0), *[a_regs[j] for j in range(32)])
    T.cuda.cta_sync()
    if wg_id == 0:
        if warp_id == 1:
            if T.filter(lane_id, T.cuda.elect_sync()):
                q_addr: T.uint32 = T.cuda.cvta_generic_to_shared(Q.ptr_to([0, 0]))
                q_start: T.uint64 = T.cast(T.shift_right(q_addr, T.uint32(4)), "uint64")
                delta = 8192 if PLAIN_DELTA else (K.elem_offset - Q.elem_offset) * 2
                desc_k = desc_from_anchor(B_BITS, q_start, delta)
                for ki in T.unroll(4):
                    T.ptx[_MMA](T.uint32(D_COL), T.uint32(ki * 8), T.uint64(desc_k + 2 * ki), IDESC,
                                0, 0, 0, 0, ki != 0)
    T.cuda.cta_sync()
    if wg_id == 0:
        T.ptx["tcgen05.ld.sync.aligned.32x32b.x64.b32"](*[d_regs[j] for j in range(64)], T.uint32(D_COL))
    T.cuda.cta_sync()
    if wg_id == 0:
        if warp_id == 0:
            T.ptx["tcgen05.dealloc.cta_group::1.sync.aligned.b32"](tmem_addr[0], T.uint32(512))
