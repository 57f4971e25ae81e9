"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): TMA tile
copies carrying the fields of tools/extract/tma_fields.py.

* a load of a 64-row box from A, which has BATCH rows: at BATCH 1 the box runs past the tensor
  (`past_tensor`: the rows past it are zero-filled), at BATCH 64 it is inside (no field);
* a load of B, inside at every BATCH (no field);
* two stores of 32 rows each into C (BATCH rows) with `use_tma_reduce` through a `**cfg` dictionary
  (`reduce`): at BATCH 1 the first runs past C and the second lies wholly past it (the TMA writes
  nothing; both `past_tensor`);
* a store of B's tile into D with `use_tma_reduce=None`: TVM's default, the plain store (no field);
* `--param REDUCE=False`: TVM refuses a reduce that is not None and not a mode;
* `--param LOAD_REDUCE=True`: the reduce also on the load of B, which TVM refuses (shared -> global
  only).
"""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

BATCH = 1
REDUCE = "add"
LOAD_REDUCE = False


def store_cfg(mode):
    return {"dispatch": "tma", "use_tma_reduce": mode}


@T.prim_func
def tma_fields_kernel(A: T.Buffer((BATCH, 64), "float16"), B: T.Buffer((64, 64), "float16"),
                      C: T.Buffer((BATCH, 64), "float16"), D: T.Buffer((64, 64), "float16")):
    bars = T.alloc_buffer((2,), "uint64", scope="shared.dyn")
    A_smem = T.alloc_buffer((64, 64), "float16", scope="shared.dyn",
                            layout=T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(64, 64):(64, 1)])))
    B_smem = T.alloc_buffer((64, 64), "float16", scope="shared.dyn",
                            layout=T.ComposeLayout(3, 3, 3, T.TileLayout(T.S[(64, 64):(64, 1)])))
    Tx.copy_async(A_smem[0:64, :], A[0:64, :], dispatch="tma", mbar=bars.ptr_to([0]))
    if LOAD_REDUCE:
        Tx.copy_async(B_smem[:, :], B[:, :], dispatch="tma", mbar=bars.ptr_to([1]), use_tma_reduce="add")
    else:
        Tx.copy_async(B_smem[:, :], B[:, :], dispatch="tma", mbar=bars.ptr_to([1]))
    Tx.copy_async(C[0:32, :], A_smem[0:32, :], **store_cfg(REDUCE))
    Tx.copy_async(C[32:64, :], A_smem[32:64, :], **store_cfg(REDUCE))
    Tx.copy_async(D[:, :], B_smem[:, :], dispatch="tma", use_tma_reduce=None)
