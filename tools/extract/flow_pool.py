"""Where TVM's SMEMPool puts each allocation: the byte offset a buffer's `elem_offset` reads.

apache/tvm 5d4dc87 python/tvm/backend/cuda/lang/alloc_pool.py:395-520 (SMEMPool):
  * `T.SMEMPool()` starts at offset 0 of its own shared.dyn buffer (409-420);
  * `alloc(shape, dtype="float32", strides=None, scope=..., align=0, layout=...)` (422-450) rounds
    the offset up to `align` when align > 0, declares the buffer at `byte_offset=offset` of the
    pool's pointer, then adds ceil(prod(shape) * bits / 8) bytes -- the shape's element count,
    not the layout's span;
  * `alloc_tcgen05_mma_AB(shape, dtype="float16", swizzle_mode="auto", align=1024)` is `alloc`
    with that align (452-471);
  * `move_base_to(offset)` sets the offset (473-476); `commit()` changes nothing.
Callers that allocate from the pool themselves: TVM's barrier classes (MBarrier / TMABar /
TCGen05Bar: `pool.alloc((depth,), "uint64", align=8)`; Pipeline: one for `full`, then one for
`empty`; apache/tvm 4b5598a74f python/tvm/backend/cuda/lang/pipeline.py:171-176, 360-376) and
`T.TMEMPool(pool, ..., tmem_addr=None)` (`pool.alloc([1], "uint32", align=4)` when no tmem_addr
is given; alloc_pool.py:191-220).  A buffer declared with byte_offset B of a d-bit dtype has
elem_offset B * 8 // d (ir.py:163-171, _get_elem_offset).

The offset is followed only while the pool's uses are exactly these, in straight-line code the
walk and TVM's parser both run once: it becomes unknown (and so does every later allocation's
start) when the pool is passed to any other call, one of its other methods is called, a pool
operation is inside a branch or loop (which the parser runs once and the walk per taken branch /
iteration), an allocation is met a second time, or a value it needs is not fixed by the source.
A kern-DSL pool (`K.smem_pool()`) is not followed.

smem_placement.py writes the model's `placement` from the same bump allocator over the pool's own
`alloc` calls; the allocations only this file sees (the barrier classes, TMEMPool's address word)
advance its offset too, and a pool passed to a call that may allocate from it, or a pool method
not followed, makes its offset unknown there as well.
"""
from __future__ import annotations

import ast
import math

import smem_placement
from corpus_notation import DTYPE_BITS, dotted, strip_builder

ALLOC_METHODS = {"alloc": (4, 0), "alloc_tcgen05_mma_AB": (3, 1024)}   # align: positional index, default
NEUTRAL_METHODS = {"commit"}
BARRIERS = {"MBarrier", "TMABar", "TCGen05Bar"}
COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.Try)
STARTS: dict = {}        # id(alloc call) -> byte offset in its pool (None: not known)
WHY: dict = {}           # id(alloc call) -> why the pool's offset was not known there


def new_pool(pool, name: str) -> None:
    """The offset state of a pool made by `name` (allocators.pool_object): 0 for TVM's SMEMPool."""
    pool.followed = name == "SMEMPool"
    pool.smem_offset = 0 if pool.followed else None
    pool.offset_why = None if pool.followed else f"a {name}() pool, whose allocation offsets are not followed"


def _pools(node, env):
    import kernel_env
    return {n.id: env[n.id] for n in ast.walk(node) if isinstance(n, ast.Name) and
            isinstance(env.get(n.id), kernel_env.Pool) and env[n.id].kind == "smem"}


def _lose(pool, why: str, placement: bool = False) -> None:
    if getattr(pool, "smem_offset", None) is not None:
        pool.smem_offset, pool.offset_why = None, why
    if placement:
        _placement_lose(pool, why)


def _placement_lose(pool, why: str) -> None:
    """smem_placement.py (the model's `placement`) follows the pool's own allocations; what only
    this file sees (a pool passed elsewhere, an operation in a branch or loop) makes its offset
    unknown there too."""
    state = pool.args.get("_smem") if isinstance(getattr(pool, "args", None), dict) else None
    if state is None and isinstance(getattr(pool, "args", None), dict):
        state = smem_placement.pool_state(pool)
    if state is not None and isinstance(state.get("offset"), int):
        state["offset"] = why


def _placement_bump(pool, align: int, nbytes: int) -> None:
    """The same bump in smem_placement.py's state, for allocations it does not see (barrier classes,
    TMEMPool's address word)."""
    if not isinstance(getattr(pool, "args", None), dict):
        return
    state = smem_placement.pool_state(pool)
    off = state.get("offset")
    if isinstance(off, int):
        if align > 0:
            off = (off + align - 1) // align * align
        state["offset"] = off + nbytes


def _bump(pool, align: int, nbytes: int, placement: bool = False):
    if placement:
        _placement_bump(pool, align, nbytes)
    off = pool.smem_offset
    if off is None:
        return None
    if align > 0:
        off = (off + align - 1) // align * align
    pool.smem_offset = off + nbytes
    return off


def _calls(node):
    stack = [node]
    while stack:
        n = stack.pop(0)
        if isinstance(n, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(n, ast.Call):
            yield n
        stack.extend(ast.iter_child_nodes(n))


def before_statement(st, env) -> None:
    """Follow the pool operations of statement `st` (kernel_walk, before the statement is walked)."""
    pools = _pools(st, env)
    if not pools:
        return
    if isinstance(st, COMPOUND) or (isinstance(st, ast.With) and st.items and
                                    (dotted(getattr(st.items[0].context_expr, "func", None)) or "").endswith("If")):
        for p in pools.values():
            _lose(p, f"a pool operation inside the branch or loop at line {st.lineno}")
        return
    from kernel_env import Evaluator, FuncValue, Imported
    ev = Evaluator(env)
    # a with statement's own expressions only: its body's statements are followed when walked
    roots = [it.context_expr for it in st.items] if isinstance(st, (ast.With, ast.AsyncWith)) else [st]
    for call in (c for r in roots for c in _calls(r)):
        f = call.func
        if isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in pools:
            pool = pools[f.value.id]
            if f.attr in ALLOC_METHODS:
                if id(call) in STARTS:
                    _lose(pool, f"the allocation at line {call.lineno} is met again (a loop or a second call)")
                    STARTS[id(call)] = None
                    continue
                STARTS[id(call)] = _alloc(pool, call, ev, f.attr)
                WHY[id(call)] = getattr(pool, "offset_why", None)
            elif f.attr == "move_base_to":
                try:
                    v = ev.as_int(call.args[0]) if len(call.args) == 1 and not call.keywords else None
                except Exception:  # noqa: BLE001 - an offset the source does not fix
                    v = None
                if v is None or v < 0:
                    _lose(pool, f"move_base_to at line {call.lineno} with an offset the source does not fix")
                elif getattr(pool, "followed", False):
                    pool.smem_offset, pool.offset_why = v, None  # absolute: known again from here
            elif f.attr not in NEUTRAL_METHODS:
                _lose(pool, f"{f.value.id}.{f.attr}(...) at line {call.lineno}, a pool method not followed", True)
            continue
        args = [a for a in call.args] + [k.value for k in call.keywords]
        passed = [pools[a.id] for a in args if isinstance(a, ast.Name) and a.id in pools]
        if not passed:
            continue
        callee = env.get(f.id) if isinstance(f, ast.Name) else None
        top = isinstance(st, (ast.Assign, ast.AnnAssign)) and st.value is call
        if isinstance(callee, FuncValue) and not top:
            continue  # a helper of the file walked at its call: its own statements are followed
        if isinstance(callee, FuncValue):
            # `x = helper(pool)` is evaluated for its value, not walked: what it allocates is not followed
            for p in passed:
                _lose(p, f"passed to {f.id}(...) at line {call.lineno}, whose value is computed, not walked", True)
            continue
        short = strip_builder(dotted(f) or "").split(".")[-1]
        import tvm_pipeline
        if isinstance(callee, Imported) and tvm_pipeline.handles(callee):
            for p in passed:
                _barriers(p, call, ev, callee.name)
        elif short == "TMEMPool":
            tm = next((k.value for k in call.keywords if k.arg == "tmem_addr"), None)
            if tm is None or (isinstance(tm, ast.Constant) and tm.value is None):
                for p in passed:
                    _bump(p, 4, 4, placement=True)
        else:
            for p in passed:
                _lose(p, f"passed to {ast.unparse(f)}(...) at line {call.lineno}, which may allocate from it", True)


def _alloc(pool, call, ev, method):
    idx, default_align = ALLOC_METHODS[method]
    kw = {k.arg: k.value for k in call.keywords}
    try:
        shape_node = call.args[0] if call.args else kw["shape"]
        shape = ev.value(shape_node)
        shape = tuple(shape) if isinstance(shape, (list, tuple)) else (shape,)
        dt_node = call.args[1] if len(call.args) > 1 else kw.get("dtype")
        dtype = ev.value(dt_node) if dt_node is not None else ("float32" if method == "alloc" else "float16")
        dtype = str(dtype)
        al_node = call.args[idx] if len(call.args) > idx else kw.get("align")
        align = ev.as_int(al_node) if al_node is not None else default_align
        bits = DTYPE_BITS[dtype]
        if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0 for x in shape):
            raise ValueError("shape")
    except Exception:  # noqa: BLE001 - what the offset needs is not fixed by the source
        _lose(pool, f"the allocation at line {call.lineno}: its size or alignment is not fixed by the source")
        return None
    return _bump(pool, align, (math.prod(shape) * bits + 7) // 8)


def _barriers(pool, call, ev, cls):
    kw = {k.arg: k.value for k in call.keywords}
    node = call.args[1] if len(call.args) > 1 else kw.get("stages" if cls == "Pipeline" else "depth")
    try:
        depth = ev.as_int(node)
    except Exception:  # noqa: BLE001
        _lose(pool, f"{cls} at line {call.lineno}: its depth is not fixed by the source")
        return
    for _ in range(2 if cls == "Pipeline" else 1):
        _bump(pool, 8, 8 * depth, placement=True)


def place(buf, call) -> None:
    """Give a pool allocation's model buffer its start (bytes from the pool's pointer) when known."""
    if buf is None or getattr(buf, "start_bytes", None) is not None:
        return
    if STARTS.get(id(call)) is not None:
        buf.start_bytes = STARTS[id(call)]
    else:
        buf.start_why = WHY.get(id(call))


def elem_offset(buf):
    """A model buffer's `elem_offset` (elements of its dtype from its data pointer), or None."""
    start = getattr(buf, "start_bytes", None)
    bits = DTYPE_BITS.get(buf.dtype)
    if start is None or not bits or (start * 8) % bits:
        return None
    return start * 8 // bits
