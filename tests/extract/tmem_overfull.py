# A TMEMPool of 64 columns asked for 128 + 32: both buffers are placed where the bump allocator
# puts them, and run's kernel.overlap reports the allocation that does not hold them.
from tvm.script import tirx as T


@T.prim_func
def overfull(G: T.Buffer((128, 64), "float16")):
    pool = T.SMEMPool()
    slot = pool.alloc((1,), "uint32")
    tp = T.TMEMPool(pool, total_cols=64, cta_group=1, tmem_addr=slot)
    big = tp.alloc((128, 128), "float32")
    small = tp.alloc((128, 32), "float32")
    tp.commit()
    tp.dealloc()
