# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any
# kernel repository): global buffers bound to handle parameters by T.match_buffer, one over a
# runtime scalar parameter (unresolved, named as such; --param fixes it), one with strides=
# (refused), a 1-D shape given as a scalar.
from tvm.script import tirx as T

BLK = 64


@T.prim_func
def kernel(a_h: T.handle, b_h: T.handle, c_h: T.handle, d_h: T.handle, n: T.int32):
    A = T.match_buffer(a_h, (128, BLK), "float16")
    B = T.match_buffer(b_h, (n, BLK), "float16", scope="global")
    C = T.match_buffer(c_h, (BLK,), "float32", strides=(2,))
    D = T.match_buffer(d_h, BLK * 2, dtype="int32")
    pool = T.SMEMPool()
    As = pool.alloc((128, BLK), "float16", layout=T.TileLayout(T.S[(128, BLK):(BLK, 1)]))
    T.copy_async(As[:, :], A[:, :])
    T.copy_async(As[0:64, :], B[0:64, :])
