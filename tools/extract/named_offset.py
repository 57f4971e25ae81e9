"""An integer computed from a buffer's `elem_offset`, remembering that buffer.

flash_attention_backward (92240d6, lines 296-300, 1079-1116) points every shared-memory
descriptor at its operand by adding `(X.elem_offset - Q_row.elem_offset) * 2 // 16` 16-byte units
to Q_row's start field.  The number is exact (flow_pool.py derives each elem_offset), so the
address is known; but the SMEMPool reuses bytes (sK for the dK epilogue tile, `move_base_to`), and
then two pool buffers hold the byte the address names.  The source itself says which one it
means: the offset is X's.  `Toward(n, X)` is the integer n with that note: `X.elem_offset` is
one; `a - b` of two keeps a's buffer (the distance from b to a), `a - k`, `a + k`, `a * k`,
`a // k` with a plain positive integer k keep it; anything else is a plain int, and casts keep it
(kernel_env).  instr_ops._in_pool_neighbour uses the note only to choose among the buffers that
hold the byte the exact address names; the address itself is never changed by it."""
from __future__ import annotations


class Toward(int):
    def __new__(cls, value: int, buf):
        obj = super().__new__(cls, int(value))
        obj.buf = buf
        return obj

    def _keep(self, v):
        return Toward(v, self.buf)

    def __sub__(self, k):
        if isinstance(k, bool) or not isinstance(k, int):
            return NotImplemented
        return self._keep(int(self) - int(k))

    def __add__(self, k):
        if isinstance(k, bool) or not isinstance(k, int) or isinstance(k, Toward):
            return int(self) + k if isinstance(k, int) else NotImplemented
        return self._keep(int(self) + k)

    __radd__ = __add__

    def __mul__(self, k):
        if type(k) is int and k > 0:
            return self._keep(int(self) * k)
        return int(self) * k if isinstance(k, int) else NotImplemented

    __rmul__ = __mul__

    def __floordiv__(self, k):
        if type(k) is int and k > 0:
            return self._keep(int(self) // k)
        return int(self) // k if isinstance(k, int) else NotImplemented

    def __rsub__(self, k):
        return int(k) - int(self)


def toward(v):
    """The buffer v's offset was computed toward, or None."""
    return getattr(v, "buf", None) if isinstance(v, Toward) else None
