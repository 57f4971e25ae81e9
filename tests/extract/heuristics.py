# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any
# kernel repository): the tile shape comes from a host-side heuristic with for loops,
# continue/break, a list built by append, min() over tuples, `x % y or y`, a starred display,
# augmented assignment, an assert and a while loop; a name assigned in a try statement stays
# unresolved; tirx.Cast of a constant wraps to its type, T.Or / T.bool of fixed conditions, a
# swizzle mode's value; a helper that returns under a test on process state (sys.modules) stays
# unresolved, and so does a read of an environment variable the code set itself.
import math
import os
import sys

from tvm.backend.cuda.tile_primitive.tma_utils import SwizzleMode
from tvm.script import tirx as T
from tvm.script import tirx as Tx

SM_COUNT = 148
CONFIGS = [{"M": 4096, "N": 2112, "K": 512}]


def _choose(M, N, K):
    candidates = []
    for block_m in (64, 128):
        for block_n in [16, *range(32, 257, 32)]:
            if block_n % 48 == 0:
                continue
            blocks = math.ceil(M / block_m) * math.ceil(N / block_n)
            waves = math.ceil(blocks / SM_COUNT)
            last = blocks % SM_COUNT or SM_COUNT
            candidates.append((waves, -last, block_m + block_n, block_m, block_n))
        if len(candidates) > 100:
            break
    assert candidates, "no candidate"
    _, _, _, block_m, block_n = min(candidates)
    stages = 0
    for _ in range(8):
        stages += 1
        if stages * (block_m + block_n) * 128 >= 4 * 32768:
            break
    return block_m, block_n, stages


def _count(default=148):
    override = os.environ.get("HEURISTICS_TEST_COUNT")
    if override is not None:
        return int(override)
    loaded = sys.modules.get("torch")
    if loaded is not None:
        return 132
    return default


def _guarded(n):
    try:
        m = n * 2
    except ValueError:
        m = 0
    return m


def _env_set_then_read():
    os.environ["HEURISTICS_TEST_FLAG"] = "2"
    return int(os.environ.get("HEURISTICS_TEST_FLAG", "1"))


def _spin(n):
    k = 0
    while k < n:
        k = k + 1
    return k


@T.prim_func
def _kernel(A: T.Buffer((M, K), "float16"), *, M: T.constexpr, N: T.constexpr, K: T.constexpr):
    BM, BN, ST = T.meta_var(_choose(M, N, K))
    pool = T.SMEMPool()
    Asmem = pool.alloc((ST, BM, 64), "float16", layout=T.TileLayout(T.S[(ST, BM, 64):(BM * 64, 64, 1)]))
    Bsmem = pool.alloc((ST, BN, 64), "float16", layout=T.TileLayout(T.S[(ST, BN, 64):(BN * 64, 64, 1)]))
    Spun = pool.alloc((_spin(4),), "float32", layout=T.TileLayout(T.S[4:1]))
    Tx.copy_async(Asmem[0, :, :], A[0:BM, 0:64])
    Wrapped = pool.alloc((T.Cast("uint8", 260),), "float32", layout=T.TileLayout(T.S[4:1]))
    Either = pool.alloc((8 if T.Or(BM == 64, T.bool(True)) else 2,), "float32", layout=T.TileLayout(T.S[8:1]))
    Atom = pool.alloc((SwizzleMode.SWIZZLE_64B_ATOM.value * 16,), "float32",
                      layout=T.TileLayout(T.S[SwizzleMode.SWIZZLE_64B_ATOM.value * 16:1]))
    Counted = pool.alloc((_count(),), "float32", layout=T.TileLayout(T.S[148:1]))
    Guarded = pool.alloc((_guarded(4),), "float32", layout=T.TileLayout(T.S[8:1]))
    Flagged = pool.alloc((_env_set_then_read(),), "float32", layout=T.TileLayout(T.S[2:1]))
    Picked = pool.alloc((T.if_then_else(BM == 128, T.bitwise_or(4, 2), 1),), "float32", layout=T.TileLayout(T.S[6:1]))
