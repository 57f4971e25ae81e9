# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any kernel
# repository): T.reinterpret as a bit cast of numbers given with their dtype.  The copy's first row
# is T.reinterpret("int32", T.uint32(64)) = 64; its row count is stored under a test on
# T.reinterpret("float32", T.uint32(0x3F800000)), the float32 whose bits those are (1.0), so the
# test is decided and the copy is A[64:128, :].
# --param NEG=True: T.reinterpret("int32", T.uint32(0xFFFFFFC0)) is -64 (two's complement), so the
# copy reads rows -64..-1, which the extraction refuses (outside the tensor).
# --param WIDE=True: T.reinterpret("int64", T.uint32(64)), a 32-bit value as a 64-bit type (TVM
# requires the same width): refused, naming the widths.
from tvm.script import tirx as T
from tvm.script import tirx as Tx

NEG = False
WIDE = False


@T.prim_func
def reinterpret_kernel(A: T.Buffer((256, 64), "float16")):
    warp = T.warp_id([4])
    tile = T.alloc_buffer((64, 64), "float16", scope="shared.dyn")
    if WIDE:
        row = T.reinterpret("int64", T.uint32(64))
    elif NEG:
        row = T.reinterpret("int32", T.uint32(0xFFFFFFC0))
    else:
        row = T.reinterpret("int32", T.uint32(64))
    span: T.int32
    span = 0
    if T.reinterpret("float32", T.uint32(0x3F800000)) == 1.0:
        span = 64
    if warp == 2:
        Tx.copy_async(tile[:, :], A[row:row + span, :], dispatch="tma")
