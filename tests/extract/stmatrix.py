"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
stmatrix .x4, .x2 and .x4.trans in the kern DSL, two warps, each storing a 16 x 16 band of a
swizzled shared tile from a register array, a .x4.trans store from another array, and a .x2
store of an 8 x 16 tile by warp 0.  Under `--param BAD_COL=True` every row starts 4 elements
further right: the extraction writes the rows as addressed, and kernel.fragment fails (a row of
8 elements then straddles two 16-byte chunks of the 128B swizzle, which stmatrix cannot store)."""
import tirx_kernels.kern as K

WARPS = 2
BAD_COL = False


@K.kernel(warps=WARPS)
def kernel(out: K.gptr[K.f32]):
    smem = K.smem_pool()
    o_tile = smem.alloc((32, 64), K.bf16, swizzle=K.SW128B)
    o_t = smem.alloc((32, 16), K.bf16, swizzle=K.SW32B)
    o_small = smem.alloc((8, 16), K.bf16, swizzle=K.SW32B)
    smem.commit()
    warp = K.warp_id()
    lane = K.lane_id()
    vals = K.alloc_local((4,), K.u32)
    vals_t = K.alloc_local((4,), K.u32)
    pair = K.alloc_local((2,), K.u32)
    for cj in range(2):
        row = warp * 16 + lane % 16
        col = cj * 16 + lane // 16 * 8 + (4 if BAD_COL else 0)
        K.ptx.stmatrix.sync.aligned.m8n8.x4.shared.b16(o_tile.ptr_to(row, col), *[vals[i] for i in range(4)])
    K.ptx.stmatrix.sync.aligned.m8n8.x4.trans.shared.b16(o_t.ptr_to(warp * 16 + lane % 16, lane // 16 * 8),
                                                        vals_t[0], vals_t[1], vals_t[2], vals_t[3])
    if warp == 0:
        K.ptx.stmatrix.sync.aligned.m8n8.x2.shared.b16(o_small.ptr_to(lane % 8, lane // 8 % 2 * 8), pair[0],
                                                       pair[1])
