# A small TIRx-style kernel written for tirx-verify's extraction tests (not taken from any
# kernel repository): the kernel's switch `masked` comes from host code.  build_kernel's call site
# is in _compile(masked), which setup() calls with `masked = bool(data.get("masked", False))`;
# run_test (the entry point, CONFIGS[0]) gets `data, expected = _prepare(rows, masked)`, whose
# last statement returns the display `data, expected`: `expected` comes from a module that is not
# read, `data` is a record whose "masked" entry is the configuration's True.  Unpacked element by
# element, `data` is known (tuple_return.py), so masked is True and the tile has 64 columns.
# --param from_ref=True: `data` itself comes from the unread module: masked stays unresolved.
# --param early=True: _prepare returns before its last statement, a whole tuple (masked False).
import torch
from tvm.script import tirx as T

CONFIGS = [{"rows": 64, "masked": True}]


def build_kernel(ROWS, *, masked: bool = False):
    COLS = 64 if masked else 32

    @T.prim_func
    def kernel(A: T.Buffer((ROWS, 64), "float16")):
        pool = T.SMEMPool()
        tile = pool.alloc((ROWS, COLS), "float16", layout=T.TileLayout(T.S[(ROWS, COLS):(COLS, 1)]))

    return kernel


def _compile(rows, masked):
    return build_kernel(rows, masked=masked)


def _prepare(rows, masked, *, from_ref=False, early=False):
    from reference_impl import reference, reference_data

    a = torch.randn((rows, 64), dtype=torch.float16, device="cuda")
    if early:
        return {"A": a, "masked": False}, None
    with torch.no_grad():
        expected = reference(a, masked)
    data = reference_data(a) if from_ref else {"A": a, "masked": masked, "ref": expected}
    return data, expected


def setup(data, rows):
    masked = bool(data.get("masked", False))
    return _compile(rows, masked)


def run_test(rows, masked=False, from_ref=False, early=False):
    data, expected = _prepare(rows, masked, from_ref=from_ref, early=early)
    setup(data, rows)
