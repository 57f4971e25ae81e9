"""Where an SMEMPool puts each shared buffer: the model's `placement` (docs/model-format.md).

TVM's SMEMPool is a bump allocator over one `shared.dyn` buffer it allocates itself when built
without a pointer (apache/tvm 5d4dc87 python/tvm/backend/cuda/lang/alloc_pool.py:396-420):

  * `alloc(shape, dtype="float32", strides=None, scope="shared.dyn", align=0, layout=...)`
    first rounds the offset up to a multiple of `align` when align > 0, declares the buffer at
    that byte offset, then advances the offset by ceil(prod(shape) * bits(dtype) / 8) bytes --
    the logical shape's size, whatever the layout spans (alloc_pool.py:422-452);
  * `alloc_tcgen05_mma_AB(shape, dtype="float16", swizzle_mode="auto", align=1024)` is
    `alloc(shape, dtype, align=align, layout=mma_shared_layout(...))` (alloc_pool.py:454-476);
  * `move_base_to(offset)` sets the offset (alloc_pool.py:478-481).

The pool's buffer is the kernel's dynamic shared memory, taken to start at address 0 (the model
format's convention).  Placements are written only when that holds for every shared buffer of
the model: all of them (views aside) come from one pool that owns its storage and whose offsets
the source fixes.  Otherwise no shared buffer gets a placement, each says why in `notes`, and
`run`'s kernel.overlap reports "no placement" (n/a) instead of a capacity it did not check.
"""
from __future__ import annotations

import ast
import math

from corpus_notation import DTYPE_BITS
from kernel_env import ConvertError, Pool, UnresolvedError

POS = {"alloc": {"align": 4}, "alloc_tcgen05_mma_AB": {"align": 3}}
DEFAULT_ALIGN = {"alloc": 0, "alloc_tcgen05_mma_AB": 1024}


def pool_owns_storage(call: ast.Call) -> bool:
    """`T.SMEMPool()` without a pointer allocates its own dynamic shared buffer."""
    return not call.args and not any(k.arg == "ptr" for k in call.keywords)


def pool_state(pool: Pool) -> dict:
    """The pool's placement state: {"offset": the next free byte (int), or why it is unknown}.
    A pool that does not own its storage starts unknown."""
    return pool.args.setdefault("_smem", {"offset": 0 if pool.args.get("_owns") else
                                          "the pool is built over a pointer the kernel passes (SMEMPool(ptr)): "
                                          "where that storage starts is not derived"})


def _align(call, short, ev):
    pos = POS[short]["align"]
    node = next((k.value for k in call.keywords if k.arg == "align"), None)
    if node is None and len(call.args) > pos:
        node = call.args[pos]
    if node is None:
        return DEFAULT_ALIGN[short]
    v = ev.as_int(node)
    if v < 0:
        raise ConvertError(f"align={v}")
    return v


def note_pool_alloc(pool: Pool, buf, call: ast.Call, short: str, ev, ex) -> None:
    """Advance the pool's offset over `buf` as SMEMPool does and remember where it starts."""
    if hasattr(buf, "smem_off"):
        return  # the same allocation met again (an unrolled loop): one storage
    state = pool_state(pool)
    off = state["offset"]
    buf.smem_off, buf.smem_align = off, 0
    if not isinstance(off, int):
        # the offset is unknown, but alloc rounds it up to `align` before placing the buffer
        # (alloc_pool.py:432-433): the buffer's pool offset is still a multiple of align
        # (cp_swizzle.py reads that for a swizzle's phase)
        if short in POS:
            try:
                buf.smem_align = _align(call, short, ev)
            except (UnresolvedError, ConvertError, ArithmeticError, TypeError, ValueError):
                pass
        return
    if short not in POS:
        state["offset"] = f"after {buf.name} (line {buf.line}): {short}'s alignment rule is not modelled"
        buf.smem_off = state["offset"]
        return
    try:
        align = _align(call, short, ev)
    except (UnresolvedError, ConvertError, ArithmeticError, TypeError, ValueError) as e:
        state["offset"] = f"align= of {buf.name} (line {buf.line}) not fixed by the source: {e}"
        buf.smem_off = state["offset"]
        return
    if align > 0:
        off = (off + align - 1) // align * align
    buf.smem_off, buf.smem_align = off, align
    bits = DTYPE_BITS.get(buf.dtype)
    if bits is None:
        state["offset"] = f"after {buf.name}: dtype {buf.dtype} has no known size"
        return
    state["offset"] = off + (math.prod(buf.shape) * bits + 7) // 8


def move_base_to(pool: Pool, call: ast.Call, ev) -> None:
    state = pool_state(pool)
    try:
        v = ev.as_int(call.args[0]) if len(call.args) == 1 else None
    except (UnresolvedError, ConvertError, ArithmeticError, TypeError, ValueError):
        v = None
    state["offset"] = v if isinstance(v, int) and v >= 0 else \
        f"move_base_to at line {call.lineno} with an offset the source does not fix"


def finish(ex) -> None:
    """Write `placement` on the shared buffers when every one is placed by the same pool (see the
    module docstring); else a note on each saying why none is."""
    shared = [b for b in ex.buffers if b.get("scope") in ("shared", "shared.dyn") and "view_of" not in b]
    if not shared:
        return
    refs = {r.name: r for r in ex.emitted.values()}
    why = None
    for b in shared:
        r = refs.get(b["name"])
        if r is not None and getattr(r, "manager_why", None):  # a driver's manager pool (mgr_pool.py)
            why = r.manager_why
            break
        if r is None or not hasattr(r, "smem_off"):
            why = f"{b['name']} is not allocated from an SMEMPool (where the pool's storage starts relative to it " \
                  "is not derived)"
            break
        if not isinstance(r.smem_off, int):
            why = f"the SMEMPool offset of {b['name']} is not derived ({r.smem_off})"
            break
    pools = {id(getattr(refs.get(b["name"]), "smem_pool", None)) for b in shared}
    if why is None and len(pools) > 1:
        why = "the shared buffers come from more than one SMEMPool (where each pool's storage starts is not derived)"
    for b in shared:
        if why is None:
            r = refs[b["name"]]
            p = {"offset_bytes": r.smem_off}
            if r.smem_align > 0 and r.smem_align & (r.smem_align - 1) == 0:
                p["align_bytes"] = r.smem_align
            b["placement"] = p
        else:
            note = f"no placement: {why}"
            b["notes"] = f"{b['notes']}; {note}" if b.get("notes") else note


def pool_statement(call: ast.Call, env: dict) -> bool:
    """`pool.move_base_to(c)` of an SMEMPool: the offset is c.  True when the statement was one."""
    f = call.func
    if not (isinstance(f, ast.Attribute) and f.attr == "move_base_to" and isinstance(f.value, ast.Name)):
        return False
    pool = env.get(f.value.id)
    if not (isinstance(pool, Pool) and pool.kind == "smem"):
        return False
    from kernel_env import Evaluator
    move_base_to(pool, call, Evaluator(env))
    return True
