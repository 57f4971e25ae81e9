"""`K.cta_id()` without extents: the CTA index of a `@K.kernel(grid=...)` kernel.

The kern DSL (tirx_kernels/kern/entry.py:458-474 at d132501) answers the scope id the kernel's
decorator declared: a one-dimensional grid gives one scalar id, a multidimensional grid one id per
dimension, `grid=False` raises (no scope declared).  Under the representative instance (CTA 0 of
the grid) each id is 0.  kernel_walk.Walker.walk_function pushes the grid rank of each kernel it
enters (GRID_RANKS); kernel_env.Evaluator asks `cta_ids()`.
"""

import ast

from corpus_notation import ConvertError, dotted

GRID_RANKS: list = []  # innermost kernel last: its grid's rank, or None when the source leaves it open


def grid_rank(fn: ast.FunctionDef, env) -> int | None | bool:
    """The rank of `@K.kernel(grid=...)` on `fn`: len of a tuple/list display, 1 for any other
    value, False for `grid=False`, None when `fn` has no such decorator (or no grid= keyword)."""
    for d in fn.decorator_list:
        if isinstance(d, ast.Call) and (dotted(d.func) or "").split(".")[-1] == "kernel" and \
                (dotted(d.func) or "").startswith(("K.", "Kern.")):
            for k in d.keywords:
                if k.arg == "grid":
                    v = k.value
                    if isinstance(v, ast.Constant) and v.value is False:
                        return False
                    if isinstance(v, (ast.Tuple, ast.List)):
                        return len(v.elts)
                    return 1
    return None


def cta_ids():
    """The value of `K.cta_id()` at CTA 0: 0, or a tuple of zeros; ConvertError when no kernel
    grid is known or the kernel declared grid=False."""
    rank = GRID_RANKS[-1] if GRID_RANKS else None
    if rank is None:
        raise ConvertError("K.cta_id() outside a @K.kernel(grid=...) the extraction walked")
    if rank is False:
        raise ConvertError("K.cta_id() in a grid=False kernel (a RuntimeError in kern)")
    return 0 if rank == 1 else (0,) * rank
