"""Elements of a plain register buffer as registers: `x = T.alloc_local((4, 4), "int32")`, read `x[r, j]`.

A local buffer with no thread axes in its layout (each thread's own registers, allocated by the
kernel, not a view of another buffer) holds one register per element: `x[r, j]` with indices the
source fixes is register r * 4 + j (row-major in its shape, the order T.alloc_local lays it out) of
every thread.  Its content is a runtime value -- sparse_prefill_head64_phase1's `selected_idx`, filled
by `ld.global.nc.v4.u32` through a uint32 view and read as gather4 rows -- so it is a runtime-data
root like a register of a 1-D register array (fragments.RegArray, runtime_data.py): unresolved,
naming the register, and bound under the representative instance when an op's TMA coordinate or
gather4 row depends on it (the binding names the element by its indices).  Before, any element of a
model buffer was refused as "not registers of a register array".

Not registers here (refused as before): a buffer whose layout names thread axes (a fragment: which
register of which thread an element is depends on the layout), a view of another buffer, a
non-integer dtype, or indices the source does not fix.
"""
from __future__ import annotations

import math

SHAPES: dict = {}  # (name, line) -> shape of a buffer whose elements are registers (runtime_data.describe)


def plain(buf) -> bool:
    """Whether buf's elements are one register each of every thread."""
    return buf.scope == "local" and getattr(buf, "own_registers", False) and \
        getattr(buf, "local_root", None) is None and isinstance(buf.layout, str) and "@" not in buf.layout and \
        buf.dtype.startswith(("int", "uint"))


def element(buf, i):
    """The register (fragments.RegElem, or its bound value) of element i of buf, or None when buf's
    elements are not registers or i is not a point the source fixes."""
    idx = i if isinstance(i, tuple) else (i,)
    if not plain(buf) or len(idx) != len(buf.shape) or \
            not all(type(x) is int and 0 <= x < n for x, n in zip(idx, buf.shape)):
        return None
    import fragments
    arr = getattr(buf, "elem_regs", None)
    if arr is None:
        arr = buf.elem_regs = fragments.RegArray(buf.name, buf.line, math.prod(buf.shape), buf.dtype, None)
        SHAPES[(buf.name, buf.line)] = tuple(buf.shape)
    flat = 0
    for x, n in zip(idx, buf.shape):
        flat = flat * n + x
    return arr[flat]


def indices(name: str, line: int, flat: int) -> str:
    """`name[r, j]` for register `flat` of a buffer registered here, else `name[flat]`."""
    shape = SHAPES.get((name, line))
    if not shape or len(shape) < 2:
        return f"{name}[{flat}]"
    out = []
    for n in reversed(shape):
        out.append(flat % n)
        flat //= n
    return f"{name}[{', '.join(str(x) for x in reversed(out))}]"
