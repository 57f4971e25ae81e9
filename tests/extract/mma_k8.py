"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
mma.sync m16n8k8 (PTX ISA 9.1 §9.7.14.5.7) in the kern DSL -- A (16 x 8) by ldmatrix .x2, B
stored N x K (8 x 8: columns 0-7 of 16-column tiles) by ldmatrix .x1, two warps, one 16-row
band of A each; the first MMA's C is the constant 0 and its D registers are passed as a starred
generator, the second accumulates into them; an 8-register accumulator holds two C tiles
(registers 4 j .. 4 j + 3: columns 8 j .. 8 j + 7 of its (16, 16) buffer)."""
import tirx_kernels.kern as K

WARPS = 2
SKEW = False  # --param SKEW=True: A rows from column 4 (8 bytes off the 16-byte row grid)


@K.kernel(warps=WARPS)
def kernel(out: K.gptr[K.f32]):
    smem = K.smem_pool()
    a_tile = smem.alloc((32, 16), K.f16, swizzle=K.SW32B)
    b_nk = smem.alloc((8, 16), K.f16, swizzle=K.SW32B)
    smem.commit()
    warp = K.warp_id()
    lane = K.lane_id()
    acc = K.alloc_local((4,), K.f32)
    a_frag = K.alloc_local((2,), K.u32)
    b_frag = K.alloc_local((1,), K.u32)
    K.ptx.ldmatrix.sync.aligned.m8n8.x2.shared.b16(a_frag[0], a_frag[1],
                                                   a_tile.ptr_to(warp * 16 + lane % 16, 4 if SKEW else 0))
    K.ptx.ldmatrix.sync.aligned.m8n8.x1.shared.b16(b_frag[0], b_nk.ptr_to(lane % 8, 0))
    K.ptx.mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32(
        *(acc[i] for i in range(4)), a_frag[0], a_frag[1], b_frag[0], *(K.float32(0.0) for _ in range(4)))
    K.ptx.mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32(
        acc[0], acc[1], acc[2], acc[3], a_frag[0], a_frag[1], b_frag[0], acc[0], acc[1], acc[2], acc[3])
    acc2 = K.alloc_local((8,), K.f32)
    for j in range(2):
        K.ptx.mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32(
            acc2[4 * j], acc2[4 * j + 1], acc2[4 * j + 2], acc2[4 * j + 3], a_frag[0], a_frag[1], b_frag[0],
            acc2[4 * j], acc2[4 * j + 1], acc2[4 * j + 2], acc2[4 * j + 3])
