"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
layout bound through `T.meta_var(T.TileLayout(...))` and a method chain on that name
(`L.unpack(4).broadcast(4)`, as scale-factor kernels build their shared SF views), used by an
allocation and by a view of it to 8-bit scale factors."""
from tvm.script import tirx as T


def kern(A: T.Buffer((128, 4), "uint8")):
    warp_id = T.warp_id([4])
    words = T.meta_var(T.TileLayout(T.S[(6, 1, 4, 32) : (128, 128, 1, 4)]))
    sf8 = T.meta_var(words.unpack(4).broadcast(4))
    pool = T.SMEMPool()
    SF = pool.alloc((6, 128), "uint32", layout=words)
    pool.commit()
    SF8 = SF.view("float8_e8m0fnu").view(6, 128, 16, layout=sf8)
