"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): 8-bit
shared-memory moves.  Each lane of warp 0 loads its 4 flag bytes (one row of a (32, 4) uint8 tile)
into an 8-bit register array with ld.shared.u8, byte by byte, and stores them to a second tile
with st.shared.b8; each lane also stores one byte into a scratch allocation without a layout (not
a model buffer: no op).  Under --param SHIFT=1 the stores go one column on, past the tile's row:
refused.  (smem.bank-conflicts is n/a on 1-byte accesses: its wavefront model covers 4, 8 and 16
bytes.)"""
from tvm.script import tirx as T

SHIFT = 0


def flags():
    warp_id = T.warp_id([4])
    lane_id = T.lane_id([32])
    pool = T.SMEMPool()
    src = pool.alloc((32, 4), "uint8", layout=T.TileLayout(T.S[(32, 4):(4, 1)]))
    dst = pool.alloc((32, 4), "uint8", layout=T.TileLayout(T.S[(32, 4):(4, 1)]))
    scratch = pool.alloc((32,), "uint8")
    pool.commit()
    b = T.alloc_buffer((4,), "uint8", scope="local")
    if warp_id == 0:
        for j in T.unroll(4):
            T.ptx.ld.shared.u8(b[j], src.ptr_to([lane_id, j]))
        for j in T.unroll(4):
            T.ptx.st.shared.b8(dst.ptr_to([lane_id, j + SHIFT]), b[j])
        T.ptx.st.shared.b8(scratch.ptr_to([lane_id]), b[0])
