# Written for tirx-verify's extraction tests: a hostile file whose module constants and helper
# would take unbounded memory or time if evaluated (a 10^12-element tuple, 7 ** 10^9, 1 << 10^12,
# a 10^10-iteration loop); each is refused with its limit and the buffers over them unresolved.
from tvm.script import tirx as T

BIG = (0,) * (10 ** 12)
HUGE = 7 ** (10 ** 9)
SHIFT = 1 << (10 ** 12)


def spin(n):
    total = 0
    for i in range(100000):
        for j in range(100000):
            total += 1
    return total


N = spin(3)


@T.prim_func
def kernel(A: T.Buffer((len(BIG), 8), "float16"), B: T.Buffer((N, 8), "float16"), C: T.Buffer((HUGE % 7 + SHIFT, 8), "float16")):
    pass
