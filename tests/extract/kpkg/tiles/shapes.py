# Written for tirx-verify's extraction tests: module constants and a helper read through an
# absolute import of the kernel's own package; its own relative import is read from here.
from . import widths as _w

TILE_M = 128
STAGES = 3


def tile_k(dtype_bytes):
    return _w.ROW_BYTES // dtype_bytes
