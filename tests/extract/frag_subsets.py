"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
ldmatrix / stmatrix moving some registers of a larger register set.

* warp 0 loads a 16 x 16 bf16 block of a 128B-swizzled tile with two ldmatrix .x2 into words 0, 2
  and words 1, 3 of `frag.local().view("uint32")` (frag: a declared (32, 16) bf16 fragment, one row
  per lane; its .local() view's elements are the lane's registers).  The address is
  software-swizzled: the row-major byte of (row, col) with its 16-byte chunk XORed by row % 8,
  written as T.ptr_byte_offset(tile.ptr_to([0, 0]), swizzled * 2, "bfloat16"), which is the
  element (row, col) of the tile (byte_addr.py);
* warp 1 stores registers 4..7 of an 8-register array with stmatrix .x4 to another tile.
Under --param NO_XOR=True the address is the plain row-major byte: the lanes' rows are then other
elements of the swizzled tile, not a box: refused.  Under --param SKEW=4 the stored rows start 4
columns in (across two 16-byte chunks of the swizzle): kernel.fragment finds it."""
from tvm.script import tirx as T

NO_XOR = False
SKEW = 0


def kernel():
    warp_id = T.warp_id([2])
    lane_id = T.lane_id([32])
    pool = T.SMEMPool()
    tile = pool.alloc_tcgen05_mma_AB((16, 64), "bfloat16")
    out = pool.alloc_tcgen05_mma_AB((16, 64), "bfloat16")
    pool.commit()
    frag = T.alloc_buffer((32, 16), "bfloat16", scope="local", layout=T.TileLayout(T.S[(32, 16):(1 @ T.laneid, 1)]))
    words = frag.local().view("uint32")
    regs = T.alloc_local((8,), "uint32")
    if warp_id == 0:
        for h in T.unroll(2):
            linear = T.meta_var((lane_id % 16) * 64 + lane_id // 16 * 8 + h * 16)
            swizzled = T.meta_var(linear if NO_XOR else
                                  T.bitwise_xor(linear, T.shift_right(T.bitwise_and(linear, 0x1C0), 3)))
            T.ptx.ldmatrix.sync.aligned.m8n8.x2.shared.b16(
                words[h], words[h + 2], T.ptr_byte_offset(tile.ptr_to([0, 0]), swizzled * 2, "bfloat16"))
    else:
        T.ptx.stmatrix.sync.aligned.m8n8.x4.shared.b16(out.ptr_to([lane_id % 16, lane_id // 16 * 8 + SKEW]),
                                                       regs[4], regs[5], regs[6], regs[7])
