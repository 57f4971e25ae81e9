"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
ldmatrix .x4 / .x2 / .x4.trans feeding mma.sync m16n8k16 in the kern DSL, two warps, one
16-row band of A per warp, B stored N x K (ldmatrix .x2) and K x N (.x4.trans)."""
import tirx_kernels.kern as K

ROWS = 32
WARPS = 2
K_STEPS = 4
SWAPPED_ROWS = False  # --param SWAPPED_ROWS=True: lanes 8..15 and 16..23 pass each other's rows


def _ldsm_x4(ptr, frag, trans):
    if trans:
        K.ptx.ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16(frag[0], frag[1], frag[2], frag[3], ptr)
    else:
        K.ptx.ldmatrix.sync.aligned.m8n8.x4.shared.b16(frag[0], frag[1], frag[2], frag[3], ptr)


def _ldsm_x2(ptr, frag):
    K.ptx.ldmatrix.sync.aligned.m8n8.x2.shared.b16(frag[0], frag[1], ptr)


_ZERO = (K.float32(0.0), K.float32(0.0), K.float32(0.0), K.float32(0.0))


def _mma(acc, a, b, first):
    if first:
        K.ptx.mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32(
            acc[0], acc[1], acc[2], acc[3], a[0], a[1], a[2], a[3], b[0], b[1], *_ZERO)
    else:
        K.ptx.mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32(
            acc[0], acc[1], acc[2], acc[3], a[0], a[1], a[2], a[3], b[0], b[1],
            acc[0], acc[1], acc[2], acc[3])


@K.kernel(warps=WARPS)
def kernel(out: K.gptr[K.f32]):
    smem = K.smem_pool()
    a_tile = smem.alloc((ROWS, 64), K.f16, swizzle=K.SW128B)
    b_nk = smem.alloc((8, 64), K.f16, swizzle=K.SW128B)
    b_kn = smem.alloc((32, 16), K.f16, swizzle=K.SW32B)
    smem.commit()
    warp = K.warp_id()
    lane = K.lane_id()
    acc = K.alloc_local((4,), K.f32)
    a_frag = K.alloc_local((4,), K.u32)
    b_frag = K.alloc_local((2,), K.u32)
    bt_frag = K.alloc_local((4,), K.u32)
    for kk in range(K_STEPS):
        if SWAPPED_ROWS:
            row = warp * 16 + lane % 8 + lane // 16 * 8
            col = kk * 16 + lane // 8 % 2 * 8
        else:
            row = warp * 16 + lane % 16
            col = kk * 16 + lane // 16 * 8
        _ldsm_x4(a_tile.ptr_to(row, col), a_frag, False)
        _ldsm_x2(b_nk.ptr_to(lane % 8, kk * 16 + lane // 8 % 2 * 8), b_frag)
        _mma(acc, a_frag, b_frag, kk == 0)
    for kk in range(2):
        _ldsm_x4(b_kn.ptr_to(kk * 16 + lane % 16, lane // 16 * 8), bt_frag, True)
        _mma(acc, a_frag, bt_frag, False)
