"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a TMEM
declaration whose `allocated_addr=` is the address tcgen05.alloc wrote into shared memory
(`tmem_ptr[0]`, a runtime value), as the pre-subpackage MegaMoE kernel declares its accumulator
(tools/extract/tmem_ops.py note_decl): the buffer is extracted without a placement (its column
is not a number the source fixes) instead of the extraction failing."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx


@T.prim_func
def tmem_addr_runtime(A: T.Buffer((128, 64), "float16")):
    pool = T.SMEMPool()
    tmem_ptr = pool.alloc((1,), "uint32")
    Asmem = pool.alloc_tcgen05_mma_AB((128, 64), "float16")
    Bsmem = pool.alloc_tcgen05_mma_AB((64, 64), "float16")
    pool.commit()
    acc = T.decl_buffer((128, 64), "float32", scope="tmem", allocated_addr=tmem_ptr[0],
                        layout=T.TileLayout(T.S[(128, 64):(1 @ T.TLane, 1 @ T.TCol)]))
    Tx.gemm_async(acc[:, :], Asmem[:, :], Bsmem[:, :], accum=False, dispatch="tcgen05")
