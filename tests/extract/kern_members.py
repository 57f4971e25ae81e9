"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): kern
DSL members with a static meaning -- K.warp_id_in_role() / K.tid_in_role() inside `with role:`
(counted from the role's first warp, kern/specialize.py:581-598), a branch on the in-role index,
K.alloc_local of a 2-D shape with a kern dtype token (K.u16: "uint16", kern/__init__.py:72), and
an in-role index outside any role (unresolved)."""
import tirx_kernels.kern as K

SKEW = False     # --param SKEW=True: rows from column 4 (8 bytes off the 16-byte grid)
OUTSIDE = False  # --param OUTSIDE=True: an in-role index read outside the role


@K.kernel(warps=8)
def kernel(out: K.gptr[K.f32]):
    smem = K.smem_pool()
    tile = smem.alloc((64, 64), K.f16, swizzle=K.SW128B)
    smem.commit()
    sp = K.specialize()
    loaders = sp.role("loaders", warps=[4, 5, 6, 7])
    lane = K.lane_id()
    flags = K.alloc_local((2, 4), K.u16)
    if OUTSIDE:
        early = K.alloc_local((2,), K.u32)
        K.ptx.ldmatrix.sync.aligned.m8n8.x2.shared.b16(early[0], early[1], tile.ptr_to(K.tid_in_role() % 16, 0))
    with loaders:
        frag = K.alloc_local((4,), K.u32)
        w = K.warp_id_in_role()
        K.ptx.ldmatrix.sync.aligned.m8n8.x4.shared.b16(frag[0], frag[1], frag[2], frag[3],
                                                       tile.ptr_to(w * 16 + lane % 16, lane // 16 * 8 + (4 if SKEW else 0)))
        with K.If(K.tid_in_role() < 32), K.Then():
            half = K.alloc_local((2,), K.u32)
            K.ptx.ldmatrix.sync.aligned.m8n8.x2.shared.b16(half[0], half[1], tile.ptr_to(lane % 16, 32))
