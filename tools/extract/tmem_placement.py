"""Where a TMEM buffer declared with `allocated_addr=` starts.

TVM's TMEMPool allocates by declaring `decl_buffer(shape, dtype, scope="tmem",
allocated_addr=col_start, layout=...)` with col_start the column offset from the pool's
allocation base (apache/tvm 5d4dc87 python/tvm/backend/cuda/lang/alloc_pool.py:292-304,
TMEMPool.alloc).  A kernel that declares a TMEM buffer itself that way with a value the source
fixes has placed it: the model buffer gets `placement: {"lane": 0, "col": col_start}` (lane 0:
the allocation base is lane 0; docs/model-format.md "placement").  A value the source does not
fix leaves the buffer without a placement (nothing is assumed).
"""
from __future__ import annotations

import ast

from kernel_env import ConvertError, UnresolvedError

TMEM_COLS = 512


def record(call: ast.Call, ev, ex, ref) -> None:
    node = next((k.value for k in call.keywords if k.arg == "allocated_addr"), None)
    if node is None:
        return
    try:
        col = ev.as_int(node)
    except (UnresolvedError, ConvertError, ArithmeticError, TypeError, ValueError):
        return
    if not 0 <= col < TMEM_COLS:
        raise ConvertError(f"allocated_addr={col} is not a TMEM column 0..{TMEM_COLS - 1}")
    for b in ex.buffers:
        if b["name"] == ref.name:
            b["placement"] = {"lane": 0, "col": col}
