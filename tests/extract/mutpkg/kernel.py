"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): a
module-level dict of a sibling module (defaults.CONFIG) changed by another sibling at import
(tweak.py: CONFIG["ROWS"] = 64), imported before the kernel reads it.  Python runs tweak's
statement at the import, so ROWS is 64 (before, a sibling's item store was skipped: 128, a model
reported complete with the wrong shape).  With UNKNOWN the change comes from tweak_unknown.py,
whose value the source does not fix: ROWS is unresolved."""
from tvm.script import tirx as T
from tvm.script import tirx as Tx

UNKNOWN = False
if UNKNOWN:
    from . import tweak_unknown  # noqa: F401
else:
    from . import tweak  # noqa: F401
from .defaults import CONFIG

ROWS = CONFIG["ROWS"]


@T.prim_func
def k(A: T.Buffer((256, 64), "float16")):
    pool = T.SMEMPool()
    A_smem = pool.alloc_tcgen05_mma_AB((ROWS, 64), "float16")
    pool.commit()
    Tx.copy_async(A_smem[:, :], A[0:ROWS, :], dispatch="tma")
