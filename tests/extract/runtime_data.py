"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): TMA
coordinates and gather4 rows that are runtime data (runtime_data.py).  A TIR scalar `g` loaded
from global memory by `ld.global` is the head coordinate of a 3-D load (its box (K, 1, 8) lands
in a 2-D stage); a register `sched[0]` computed from a loaded value is the start of a derived row
coordinate; a helper's register (`ld_global_i32`, like the msa kernels' scalar ops) gives one
coordinate at one call site while another call site's value only decides a branch; a register
array `rows` filled from an index buffer gives the rows of two gather4 loads (one written 512
bytes into a 128B-swizzled stage, inside a swizzle atom), issued through a table of instruction
texts.  `--param ADDR=True` uses a TMEM address (tcgen05.alloc's result, loaded from shared
memory) as a coordinate: never bound.  `--param STAGE_OFF=0` writes the second gather at the
stage's first row instead (kernel.tma-layout then sees its rows overwrite the first gather's)."""
from tvm.script import tirx as Tx

M, K = 256, 64
ADDR = False
STAGE_OFF = 512
_G4 = "cp.async.bulk.tensor.2d.shared::cta.global.tile::gather4.mbarrier::complete_tx::bytes"
_TILE = "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
_TILE3 = "cp.async.bulk.tensor.3d.shared::cluster.global.mbarrier::complete_tx::bytes"
_TABLE = {"gather": _G4, "tile": _TILE}


def ld_global_i32(buf, i):
    out = Tx.alloc_local((1,), "int32")
    Tx.evaluate(Tx.ptx.ld.global_.b32(out[0], buf.ptr_to([i])))
    return out[0]


def runtime_rows(A: Tx.Buffer((M, K), "float16"), C: Tx.Buffer((M // 2, 2, K), "float16"),
                 meta: Tx.Buffer((8,), "int32"), idx: Tx.Buffer((4,), "int32")):
    A_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", A_map, "float16", 2, A.data, K, M, K * 2, K, 1,
                   1, 1, 0, 3, 0, 0)
    T_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", T_map, "float16", 2, A.data, K, M, K * 2, K, 8,
                   1, 1, 0, 3, 0, 0)
    B_map: Tx.let[Tx.handle("tensormap")] = Tx.tvm_stack_alloca("tensormap", 1)
    Tx.call_packed("runtime.cuTensorMapEncodeTiled", B_map, "float16", 3, C.data, K, 2, M // 2, K * 2,
                   K * 2 * 2, K, 1, 8, 1, 1, 1, 0, 3, 0, 0)
    warp_id = Tx.warp_id([4])
    lane_id = Tx.lane_id([32])
    pool = Tx.SMEMPool()
    bar = pool.alloc([2], "uint64", align=8)
    tmem_addr = pool.alloc([1], "uint32", align=4)
    A_smem = pool.alloc_tcgen05_mma_AB((2, 8, K), "float16")
    T_smem = pool.alloc_tcgen05_mma_AB((3, 8, K), "float16")
    B_smem = pool.alloc_tcgen05_mma_AB((8, K), "float16")
    pool.commit()
    if warp_id == 0:
        if Tx.filter(lane_id, Tx.cuda.elect_sync()):
            g: Tx.int32
            Tx.ptx.ld.global_.s32(g, meta.ptr_to([1]))
            Tx.ptx[_TILE3](B_smem.ptr_to([0, 0]), Tx.address_of(B_map), 0, g, 0, bar.ptr_to([1]))
            sched = Tx.alloc_local((2,), "uint32")
            start: Tx.int32
            Tx.ptx.ld.global_.s32(start, meta.ptr_to([0]))
            sched[0] = Tx.cast(start, "uint32") // Tx.uint32(4) * Tx.uint32(4)
            row0: Tx.uint32 = sched[0] + Tx.uint32(8)
            Tx.ptx[_TABLE["tile"]](T_smem.ptr_to([0, 0, 0]), Tx.address_of(T_map), 0, Tx.cast(row0, "int32"),
                                   bar.ptr_to([0]))
            kv0: Tx.int32 = ld_global_i32(meta, 2)
            n: Tx.int32 = ld_global_i32(meta, 3)
            if n > 0:
                Tx.ptx[_TILE](T_smem.ptr_to([1, 0, 0]), Tx.address_of(T_map), 0, kv0, bar.ptr_to([0]))
            rows = Tx.alloc_local((4,), "int32")
            for j in Tx.unroll(4):
                rows[j] = ld_global_i32(idx, j)
            Tx.ptx[_TABLE["gather"]](A_smem.ptr_to([0, 0, 0]), Tx.address_of(A_map), 0, rows[0], rows[1], rows[2],
                                     rows[3], bar.ptr_to([0]))
            Tx.ptx[_TABLE["gather"]](Tx.ptr_byte_offset(A_smem.ptr_to([0, 0, 0]), STAGE_OFF, "float16"),
                                     Tx.address_of(A_map), 0, rows[0], rows[1], rows[2], rows[3], bar.ptr_to([0]))
            if ADDR:
                base = Tx.alloc_local((1,), "uint32")
                Tx.evaluate(Tx.ptx.ld.shared.u32(base[0], tmem_addr.ptr_to([0])))
                Tx.ptx[_TILE](T_smem.ptr_to([2, 0, 0]), Tx.address_of(T_map), 0, base[0], bar.ptr_to([0]))
    if ADDR and warp_id == 1:
        Tx.ptx.tcgen05.alloc.cta_group__1.sync.aligned.shared__cta.b32(Tx.address_of(tmem_addr[0]), Tx.uint32(32))
