"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): an
entry point whose configuration is keyword-only parameters without defaults and which no code
of the file calls (its caller is another module's), with one @dataclass configuration class
whose fields give those parameters defaults (tools/extract/py_classes.py entry_defaults): the
class's defaults are the default configuration (entry_config_two.py: two classes fit, so the
parameters stay unresolved)."""
from dataclasses import dataclass

@dataclass
class LoadConfig:
    rows: int = 64
    cols: int = 64
    pitch: int = 64


def get_kernel(*, rows: int, cols: int, pitch: int):
    from tvm.script import tirx as T
    from tvm.script import tirx as Tx

    @T.prim_func
    def load(A: T.Buffer((128, 64), "float16")):
        pool = T.SMEMPool()
        S = pool.alloc((rows, cols), "float16", layout=T.TileLayout(T.S[(rows, cols):(pitch, 1)]))
        pool.commit()
        Tx.copy_async(S[:, :], A[0:rows, 0:cols], dispatch="tma")

    return load
