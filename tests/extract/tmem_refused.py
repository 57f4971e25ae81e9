"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
tcgen05.ld / tcgen05.st forms the extraction refuses, each with its reason (exit 3)."""
from tvm.script import tirx as T


@T.prim_func
def kernel(X: T.Buffer((128, 64), "float16")):
    wg_id = T.warpgroup_id([1])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    pool.commit()
    tmem_pool = T.TMEMPool(pool, total_cols=512, cta_group=1, tmem_addr=tmem_addr)
    acc = tmem_pool.alloc((128, 128), "float32")
    split = tmem_pool.alloc((2, 64, 64), "float32",
                            layout=T.TileLayout(T.S[(2, 64, 64):(64 @ T.TCol, 1 @ T.TLane, 1 @ T.TCol)]))
    sf = tmem_pool.alloc_sf((128, 4), "float8_e8m0fnu", sf_per_mma=4)
    # 2 x 8 bits of TCol span: not whole 32-bit columns (TMEMPool._resolve_cols asserts)
    odd = tmem_pool.alloc((128, 2), "float8_e8m0fnu", layout=T.TileLayout(T.S[(128, 2):(1 @ T.TLane, 1 @ T.TCol)]))
    late = tmem_pool.alloc((128, 32), "float32")
    tmem_pool.commit()
    r = T.alloc_local((8,), "float32")
    if wg_id == 0:
        T.ptx["tcgen05.ld.sync.aligned.16x256b.x3.b32"](*[r[j] for j in range(8)], acc.allocated_addr[0])
        T.ptx["tcgen05.ld.sync.aligned.16x256b.x1.b32"](*[r[j] for j in range(8)], acc.allocated_addr[0])
        T.ptx["tcgen05.ld.sync.aligned.32x32b.x2.b32"](r[0], r[2], acc.allocated_addr[0])
        T.ptx["tcgen05.ld.sync.aligned.16x32bx2.x2.b32"](r[0], r[1], acc.allocated_addr[0], 8)
        T.ptx["tcgen05.ld.sync.aligned.32x32b.x2.b32"](r[0], r[1], late.allocated_addr[0])
        T.ptx["tcgen05.ld.sync.aligned.32x32b.x2.b32"](r[0], r[1], split.allocated_addr[0])
        T.ptx["tcgen05.st.sync.aligned.32x32b.x2.b32"](T.cuda.get_tmem_addr(acc.allocated_addr[0], 128, 0), r[0], r[1])
        T.ptx["tcgen05.st.sync.aligned.32x32b.x2.b32"](acc.allocated_addr[0] + 127, r[0], r[1])
        T.ptx["tcgen05.ld.sync.aligned.16x64b.x1.pack::16b.b32"](r[0], acc.allocated_addr[0])
        d: T.uint64
        T.cuda.tcgen05.encode_matrix_descriptor(T.address_of(d), X.ptr_to([0, 0]), 1, 8, 0)
        T.ptx["tcgen05.cp.cta_group::1.4x256b"](acc.allocated_addr[0], d)
        T.ptx["tcgen05.cp.cta_group::1.128x256b.b8x16.b4x16_p64"](acc.allocated_addr[0], d)
