"""Raw TMEM columns that lie in nested TMEM buffers: which one a tcgen05.cp means.

tmem_ops.named_buffer finds the TMEM buffers whose columns wholly contain an instruction's raw
columns.  When several do it used to stop ("lie in several TMEM buffers").  A kernel that keeps
its scale factors in the upper columns of a whole-allocation accumulator buffer
(mqa_logits_fp4: `tmem` (128, 512) float32 over all columns, then `move_base_to(384)` and
`sfq_tmem = tmem_pool.alloc(..., "float8_e8m0fnu", layout=sf_tmem_layout(...))`) has exactly
that: columns 384..387 are in `tmem` and in `sfq_tmem`.  The rule (docs/extract.md, "Nested TMEM
buffers"):

  1. the buffers holding the columns nest: ordered by width, each lies wholly inside the
     previous one (columns) and is a view of it (its `view_of` chain reaches it: TMEMPool's
     move_base_to into an earlier buffer, tmem_placement / tmem_ops);
  2. every buffer but the innermost is plain storage: a 32-bit lane x column layout
     (`S[(128,C):(1@TLane,1@TCol)]` and what expands to it), whose declaration says nothing about
     what its cells hold (docs/extract.md, "Plain TMEM storage");
  3. the innermost is a scale-factor buffer — a layout from `sf_tmem_layout(` (TVM's SF TMEM
     layout) of a scale dtype (UE8M0 / UE4M3, PTX ISA 9.1 §9.7.16.10.7) — and the instruction is a
     tcgen05.cp (§9.7.16.9.2: a copy of a shared-memory matrix into TMEM; the buffers
     mma_forms.sf_operand takes for an SF operand's raw address).  The copy's form alone gives
     the columns no scale-factor meaning (it also copies A operands or accumulators); (2) makes
     the innermost the only declaration that says what the columns hold, and
  4. the data flow confirms it, checked when the walk is over (finish): some block-scaled
     tcgen05.mma of the model reads that buffer as its SFA or SFB operand.  Else the op is taken
     back out and listed unresolved.

Then the innermost is meant; the op's notes say so.  Buffers that overlap without nesting, an
outer buffer that is not plain storage, two innermost candidates, or another instruction form
stay unresolved as before.  An op taken back out takes its cp_byte_view views with it.
"""
from __future__ import annotations

from kernel_env import BufferRef, ConvertError

SF_DTYPES = ("float8_e8m0fnu", "float8_e4m3fn")
_KEY = "_nest_sf"


def _model_buffer(ex, name):
    return next((b for b in ex.buffers if b["name"] == name), None)


def _view_chain(ex, name) -> list[str]:
    out, b = [], _model_buffer(ex, name)
    while b is not None and "view_of" in b:
        out.append(b["view_of"]["buffer"])
        b = _model_buffer(ex, b["view_of"]["buffer"])
    return out


def _span(r: BufferRef) -> tuple[int, int]:
    return r.tmem_col, r.tmem_col + r.tmem_ncols


def choose(hits: list, c0: int, c1: int, form: str | None, ex) -> tuple[BufferRef, str]:
    """The buffer of `hits` (each wholly containing columns c0..c1-1) the instruction means, with
    why; ConvertError naming the rule's condition that fails."""
    import tmem_ops
    names = ", ".join(r.name for r in hits)
    head = f"raw TMEM columns {c0}..{c1 - 1} lie in several TMEM buffers ({names})"
    order = sorted(hits, key=lambda r: (-(r.tmem_ncols), r.tmem_col))
    for outer, inner in zip(order, order[1:]):
        (a0, a1), (b0, b1) = _span(outer), _span(inner)
        if not (a0 <= b0 and b1 <= a1) or _span(outer) == _span(inner) or \
                outer.name not in _view_chain(ex, inner.name):
            raise ConvertError(f"{head} that do not nest ({inner.name}, columns {b0}..{b1 - 1}, is not a view placed "
                               f"wholly inside {outer.name}, columns {a0}..{a1 - 1}): which one the instruction "
                               "means is not fixed")
    inner = order[-1]
    for outer in order[:-1]:
        rc = tmem_ops._plain_cols(outer)
        if rc is None or outer.dtype not in ("float32", "uint32", "int32"):
            raise ConvertError(f"{head}, nested, but {outer.name} ({outer.dtype}, {outer.layout}) is not plain 32-bit "
                               "storage: two declarations say what those cells hold, so which one the instruction "
                               "means is not fixed")
    sf = (inner.layout or "").startswith("sf_tmem_layout(") and inner.dtype in SF_DTYPES
    if form != "tcgen05.cp" or not sf:
        raise ConvertError(f"{head}, nested, innermost {inner.name} ({inner.dtype}, {inner.layout}): "
                           + ("it is not a scale-factor buffer (sf_tmem_layout of UE8M0/UE4M3)" if not sf else
                              f"the rule is for a tcgen05.cp, not {form}")
                           + ", so which one the instruction means is not fixed")
    pending = ex.__dict__.setdefault("_nest_pending", [])
    pending.append(inner.name)
    return inner, (f"columns {c0}..{c1 - 1} lie in {names}, nested: {', '.join(r.name for r in order[:-1])} plain "
                   f"32-bit storage (no statement of what its cells hold), {inner.name} a scale-factor buffer placed "
                   f"inside it, the only declaration of those columns' contents, so {inner.name} is meant "
                   "(tmem_nesting.py; confirmed at the end of the walk: a block-scaled tcgen05.mma reads it as "
                   "SFA/SFB)")


def begin(ex) -> None:
    ex.__dict__["_nest_pending"] = []


def mark(op: dict, ex) -> None:
    """Tag op with the buffer the rule chose for it during its conversion (begin .. mark)."""
    pending = ex.__dict__.get("_nest_pending") or []
    if pending:
        op[_KEY] = sorted(set(pending))
    ex.__dict__["_nest_pending"] = []


def _sf_buffers(ex) -> set:
    out = set()
    for op in ex.ops:
        if op.get("kind") != "tcgen05.mma":
            continue
        for k in ("sfa_region", "sfb_region"):
            r = op.get(k)
            if isinstance(r, str):
                out.add(r.split("[")[0].strip())
    return out


def finish(ex) -> None:
    """Every op the rule resolved keeps its buffer only if a block-scaled MMA reads that buffer as
    SFA / SFB; otherwise it is removed and listed unresolved."""
    read = _sf_buffers(ex)
    keep = []
    for op in ex.ops:
        names = op.pop(_KEY, None)
        if names is None:
            keep.append(op)
            continue
        missing = [n for n in names if n not in read]
        if not missing:
            keep.append(op)
            continue
        origin = op.get("origin", "")
        try:
            line = int(origin.split(" ")[0].rsplit(":", 1)[1])
        except (IndexError, ValueError):
            line = 0
        ex.block(f"op {op['kind']} at line {line}", line, None,
                 f"not extracted: the copy's raw columns lie in nested TMEM buffers and the innermost, "
                 f"{', '.join(missing)}, is taken only when a block-scaled tcgen05.mma reads it as SFA/SFB, "
                 "and no extracted MMA does")
    ex.ops[:] = keep
    views = ex.__dict__.get("_cp_views") or set()
    if views:
        used = {str(v).split("[")[0].strip() for op in ex.ops for v in op.values() if isinstance(v, str)}
        ex.buffers[:] = [b for b in ex.buffers if b["name"] not in views or b["name"] in used]
