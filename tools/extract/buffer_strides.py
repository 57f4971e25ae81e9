"""`strides=` of a buffer declaration (T.Buffer, T.decl_buffer, T.alloc_buffer, SMEMPool.alloc).

TVM keeps a buffer's strides and its layout side by side: the Python builders make the layout
from `layout=` or, for "default", from the shape alone (`TileLayout(S[shape])`, apache/tvm
5d4dc87 python/tvm/tirx/script/builder/ir.py:126-139, `_get_layout`), and pass the strides to the
Buffer unchanged (ir.py:332-345, 526-536, 971-983, 1837-1850).  Strides equal to the layout's
row-major strides change nothing.  Other strides disagree with the layout the model would get,
and which of the two a lowering addresses the buffer with is not derived here: the buffer is
refused with that reason (never the row-major layout silently, never a guess of the strides').
"""
from __future__ import annotations

import ast

from kernel_env import ConvertError

# position of `strides` among the positional parameters
POSITION = {"Buffer": 3, "decl_buffer": 3, "alloc_buffer": 3, "alloc_shared": 3, "alloc_local": 3, "alloc": 2}


def check(call: ast.Call, short: str, shape: tuple, layout_text: str | None, ev) -> None:
    node = next((k.value for k in call.keywords if k.arg == "strides"), None)
    pos = POSITION.get(short)
    if node is None and pos is not None and len(call.args) > pos:
        node = call.args[pos]
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return
    strides = ev.value(node)
    if not isinstance(strides, (tuple, list)) or len(strides) != len(shape):
        raise ConvertError(f"strides={ast.unparse(node)} does not give one stride per dimension of {tuple(shape)}")
    row, acc = [], 1
    for e in reversed(shape):
        row.append(acc)
        acc *= e
    row = tuple(reversed(row))
    from allocators import row_major
    if tuple(strides) == row and (layout_text is None or layout_text.replace(" ", "") == row_major(tuple(shape))):
        return
    raise ConvertError(f"strides={tuple(strides)} next to the layout {layout_text or 'S[shape] (the default)'}: TVM "
                       "keeps both (ir.py _get_layout makes the layout without the strides); which one the lowering "
                       "addresses the buffer with is not derived")
