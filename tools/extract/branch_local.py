"""An object built and set up in one straight-line block: its set-up is exact under the block's condition.

`D = SmemDescriptor()` followed by `D.init(ptr, ldo=, sdo=, swizzle=)` (tvm_classes.SmemDescObj) is
ordinarily exact only where the walk follows the init exactly: under an undecided condition (a
branch on runtime data) or in a loop the walk does not unroll, the init might not run, so the
descriptor becomes unresolved (kernel_walk.state_call).  That refusal is needed when the object
lives OUTSIDE the branch (a use after the if would see either state).  It is not needed when the
object is built in the same block as its init (sparse_atten_fwd 51a6c01 lines 2038-2053: inside
`if mma_count_raw > 0:` three descriptors are built and initialised, and only the MMAs of that
block use them):

  * the construction and the init are statements of ONE statement list, the construction first;
  * the walk reaches both under the same condition (the same undecided branch, so the same
    `cond` object; effective_cond gives another one after an undecided break/continue) and the
    same depth of loops it does not unroll;
  * no statement between them can leave the block (no break / continue / return / raise inside
    any of them).

Then every execution that has the object ran the init right after building it, and every use of
the object follows both (a TIR variable bound in a block is not in scope after it); the init's
value is a fact of the block, guessing nothing about whether the block runs.  Anything else keeps
the refusal.
"""
from __future__ import annotations

import ast

_JUMPS = (ast.Break, ast.Continue, ast.Return, ast.Raise)


def note_built(obj, body: list | None, st, cond, runtime_loops: int) -> None:
    """Record where obj was built: the block, the statement, the walk's condition and loop depth."""
    if body is not None and getattr(obj, "built", None) is None:
        obj.built = (body, st, cond, runtime_loops)


def init_exact(obj, body: list | None, st, cond, runtime_loops: int) -> bool:
    """True when the init statement st is exact relative to obj's construction (the rules above)."""
    built = getattr(obj, "built", None)
    if built is None or body is None:
        return False
    b_body, b_st, b_cond, b_loops = built
    if b_body is not body or b_cond is not cond or b_loops != runtime_loops:
        return False
    try:
        i, j = next(k for k, s in enumerate(body) if s is b_st), next(k for k, s in enumerate(body) if s is st)
    except StopIteration:
        return False
    if not i < j:
        return False
    return not any(isinstance(n, _JUMPS) for s in body[i + 1:j] for n in ast.walk(s))
