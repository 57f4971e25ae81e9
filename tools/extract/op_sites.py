"""Ops in TIRx kernel source and the model ops they become (docs/model-format.md, "Ops").

    in the kernel                                  model op
    ---------------------------------------------  ------------------------------------------
    Tx[.wg|.warp].copy_async(dst, src, ...)        copy_async {dst, src, dispatch}
    Tx[.wg|.warp].copy(dst, src, ...)              copy {dst, src, dispatch}
    Tx[.warp].gemm_async(D, A, B, accum=, ...)     gemm_async {d, a, b, accumulate, cta_group}
    <tmem pool>.commit() / .dealloc()              tcgen05.alloc / tcgen05.dealloc {cols, warps}
    T.ptx...tcgen05.alloc/dealloc(addr, ncols)     tcgen05.alloc / tcgen05.dealloc {cols, warps}
    T.ptx... tcgen05.mma/ld/st/cp,                 listed as undecided: their operands (shared-
      cp.async.bulk.tensor, wgmma, ldmatrix,         memory descriptors, tensor maps, TMEM
      stmatrix, mma                                   addresses) are runtime values

A region argument `buf[i, lo:hi, :]` is written as the model's REGION text when every index
is determined; an index that depends on a loop variable, a thread or block index, or any
other Unresolved name leaves the op undecided, listed with that name (`--param NAME=VALUE`
pins one, e.g. a loop variable, to take one iteration).  Copies that warps execute
(dispatch tcgen05, ldstmatrix, thread) need the issuing warps, which TIRx kernels choose
with runtime thread-index branches: they stay undecided unless the kernel names them.
"""
from __future__ import annotations

import ast
import re

from corpus_notation import dotted, strip_builder
from kernel_env import BufferRef, ConvertError, Pool, Unresolved, UnresolvedError
import tvm_pipeline

TILE_OPS = {"copy_async", "copy", "gemm_async"}
PTX_DATA = ("tcgen05.mma", "tcgen05.ld", "tcgen05.st", "tcgen05.cp", "tcgen05.alloc", "tcgen05.dealloc",
            "cp.async.bulk.tensor", "cp_async_bulk_tensor", "wgmma.mma_async", "ldmatrix", "stmatrix",
            "mma.sync")
OP_NAMES = TILE_OPS | {"commit"}
KNOWN_COPY_KW = {"dispatch", "cta_group"}
KNOWN_GEMM_KW = {"dispatch", "cta_group", "accum", "transA", "transB"}


def _ptx_text(call: ast.Call, env: dict | None = None) -> str | None:
    f = call.func
    if isinstance(f, ast.Subscript) and (dotted(f.value) or "").split(".")[-1] == "ptx":
        if isinstance(f.slice, ast.Constant) and isinstance(f.slice.value, str):
            return f.slice.value
        v = env.get(f.slice.id) if env is not None and isinstance(f.slice, ast.Name) else None
        if v is None and env is not None and isinstance(f.slice, (ast.JoinedStr, ast.Subscript)):
            # T.ptx[f"tcgen05.dealloc.cta_group::{CTA_GROUP}..."], T.ptx[_MMA_CHAIN[kind]] (a table of
            # instruction texts): the text, when the source fixes it
            from kernel_env import Evaluator
            try:
                v = Evaluator(env).value(f.slice)
            except Exception:  # noqa: BLE001 - an undetermined instruction text stays as written
                v = None
        return v if isinstance(v, str) else f"ptx[{ast.unparse(f.slice)}]"
    d = dotted(f)
    if d and ".ptx." in "." + d + ".":
        text = d.split("ptx.", 1)[1]
        return text.replace("async_", "async").replace("__", ".").replace("_", ".")
    return None


def _tile_kind(call: ast.Call) -> str | None:
    d = dotted(call.func)
    if not d:
        return None
    parts = strip_builder(d).split(".")
    if parts[-1] in TILE_OPS and (len(parts) == 1 or parts[0] in ("wg", "warp", "cta", "thread", "Tx", "T")):
        if parts[-1] == "copy" and len(parts) == 1 and d.split(".")[0] not in ("Tx", "T"):
            return None
        return parts[-1]
    return None


def is_op(call: ast.Call, env: dict | None = None) -> bool:
    import ptx_printed  # T.ptx.FAMILY(operands..., "tok", ..., marker): TVM's printed form
    call = ptx_printed.normalize(call)
    if _tile_kind(call):
        return True
    if isinstance(call.func, ast.Attribute) and call.func.attr in ("commit", "dealloc"):
        return True
    t = _ptx_text(call, env)
    import reg_access
    return t is not None and (any(k in t for k in PTX_DATA) or reg_access.recognises(t))


def region(node, env, ev, ex=None, line=0) -> tuple[str, BufferRef]:
    """REGION text of a buffer argument: NAME or NAME[i, lo:hi, :], also through a derived
    buffer (X.rearrange(...)[...], X.sub[...], X.chunk(spec)[picks]: views.py)."""
    import views
    if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Call) and \
            isinstance(node.value.func, ast.Attribute) and node.value.func.attr == "chunk" and ex is not None:
        return views.chunk_region(node, env, ev, ex, line)
    if ex is not None and views.is_derived(node):
        b = views.buffer_of(node, env, ev, ex, None, line)
        return b.name, b
    base = node.value if isinstance(node, ast.Subscript) else node
    if ex is not None and views.is_derived(base):
        b = views.buffer_of(base, env, ev, ex, None, line)
    else:
        import tile_class
        b = tile_class.member(base, env)  # `self.A_smem[...]` of a tile-task instance (tile_class.py)
        if b is tile_class.NOT_MEMBER and not isinstance(base, ast.Name):
            raise ConvertError(f"{ast.unparse(node)!r} is not a buffer region")
        if b is tile_class.NOT_MEMBER:
            b = env.get(base.id)
            if type(b).__name__ == "PerWarp":
                b = b.resolve()  # the executing warp's buffer (per_warp.py)
            import thread_copy
            b = thread_copy.buffer_of_array(b)  # a register array a thread copy made a buffer (thread_copy.py)
        if isinstance(b, Unresolved):
            raise UnresolvedError(b)
        if not isinstance(b, BufferRef):
            raise ConvertError(f"{ast.unparse(base)!r} is not a buffer the extraction modelled (no layout, or not allocated "
                               "in this file)")
    if not isinstance(node, ast.Subscript):
        return b.name, b
    idx = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    if len(idx) != len(b.shape):
        raise ConvertError(f"{ast.unparse(node)!r} indexes {len(idx)} dimensions of a {len(b.shape)}-D buffer")
    out = []
    for d, ix in enumerate(idx):
        if isinstance(ix, ast.Slice):
            if ix.step is not None:
                raise ConvertError("a strided slice is not a model region")
            lo = ev.as_int(ix.lower) if ix.lower is not None else 0
            hi = ev.as_int(ix.upper) if ix.upper is not None else b.shape[d]
            out.append(":" if (lo, hi) == (0, b.shape[d]) else f"{lo}:{hi}")
        else:
            out.append(str(ev.as_int(ix)))
    return f"{b.name}[{', '.join(out)}]", b


def default_dispatch(dst: BufferRef, src: BufferRef) -> str | None:
    pair = (src.scope, dst.scope)
    shared = ("shared", "shared.dyn")
    if (pair[0] == "global" and pair[1] in shared) or (pair[0] in shared and pair[1] == "global"):
        return "tma"
    if "tmem" in pair and "local" in pair:
        return "tcgen05"
    if pair[0] in shared and pair[1] == "tmem":
        return "tcgen05.cp"
    return None


def record(call: ast.Call, env, ev, ex, line: int, cond) -> None:
    import flow_state  # an op whose operands depend on a thread index: one op per warpgroup (flow_state.py)
    flow_state.record_per_group(lambda: _record(call, env, ev, ex, line, cond), ex)


def _record(call: ast.Call, env, ev, ex, line: int, cond) -> None:
    import ptx_printed
    call = ptx_printed.normalize(call)
    if _ptx_text(call, env) is not None:
        try:
            call = ptx_printed.expand_starred(call, env)  # K.ptx[...](m, *coords, p): each operand
        except UnresolvedError as e:
            t = _ptx_text(call, env) or "ptx"
            k = ".".join(t.split(".")[:2]) if t.startswith(("mma.sync", "cp.async", "wgmma.mma_async")) else \
                t.split(".")[0]
            ex.block(f"op {k} at line {line}", line, e.item)
            return
    kind = _tile_kind(call)
    if kind is None:
        text = _ptx_text(call, env)
        kind = None if not text or text.startswith("ptx[") else \
            ".".join(text.split(".")[:2]) if text.startswith(("mma.sync", "cp.async", "wgmma.mma_async")) else \
            text.split(".")[0]
    try:
        if kind in ("copy_async", "copy") and _tile_kind(call):
            op = _copy(call, kind, env, ev, ex, line)
        elif kind == "gemm_async" and _tile_kind(call):
            op = _gemm(call, env, ev, ex, line)
        elif isinstance(call.func, ast.Attribute) and call.func.attr in ("commit", "dealloc") and \
                not _raw_alloc_kind(_ptx_text(call, env)):  # (T.ptx.tcgen05.dealloc is the instruction itself)
            op = _tmem_pool_op(call, env, ev, ex, line)
            if op is None:
                return
        elif _raw_alloc_kind(_ptx_text(call, env)):
            op = _raw_tmem_alloc(call, _ptx_text(call, env), ev, ex)
        elif (_ptx_text(call, env) or "").startswith(("cp.async.bulk.tensor.", "tcgen05.mma.", "tcgen05.ld.",
                                                      "tcgen05.st.", "tcgen05.cp.")):
            import instr_ops
            import mma_forms
            import tmem_cp
            import tmem_ops
            from allocators import _emit
            text = _ptx_text(call, env)
            ops = instr_ops.tma_ops(call, text, env, ex) if text.startswith("cp.async") else \
                mma_forms.mma_ops(call, text, env, ex) if text.startswith("tcgen05.mma") else \
                tmem_cp.cp_ops(call, text, env, ex) if text.startswith("tcgen05.cp") else \
                tmem_ops.ldst_ops(call, text, env, ex, _emit)
            for i, op in enumerate(ops):
                if len(ops) > 1:
                    op["_suffix"] = ".w" + "_".join(str(w) for w in op["warps"][:1])
                _append(op, call, ex, line, cond)
            return
        elif __import__("reg_access").recognises(_ptx_text(call, env)):
            # plain st.shared / ld.shared and cvt.rn.x2.f32 (reg_access.py)
            import reg_access
            from allocators import _emit
            ops = reg_access.ops(call, _ptx_text(call, env), env, ex, _emit)
            for op in ops:
                if len(ops) > 1:
                    op["_suffix"] = ".w" + str(op["warps"][0])
                _append(op, call, ex, line, cond)
            return
        elif (_ptx_text(call, env) or "").startswith(("ldmatrix.", "mma.sync.", "stmatrix.")):
            ops = _fragment_ops(call, _ptx_text(call, env), env, ev, ex)
            for op in ops:
                _append(op, call, ex, line, cond)
            return
        else:
            text = _ptx_text(call, env) or ast.unparse(call.func)
            ex.block(f"op {text} at line {line}", line, None,
                     "instruction-level op: its operands (shared-memory descriptors, tensor maps, TMEM "
                     "addresses) are runtime values the source does not fix; not extracted")
            return
    except UnresolvedError as e:
        ex.block(f"op {kind or 'tcgen05'} at line {line}", line, e.item)
        return
    except (ConvertError, ArithmeticError, TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
        ex.block(f"op {kind or 'tcgen05'} at line {line}", line, None, f"not extracted: {e}")
        return
    _append(op, call, ex, line, cond)


def _append(op, call, ex, line, cond) -> None:
    import loop_jumps
    u = loop_jumps.jump_cond(ex, cond)
    if u is not None:  # after a break / continue under an undecided test, or an endless loop: it may never run
        ex.block(f"op {op['kind']} at line {line}", line, u)
        return
    suffix = op.pop("_suffix", "")
    op["name"] = ex.unique(f"{op['kind'].replace('.', '_')}@{line}{suffix}")
    if cond is not None:
        note = f"issued under the condition at line {cond.line} ({cond.reason})"
        op["notes"] = f"{note}; {op['notes']}" if "notes" in op else note
    op["origin"] = ex.origin(line, getattr(call, "_source", call))  # the source text (ptx_printed.py)
    ordered = {"name": op.pop("name"), "kind": op.pop("kind")}
    ordered.update(op)
    ex.ops.append(ordered)


def _fragment_ops(call, text, env, ev, ex) -> list:
    """ldmatrix / mma.sync (fragments.py): one op per issuing warp (the fragments are per warp:
    laneid and register slot)."""
    from allocators import _emit
    from kernel_env import Evaluator
    import fragments
    ws = ex.executing_warps()
    if ws is None:
        raise ConvertError(f"{text.split('.')[0]} is executed by warps, and the kernel declares no thread index "
                           "that fixes the CTA's warps")
    ops = []
    if text.startswith("stmatrix."):
        return fragments.stmatrix_ops(call, text, env, ev, ex, _emit, ws)
    if text.startswith("ldmatrix."):
        if len(call.args) < 2:
            raise ConvertError("ldmatrix needs registers and an address")
        regs = fragments._reg_operands(call.args[:-1], ev, len(call.args) - 1, "ldmatrix destination")
        arr = regs[0].array
        for w in ws:
            xn = re.search(r"\.x([124])\b", text)
            ptrs = fragments._lane_ptrs(call.args[-1], env, w, Evaluator, 8 * int(xn.group(1)) if xn else 8)
            _buf, smem, frag, num, trans = fragments.ldmatrix_fragment(text, ptrs, regs)
            fb = fragments.fragment_buffer(arr, frag, ex, _emit)
            ops.append({"kind": "ldmatrix", "num": num, "trans": trans, "smem": smem, "regs": fb.name,
                        "warps": [w], "_suffix": f".w{w}"})
        return ops
    op, note = fragments.mma_sync_op(text, call, ev, ex, _emit)
    for w in ws:
        o = dict(op, warps=[w], _suffix=f".w{w}")
        if note:
            o["notes"] = note
        ops.append(o)
    return ops


def _kwargs(call, ev, known: set, line) -> dict:
    out = {}
    for k in call.keywords:
        if k.arg is None:  # **cfg: a dictionary of options
            d = ev.value(k.value)
            if not isinstance(d, dict):
                raise ConvertError(f"**{ast.unparse(k.value)} is not a dictionary")
            for kk, vv in d.items():
                out[kk] = vv
        else:
            out[k.arg] = ev.value(k.value)
    extra = sorted(set(out) - known)
    if extra:
        raise ConvertError(f"option(s) {', '.join(extra)} not modelled by the model format")
    return out


def _copy(call, kind, env, ev, ex, line) -> dict:
    if len(call.args) < 2:
        raise ConvertError(f"{kind} needs dst and src")
    import thread_copy  # a thread's own register copy (thread_copy.py)
    made = thread_copy.promote(call, env, ex) if kind == "copy" and ex is not None else []
    try:
        return _copy_op(call, kind, env, ev, ex, line, made)
    except Exception:
        thread_copy._take_back(ex, made)  # the op is not extracted: nor is the buffer made for it
        raise


def _copy_op(call, kind, env, ev, ex, line, made) -> dict:
    import thread_copy
    try:
        dst, db = region(call.args[0], env, ev, ex, line)
        src, sb = region(call.args[1], env, ev, ex, line)
    except UnresolvedError as e:  # a region computed from the lane: the warp's lanes together (thread_copy.py)
        if kind != "copy" or ex is None or not thread_copy.thread_scope(call) or not thread_copy.lane_blocked(e) or \
                len(ex.executing_warps() or ()) != 1:
            raise  # several warps: flow_state.record_per_group splits the op per warp first
        import copy_options
        return thread_copy.per_lane(call, env, ex, line, made, region, lambda c: _kwargs(
            c, ev, {"dispatch"} | set(copy_options.LOAD_CACHE), line))
    import copy_options  # TMA options that do not change the data moved (copy_options.py)
    extra_kw = {"vec_len"} if kind == "copy" and not any(k.arg == "dispatch" for k in call.keywords) else set()
    import tma_explicit  # TVM's tma_explicit gather4 load (tma_explicit.py)
    cache_kw = set(copy_options.LOAD_CACHE) if kind == "copy" else set()
    import tma_fields  # use_tma_reduce -> reduce, a box past the tensor -> past_tensor (tma_fields.py)
    import cp_shape  # tcgen05.cp shape= / multicast= (cp_shape.py)
    shape_kw = set(cp_shape.OPTIONS) if kind == "copy_async" else set()
    kw = _kwargs(call, ev, KNOWN_COPY_KW | {"mbar", "use_tma_reduce"} | set(copy_options.IGNORED_TMA) | extra_kw |
                 tma_explicit.OPTIONS | cache_kw | shape_kw, line)
    if kind == "copy" and kw.get("dispatch") in thread_copy.FORCED and ex is not None:
        forced = thread_copy.forced(call, kw.pop("dispatch"), kw, dst, db, src, sb, ex)
        cache_note = copy_options.load_cache(kw, db, sb)
        extra = sorted(kw)
        if extra:
            raise ConvertError(f"option(s) {', '.join(extra)} with a forced-width copy: not modelled by the model format")
        op = {"kind": kind, "dst": dst, "src": src, "dispatch": forced["dispatch"], "notes": forced["notes"],
              "warps": forced["warps"], "access_bytes": forced["access_bytes"]}
        if cache_note:
            op["notes"] += "; " + cache_note
        return op
    reduce = tma_fields.reduce_mode(kw, kw.get("dispatch") or default_dispatch(db, sb), sb, db)
    cache_note = copy_options.load_cache(kw, db, sb)  # ld.global.nc and cache hints: noted
    if kind == "copy_async" and kw.get("dispatch") == "tma_explicit" and ex is not None:
        ws = ex.executing_warps()
        if ws is None:
            raise ConvertError("a TMA copy is issued by a warp, and the kernel declares no thread index that fixes "
                               "the CTA's warps")
        cp_shape.field(kw, "tma_explicit")  # shape= / multicast= there: refused
        return tma_explicit.gather_op(db, sb, dst, src, kw, ws, line)
    extra = sorted(set(kw) & tma_explicit.OPTIONS)
    if extra:
        raise ConvertError(f"option(s) {', '.join(extra)} not modelled by the model format")
    chosen = None
    if "vec_len" in kw and ex is not None:  # only TVM's register copy below is known not to read it (reg_copy.py)
        import barrier_phase
        import reg_copy
        chosen = reg_copy.choose(dotted(call.func) or "", db, sb, dst, src, ex.executing_warps(),
                                 barrier_phase.threads(ex), {k: v for k, v in kw.items() if k == "vec_len"})
        if chosen is None:
            raise ConvertError("option(s) vec_len not modelled by the model format")
        kw.pop("vec_len")
    elif kind == "copy" and "dispatch" not in kw and ex is not None:
        import barrier_phase
        import reg_copy
        chosen = reg_copy.choose(dotted(call.func) or "", db, sb, dst, src, ex.executing_warps(),
                                 barrier_phase.threads(ex), {})
        if chosen is None and thread_copy.thread_scope(call) and "local" in (sb.scope, db.scope):
            chosen = thread_copy.auto(call, dst, db, src, sb, ex)  # vec_auto_reg at thread scope
    if chosen is not None:  # TVM's dispatch for a warpgroup register -> shared copy (reg_copy.py)
        op = {"kind": kind, "dst": dst, "src": src, "dispatch": chosen["dispatch"], "notes": chosen["notes"],
              "warps": chosen.get("warps") or ex.executing_warps(), "access_bytes": chosen["access_bytes"]}
        if cache_note:
            op["notes"] += "; " + cache_note
        return op
    dispatch = kw.get("dispatch") or default_dispatch(db, sb)
    mbar = tvm_pipeline.copy_mbar(kw.pop("mbar", None), dispatch)  # the completion barrier: notes only
    ignored_note = copy_options.ignored(kw, dispatch)
    if dispatch is None and "local" in (sb.scope, db.scope) and \
            {sb.scope, db.scope} & {"shared", "shared.dyn", "global"}:
        # TVM tries ldstmatrix first (priority 10) and falls back to vec_auto_reg's per-thread
        # vector accesses (apache/tvm 5d4dc87 python/tvm/backend/cuda/tile_primitive/copy/
        # ld_stmatrix.py:388-395, vec_auto_reg.py); which one applies, and the vector width, come
        # from both layouts in code not reimplemented here (docs/extract.md, derived buffers)
        raise ConvertError(f"a {sb.scope} -> {db.scope} copy without dispatch=: TVM picks ldstmatrix or per-thread "
                           "vector accesses (and their width) from both layouts, which is not derived here")
    if dispatch is None:
        raise ConvertError(f"no copy dispatch moves {sb.scope} -> {db.scope}")
    if dispatch == "tma_auto":
        dispatch = "tma"  # TVM's tma_auto variant (copy_async/tma.py:2275) is the model's tma
    op = {"kind": kind, "dst": dst, "src": src, "dispatch": dispatch}
    if dispatch == "tma":
        if reduce is not None:
            op["reduce"] = reduce
        if tma_fields.past_tensor(src, sb, dst, db):
            op["past_tensor"] = True
    elif reduce is not None:
        raise ConvertError(f"use_tma_reduce={reduce!r} with dispatch {dispatch!r} is not modelled")
    notes = "; ".join(n for n in (mbar, ignored_note, cache_note) if n)
    if notes:
        op["notes"] = notes
    if "cta_group" in kw:
        op["cta_group"] = kw["cta_group"]
    shape = cp_shape.field(kw, dispatch)  # shape= / multicast= of a tcgen05.cp (cp_shape.py)
    if shape is not None:
        op["shape"] = shape
    if dispatch in ("tcgen05", "ldstmatrix", "thread"):
        ws = ex.executing_warps()
        if ws is None:
            raise ConvertError(f"a {dispatch} copy is executed by warps, and the kernel declares no thread index "
                               "that fixes the CTA's warps")
        op["warps"] = ws
        if dispatch == "tcgen05" and ".wg." in "." + (dotted(call.func) or "") + ".":
            _wg_rows(op, db, sb, ws)
    return op


def _wg_rows(op, db, sb, ws) -> None:
    """A warpgroup tcgen05 copy: executed by one warpgroup; under a branch that only some of its
    warps take, the regions name the rows those warps move (docs/model-format.md, copy warps):
    warp w moves rows 32 (w % 4) .. + 32 of a 128-row fragment and of the TMEM rows it pairs."""
    groups = sorted({w // 4 for w in ws})
    if len(groups) != 1:
        raise ConvertError(f"a warpgroup copy executed by warps {ws} (more than one warpgroup): which warpgroup "
                           "runs it is not determined here (each would move its own registers)")
    quarters = sorted(w % 4 for w in ws)
    if len(quarters) == 4:
        return
    if quarters != list(range(quarters[0], quarters[-1] + 1)):
        raise ConvertError(f"a warpgroup copy executed by warps {ws} (not consecutive warps of the warpgroup)")
    lo, hi = 32 * quarters[0], 32 * (quarters[-1] + 1)
    for key, b in (("dst", db), ("src", sb)):
        op[key] = _narrow_rows(op[key], b, lo, hi, ws)


def _narrow_rows(region: str, b, lo: int, hi: int, ws) -> str:
    name, _, rest = region.partition("[")
    idx = [x.strip() for x in rest.rstrip("]").split(",")] if rest else [":"] * len(b.shape)
    if not b.shape or b.shape[0] != 128 or idx[0] != ":":
        raise ConvertError(f"a warpgroup copy executed by warps {ws} only: the rows they move in {region} are not "
                           "the 128 rows of its first dimension")
    idx[0] = f"{lo}:{hi}"
    return f"{name}[{', '.join(idx)}]"


def _raw_alloc_kind(text: str | None) -> str | None:
    if not text:
        return None
    if text.startswith("tcgen05.alloc"):
        return "tcgen05.alloc"
    if text.startswith("tcgen05.dealloc"):
        return "tcgen05.dealloc"
    return None


def _raw_tmem_alloc(call, text, ev, ex) -> dict:
    """`T.ptx.tcgen05.alloc.cta_group_N...(dst, ncols)` / `...dealloc...(taddr, ncols)`: the
    column count is the last argument (PTX ISA 9.7.16.7.1: nCols), the issuing warps those
    executing the statement (warps.py)."""
    import re
    kind = _raw_alloc_kind(text)
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    if len(call.args) == 1 and "n_cols" in kw and set(kw) <= {"n_cols", "cta_group"}:
        # the builder spelling `T.ptx.tcgen05.alloc(addr, n_cols=N, cta_group=G)` (megakernel
        # gemm.py:203, 221): the same operands by keyword
        cols = ev.as_int(kw["n_cols"])
        group = ev.as_int(kw["cta_group"]) if "cta_group" in kw else None
        if group not in (1, 2):
            raise ConvertError(f"{kind}: cta_group {ast.unparse(kw['cta_group']) if 'cta_group' in kw else '(none)'} "
                               "is not 1 or 2")
        ws = ex.executing_warps()
        if ws is None:
            raise ConvertError(f"{kind} is executed by a warp, and the kernel declares no thread index that fixes the "
                               "CTA's warps")
        op = {"kind": kind, "warps": ws, "cols": cols}
        if group == 2:
            op["cta_group"] = 2
        return op
    if len(call.args) < 2:
        raise ConvertError(f"{kind} needs the address and the column count")
    last = call.args[-1]
    if isinstance(last, ast.Call) and (dotted(last.func) or "").split(".")[-1] in ("uint32", "int32", "Cast") \
            and last.args:
        last = last.args[-1]
    cols = ev.as_int(last)
    ws = ex.executing_warps()
    if ws is None:
        raise ConvertError(f"{kind} is executed by a warp, and the kernel declares no thread index that fixes the "
                           "CTA's warps")
    op = {"kind": kind, "warps": ws, "cols": cols}
    m = re.search(r"cta[._]group(?:::|[._])([12])", text)
    if m is None:
        raise ConvertError(f"{text!r}: no .cta_group in the instruction text")
    if m.group(1) == "2":
        op["cta_group"] = 2
    return op


def _gemm(call, env, ev, ex, line) -> dict:
    if len(call.args) < 3:
        raise ConvertError("gemm_async needs D, A and B")
    d, _ = region(call.args[0], env, ev, ex, line)
    a, _ = region(call.args[1], env, ev, ex, line)
    b, _ = region(call.args[2], env, ev, ex, line)
    import copy_options  # smem_desc= (copy_options.py)
    import gemm_args
    kw = _kwargs(gemm_args.bind(call, ev), ev, KNOWN_GEMM_KW | {"smem_desc"}, line)
    note = copy_options.gemm_ignored(kw, kw.get("dispatch"))
    op = {"kind": "gemm_async", "d": d, "a": a, "b": b}
    if note:
        op["notes"] = note
    if "cta_group" in kw:
        op["cta_group"] = kw["cta_group"]
    acc = kw.get("accum", False)
    if not isinstance(acc, (bool, int)):
        raise ConvertError(f"accum={acc!r} is not a constant")
    op["accumulate"] = bool(acc)
    # transA / transB: A given as (K, M) / B as (K, N), MN-major (apache/tvm 4b5598a74f
    # python/tvm/tirx/script/builder/tirx.py:640-684, gemm_async's parameters): the model's a_dims / b_dims
    for k, field, dims in (("transA", "a_dims", "KM"), ("transB", "b_dims", "KN")):
        t = kw.get(k, False)
        if not isinstance(t, (bool, int)) or t not in (0, 1):
            raise ConvertError(f"{k}={t!r} is not a constant boolean")
        if t:
            op[field] = dims
    return op


def _tmem_pool_op(call, env, ev, ex, line):
    f = call.func
    recv = dotted(f.value)
    pool = env.get(recv) if recv else None
    if isinstance(pool, Unresolved):
        raise UnresolvedError(pool)
    if not isinstance(pool, Pool) or pool.kind != "tmem":
        return None
    # TMEMPool's defaults: total_cols=512, cta_group=1, alloc_warp=0, dealloc_warp=alloc_warp
    # (apache/tvm 5d4dc87 python/tvm/backend/cuda/lang/alloc_pool.py:194-214).
    cols = pool.args.get("total_cols", 512)
    if isinstance(cols, Unresolved):
        raise UnresolvedError(cols)
    warp = pool.args.get("alloc_warp", 0)
    if f.attr == "dealloc":
        warp = pool.args.get("dealloc_warp", warp)
    if isinstance(warp, Unresolved):
        raise UnresolvedError(warp)
    op = {"kind": "tcgen05.alloc" if f.attr == "commit" else "tcgen05.dealloc", "warps": [warp], "cols": cols}
    cg = pool.args.get("cta_group", 1)
    if isinstance(cg, Unresolved):
        raise UnresolvedError(cg)
    if cg != 1:
        op["cta_group"] = cg
    return op
