"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
arithmetic on a helper function, so that Python's own message would name the extractor's
internal class for functions; the reason must say "function" instead."""
from tvm.script import tirx as T


def helper():
    return 1


ROWS = helper + 1


@T.prim_func
def kernel(A: T.Buffer((ROWS, 64), "float16")):
    pass
