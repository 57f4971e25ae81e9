"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): one
256-column TMEM allocation addressed by raw column numbers (the kernel never adds the address
tcgen05.alloc returned).  Under the representative instance (the CTA alone on its SM) the
allocation is taken to start at lane 0, column 0 and the binding is recorded in
extraction.instance.bindings; under `--instance none` the addresses stay unresolved."""
from tvm.script import tirx as T

_ST = "tcgen05.st.sync.aligned.32x32b.x8.b32"
_LD = "tcgen05.ld.sync.aligned.32x32b.x8.b32"


@T.prim_func
def kernel(X: T.Buffer((128, 64), "float16")):
    wg_id = T.warpgroup_id([1])
    pool = T.SMEMPool()
    tmem_addr = pool.alloc([1], "uint32", align=4)
    pool.commit()
    tmem_pool = T.TMEMPool(pool, total_cols=256, cta_group=1, tmem_addr=tmem_addr)
    acc = tmem_pool.alloc((128, 256), "float32")
    tmem_pool.commit()
    words = T.alloc_local((8,), "uint32")
    got = T.alloc_local((8,), "uint32")
    if wg_id == 0:
        T.ptx[_ST](T.uint32(64), *[words[j] for j in range(8)])
        T.ptx[_LD](*[got[j] for j in range(8)], T.uint32(64))
        tmem_pool.dealloc()
