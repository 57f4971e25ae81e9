"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository):
module names the file binds where the extraction does not look: a use before the assignment
(a cycle), a name bound only in a try statement, a module imported with `import`."""
import sys

from tvm.script import tirx as T

FIRST = SECOND
SECOND = FIRST
try:
    ROWS = 32
except ImportError:
    ROWS = 64
COLS = sys.maxsize


@T.prim_func
def kernel(A: T.Buffer((SECOND, 8), "float16"), B: T.Buffer((ROWS, 8), "float16"),
           C: T.Buffer((8, COLS), "float16")):
    pass
