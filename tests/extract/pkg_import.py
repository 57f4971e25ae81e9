# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any
# kernel repository): names from modules of its own package (kpkg, next to this file) imported
# absolutely, a module imported by name, an import of a module the package does not have, and a
# functools.partial of a package helper.
from functools import partial

import kpkg.tiles.shapes as shapes
from kpkg.tiles import widths
from kpkg.tiles.shapes import STAGES, TILE_M, tile_k
from kpkg.missing import EXTRA
from tvm.script import tirx as T

_one_byte_k = partial(tile_k, 1)


@T.prim_func
def kernel(A: T.Buffer((TILE_M, tile_k(2)), "float16")):
    pool = T.SMEMPool()
    As = pool.alloc((STAGES, shapes.TILE_M, tile_k(2)), "float16", swizzle=3)
    W = pool.alloc((widths.ROW_BYTES,), "uint8", layout=T.TileLayout(T.S[widths.ROW_BYTES:1]))
    X = pool.alloc((EXTRA,), "uint8", layout=T.TileLayout(T.S[EXTRA:1]))
    P = pool.alloc((_one_byte_k(),), "uint8", layout=T.TileLayout(T.S[128:1]))
