# Written for tirx-verify's extraction tests: a sibling module that is not valid Python
# (syntax_error.py) leaves the names taken from it undetermined, never a crash.
from tvm.script import tirx as T

from . import syntax_error as bad
from .no_such_module import TILE


@T.prim_func
def kernel(A: T.Buffer((128, bad.N), "float16")):
    pool = T.SMEMPool()
    Asmem = pool.alloc_tcgen05_mma_AB((2, 128, TILE), "float16")
