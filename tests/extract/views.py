# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any
# kernel repository): buffers derived from other buffers (view to another shape or dtype
# without layout=, with_dtype, permute, rearrange, sub, tile, local), a region through chunk,
# allocations without layout= (TVM's default row-major layout) and a declaration over another
# allocation's storage without scope=.
from tvm.script import tirx as T
from tvm.script import tirx as Tx

ROWS, COLS = 128, 256
OVERLAP = False


@T.prim_func
def views_kernel(A: T.Buffer((ROWS, COLS), "float16"), C: T.Buffer((64, 64), "float16")):
    pool = T.SMEMPool()
    bars = pool.alloc((2,), "uint64")
    stage = pool.alloc_tcgen05_mma_AB((2, 64, 64), "float16")
    raw8 = pool.alloc_tcgen05_mma_AB((64, 128), "uint8")
    kt = pool.alloc((64, 32), "float16")
    flat = stage.view(128, 64)
    flat2 = stage.view(-1, 64)
    second = stage.sub[1]
    rows = flat.tile(0, (-1, 4, 4))[:, 1, :]
    as_fp4 = raw8.view("float4_e2m1fn")
    as_u32 = raw8.view("uint32")
    kt_t = kt.permute(1, 0)
    tail = pool.alloc_tcgen05_mma_AB((64, 128), "float16").sub[:, 64:128]
    storage = T.alloc_buffer((0,), "uint8", scope="shared.dyn")
    words = T.decl_buffer((64,), data=storage.data, elem_offset=1024, scope="shared.dyn")
    # kt is a pool allocation: kt.data is the pool's pointer, 25600 bytes before kt (flow_pool.py),
    # so this declaration would start before kt (refused)
    kt_tile = T.decl_buffer((16, 128), "float16", data=kt.data, layout=T.TileLayout(T.S[(16, 128):(128, 1)]))
    kt_same = T.decl_buffer((32, 64), "float16", data=kt.data, elem_offset=kt.elem_offset)
    scratch = T.alloc_buffer((4096,), "uint8", scope="shared.dyn")
    half_tile = T.decl_buffer((64, 8), "float16", data=scratch.data, elem_offset=512)
    tmem_pool = T.TMEMPool(pool, total_cols=256, cta_group=1, tmem_addr=bars)
    tm = tmem_pool.alloc((128, 256), "float32")
    tmem_pool.commit()
    win = T.meta_var(tm.rearrange("m (s n) -> s m n", n=128))
    upper = tm.sub[:, 128:256]
    tm_u32 = tm.with_dtype("uint32")
    # TMEM re-declared by column address: the second lies inside the first's columns
    acc_a = T.decl_buffer((128, 128), "float32", scope="tmem", allocated_addr=0,
                          layout=T.TileLayout(T.S[(128, 128):(1 @ T.Axis.TLane, 1 @ T.Axis.TCol)]))
    acc_b = T.decl_buffer((2, 128, 32), "float32", scope="tmem", allocated_addr=64,
                          layout=T.TileLayout(T.S[(2, 128, 32):(32 @ T.Axis.TCol, 1 @ T.Axis.TLane, 1 @ T.Axis.TCol)]))
    frag = T.wg_reg_tile(32)
    regs = frag.local()
    pairs = frag.local(layout=T.TileLayout(T.S[(16, 2):(2, 1)]))
    vec: T.f32[16]
    vec_h = T.decl_buffer((32,), "float16", data=vec.data)
    arr = T.alloc_local((8,))
    arr_tile = arr.view(128, 8, layout=T.TileLayout(T.S[(128, 8):(1 @ T.Axis.tid_in_wg, 1)]))
    # refused as TVM refuses them: -1 not inferable, a pack whose innermost iter is not
    # contiguous, a TMEM view starting on a lane
    bad_shape = stage.view(3, -1)
    bad_pack = kt_t.view("uint32")
    bad_lane = tm.sub[64:128, :]
    Tx.copy_async(stage[0, :, :], A.chunk((2, 4))[1, 0])
    Tx.copy_async(flat[64:128, :], A[0:64, 64:128])
    if OVERLAP:
        Tx.copy_async(second[0:32, :], A[0:32, 128:192])
    Tx.copy_async(C[:, :], stage.view(128, 64)[0:64, :])
    # a warpgroup copy under a branch only warps 0-1 take: the rows those warps move
    warp_id = T.warp_id_in_wg([4])
    wg_id = T.warpgroup_id([1])
    src_frag = T.alloc_tcgen05_ldst_frag("32x32b", (128, 64), "float32")
    half_frag = T.alloc_tcgen05_ldst_frag("32x32b", (128, 32), "float32")
    Tx.wg.copy_async(tm[:, 0:64], src_frag[:, :])
    if warp_id < 2:
        Tx.wg.copy_async(half_frag[:, :], tm.chunk((None, 8))[:, 0])
    else:
        Tx.wg.copy_async(half_frag[:, :], tm.chunk((None, 8))[:, 1])
    tmem_pool.dealloc()
