"""Test kernel written for tirx-verify's extraction tests (not from any kernel repository): the
specialization's keywords come partly from a `**{...}` expansion,
`_kernel.specialize(ROWS=64, **({} if extra else {"extra_h": None}))`, so the optional handle
`extra_h` is None at the default configuration and `if has_extra:` (has_extra = extra_h is not
None) is decided: the tile has ROWS // 2 rows.  `--param extra=True` leaves extra_h a handle
passed at launch, so the branch is not decided and the tile stays unresolved."""
from tvm.script import tirx as T


@T.prim_func
def _kernel(a_h: T.handle, extra_h: T.Optional[T.handle], *, ROWS: T.constexpr):
    has_extra = T.meta_var(extra_h is not None)
    A = T.match_buffer(a_h, (128, 64), "float16")
    pool = T.SMEMPool()
    if has_extra:
        tile = pool.alloc((ROWS, 64), "float16", layout=T.TileLayout(T.S[(ROWS, 64):(64, 1)]))
    else:
        tile = pool.alloc((ROWS // 2, 64), "float16", layout=T.TileLayout(T.S[(ROWS // 2, 64):(64, 1)]))
    pool.commit()
    T.evaluate(A.data)


def get_kernel(extra=False):
    return _kernel.specialize(ROWS=64, **({} if extra else {"extra_h": None}))
