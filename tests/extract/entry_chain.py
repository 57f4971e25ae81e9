# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any
# kernel repository): the kernel's call site is in build(), which get_kernel() calls; get_kernel
# is the entry point the runner calls with CONFIGS[0] as keyword arguments (its entries take the
# place of the defaults), M is drawn from a seeded random.Random, and a str Enum is looked up by
# value.
import random
from enum import Enum

from tvm.script import tirx as T

CONFIGS = [{"groups": 3, "per_group": 100, "seed": 7, "mode": "fast"}]
ALIGN = 16


class Mode(str, Enum):
    FAST = "fast"
    SLOW = "slow"


def _group_rows(groups, per_group, seed):
    rng = random.Random(seed)
    return [int(per_group * rng.uniform(0.5, 1.5)) for _ in range(groups)]


@T.prim_func
def _kernel(A: T.Buffer((M, 64), "float16"), *, M: T.constexpr, ROWS: T.constexpr):
    pool = T.SMEMPool()
    tile = pool.alloc((ROWS, 64), "float16", layout=T.TileLayout(T.S[(ROWS, 64):(64, 1)]))


def build(M, kind):
    rows = 64 if kind is Mode.FAST else 32
    return _kernel.specialize(M=M, ROWS=rows)


def get_kernel(groups, per_group=None, seed=0, mode="slow", **kwargs):
    if per_group is None:
        raise ValueError("per_group is required")
    rows = _group_rows(groups, per_group, seed)
    M = sum((r + ALIGN - 1) // ALIGN * ALIGN for r in rows)
    return build(M, Mode(mode))
