"""Raw mbarrier words: the phases of a shared uint64 word driven by raw PTX on its address.

barrier_phase.py follows TVM's barrier classes (tvm_pipeline.py).  A kernel may instead keep its
mbarriers in a plain shared buffer and drive them with raw instructions on `buf.ptr_to([i])`
(spectrometerHBH 8721e86 megakernel/utils/base.py:68-95 `Barriers`, tile_tasks/gemm.py:38-63).
Each (buffer, constant index) is a synthetic barrier (RawWord) in barrier_phase's Phases, so the
coroutine walk of sibling roles (role_sched.py) can suspend a role on it exactly as on a TVM barrier:

    T.ptx.mbarrier.init(ptr, count)            the word expects `count` arrivals per phase (outside a
                                               loop the walk does not unroll, under no undecided
                                               condition; a `T.serial(N)` loop whose body is only such
                                               inits on `ptr_to([loop var])` is unrolled here for all N
                                               values, even when the walk samples the loop: init_loop)
    T.ptx.mbarrier.arrive(ptr)                 one arrival per executing thread (PTX ISA mbarrier.arrive,
                                               default count 1)
    T.ptx.mbarrier.arrive.expect_tx(ptr, n)    one arrival per executing thread; the transaction bytes
                                               are not checked (barrier_phase.py's TMABar rule: the TMA
                                               copies naming the word with `mbar=` complete them)
    T.ptx.mbarrier.arrive(ptr, remote=0, pred=True)
                                               TVM's fused remote arrive (apache/tvm 4b5598a74f
                                               python/tvm/backend/cuda/lang/pipeline.py:200-216: map the
                                               address into CTA `remote`, then arrive under `pred`):
                                               this CTA's word when the walked CTA is rank 0 of its
                                               cluster -- the representative instance's CTA, recorded
                                               as a binding once a decided wait rests on it; under
                                               `--instance none`, or another rank or predicate, not
                                               followed
    T.ptx.tcgen05.commit(ptr, cta_group=g)     one arrival per executing thread, placed where the walk
                                               issues it (barrier_phase.py's TCGen05Bar rule: the MMAs it
                                               tracks are placed before it); a `cta_mask=` (multicast)
                                               or any other keyword: not followed
    T.ptx.mbarrier.try_wait(ptr, parity)       raw_mbar.py: passes iff parity != completed phases mod 2

A word index that depends on the lane (`ptr_to([lane_id])`) is evaluated at each executing thread
(lane_words): an arrive gives each word its own lanes' arrivals; a wait with several words is
decided only where every word passes with no phase completed (lane_wait_result).

A word is no longer followed (lost: its waits are undecided, listed unresolved by raw_mbar.py) after
an arrive under an undecided condition, in a loop the walk does not unroll or samples (later
iterations' arrivals are not walked: the loop_first / walk_for state rule through `lose` /
`after_loop`), an arrive by a thread count the walk does not fix, an arrive or init form not
modelled (another keyword, another remote rank, a predicate not the constant True, a slot index not
fixed), an arrival past the count, a re-init of a word already in use, and any use of its address
other than the forms above, a copy's `mbar=` option, a TMA instruction's mbarrier operand, or the
poll helper (poll_value).  A buffer whose address the walk cannot evaluate at such a use loses all
its words.

Python 3 standard library only.
"""
from __future__ import annotations

import ast

ARRIVES = ("mbarrier.arrive", "mbarrier.arrive.expect_tx")
INIT = "mbarrier.init"
COMMIT = "tcgen05.commit"
WAITS = ("mbarrier.try_wait", "mbarrier.try_wait.parity", "mbarrier.test_wait", "mbarrier.test_wait.parity")


class RawWord:
    """One mbarrier word: (buffer, index).  The object barrier_phase.Phases keys its state by."""
    cls = "raw"

    def __init__(self, buf, index: int):
        self.buf, self.index = buf, index
        self.label = f"{buf.name}[{index}]"
        self.count = None

    def lose(self, line: int, why: str) -> None:
        import barrier_phase
        barrier_phase.phases().lose(self, f"{self.label}: arrived on in a loop ({why})")

    def after_loop(self, line: int) -> None:
        self.lose(line, f"the loop at line {line}, of which the walk takes the first iteration: later iterations' "
                  "arrivals are not walked")


STATE = {"words": {}, "lost_bufs": {}, "polls": {}, "branches": {}, "in_init_loop": 0}


def reset() -> None:
    STATE.update(words={}, lost_bufs={}, polls={}, branches={}, in_init_loop=0, keep=[], kept=set())


def _bkey(buf):
    """A buffer object is one allocation (two objects of one helper's allocation line are two buffers:
    the ring's full / empty words); the object is kept so that its id stays unique."""
    STATE.setdefault("keep", []).append(buf) if id(buf) not in STATE.setdefault("kept", set()) else None
    STATE["kept"].add(id(buf))
    return id(buf)


def word(buf, index: int) -> RawWord:
    k = (_bkey(buf), index)
    w = STATE["words"].get(k)
    if w is None:
        w = STATE["words"][k] = RawWord(buf, index)
    return w


def is_word_buffer(buf) -> bool:
    return getattr(buf, "dtype", None) in ("uint64", "int64") and "shared" in (getattr(buf, "scope", "") or "")


def lose_buffer(buf, why: str) -> None:
    """Every word of `buf`, now and later, is not followed."""
    import barrier_phase
    STATE["lost_bufs"].setdefault(_bkey(buf), why)
    for (bk, _i), w in STATE["words"].items():
        if bk == _bkey(buf):
            barrier_phase.phases().lose(w, why)


def why_lost(w: RawWord):
    import barrier_phase
    return STATE["lost_bufs"].get(_bkey(w.buf)) or barrier_phase.phases().why_lost(w, w.index)


def _name(call) -> str | None:
    from corpus_notation import dotted
    name = dotted(call.func) or ""
    if not name.startswith(("T.ptx.", "Tx.ptx.")):
        return None
    return name.split(".ptx.", 1)[1]


def _ptr(node, env):
    """The Ptr `node` evaluates to (a word of a shared uint64 buffer), or None."""
    import kernel_env
    from fragments import Ptr
    try:
        p = kernel_env.Evaluator(env).value(node)
    except Exception:  # noqa: BLE001 - an address the walk does not evaluate
        return None
    return p if isinstance(p, Ptr) and is_word_buffer(p.buf) else None


def _ptr_buf(node, env):
    """The buffer of `X.ptr_to(...)` when X evaluates to a word buffer (the index may not be fixed)."""
    import kernel_env
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "ptr_to"):
        return None
    try:
        b = kernel_env.Evaluator(env).value(node.func.value)
    except Exception:  # noqa: BLE001
        return None
    return b if isinstance(b, kernel_env.BufferRef) and is_word_buffer(b) else None


def _index(p):
    if len(p.coords) != 1:
        return None
    i = p.coords[0]
    if isinstance(i, (list, tuple)) and len(i) == 1:
        i = i[0]
    return i if isinstance(i, int) and not isinstance(i, bool) else None


def lane_words(node, env, ex):
    """A word address that depends on the lane (`self.mbar.ptr_to([lane_id])`, spectrometerHBH 8721e86
    megakernel/utils/base.py:311-386): evaluated at every thread executing the statement (the warps
    ex.executing_warps gives, the lanes ex.lane_sets gives inside lane branches).  {index: (Ptr,
    threads)} when every thread's address is a fixed word of one buffer, else None -- also under a
    branch on elect_sync(): the walk takes lane 0 as the elected lane for which warps issue
    (warps.py), but PTX does not fix which lane is elected, only that the choice is deterministic
    (PTX ISA, Parallel Synchronization and Communication Instructions: elect.sync), so a word
    that depends on it is not one the source fixes."""
    import kernel_env
    from fragments import Ptr
    ws = ex.executing_warps()
    if ws is None or getattr(ex, "elect_depth", 0):  # under elect_sync(): which lane, PTX does not fix
        return None
    lanes = getattr(ex, "lane_sets", None) or {}
    out, bk = {}, None
    for w in ws:
        ls = lanes.get(w)
        if ls is None and ex.lane_branches:
            return None
        for lane in (sorted(ls) if ls is not None else range(32)):
            try:
                p = kernel_env.Evaluator(env, thread=(w, lane)).value(node)
            except Exception:  # noqa: BLE001 - an address the walk does not evaluate at this thread
                return None
            if not (isinstance(p, Ptr) and is_word_buffer(p.buf)) or _index(p) is None:
                return None
            if bk is None:
                bk = _bkey(p.buf)
            elif _bkey(p.buf) != bk:
                return None
            got = out.get(_index(p))
            out[_index(p)] = (p, 1 + (got[1] if got else 0))
    return out or None


def lane_wait_result(words, call, env, ex, cond, line: int):
    """A wait whose word depends on the lane (lane_words): each lane waits on its own word.  The walk
    moves a warp as one, so it decides such a wait only where no lane's wait orders anything: every
    word's wait passes with no phase of the word completed (a fresh word waited on for parity 1,
    PTX ISA 9.7.13.15.16: the phase before the current one counts as complete).  Then ("waits",
    parts); else ("wait", word, index, why) -- undecided."""
    import barrier_phase
    parts = [wait_result(p, call, env, ex, cond, line) for _i, (p, _n) in sorted(words.items())]
    bad = next((g for g in parts if isinstance(g[3], str)), None)
    if bad is not None or len(parts) == 1:
        return bad or parts[0]
    ph = barrier_phase.phases()
    for g in parts:
        w, i, (par, ok) = g[1], g[2], g[3]
        if ok is not True or ph.slot(w, i).phases:
            return ("wait", w, i, f"the wait at line {line} has one word per lane ({p_label(parts)}): lanes wait "
                    f"apart, and the walk orders a warp as one; decided only where every lane's word passes with no "
                    f"phase completed, and {w.label} {'has completed a phase' if ok is True else 'would block'}")
    return ("waits", parts)


def p_label(parts) -> str:
    return ", ".join(g[1].label for g in parts[:4]) + (", ..." if len(parts) > 4 else "")


def _val(node, env):
    import kernel_env
    try:
        v = kernel_env.Evaluator(env).value(node)
    except Exception:  # noqa: BLE001 - not fixed
        return None
    return None if isinstance(v, kernel_env.Unresolved) else v


def _int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def init_loop(st, env, ex) -> bool:
    """`for i in T.serial(N): T.ptx.mbarrier.init(buf.ptr_to([i]), count)` (base.py:84-86): the
    inits of all N words, whatever iterations the walk takes (the body is only such inits, N and the
    count fixed, outside an undecided condition and a loop not unrolled).  The walked iterations'
    inits are then skipped (statement: already recorded)."""
    it = st.iter
    from corpus_notation import dotted
    if not (isinstance(st.target, ast.Name) and isinstance(it, ast.Call) and len(it.args) == 1 and not it.keywords
            and (dotted(it.func) or "").split(".")[-1] in ("serial", "range", "unroll") and st.body
            and not st.orelse):
        return False
    if ex.runtime_loops or ex.state_log or getattr(ex, "first_iterations", None):
        return False
    for b in st.body:
        if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Call) and _name(b.value) == INIT
                and len(b.value.args) == 2 and not b.value.keywords):
            return False
    n = _val(it.args[0], env)
    if not _int(n) or n < 1 or n > 4096:
        return False
    var = st.target.id
    saved = env.get(var, _MISSING)
    got = []
    try:
        for i in range(n):
            env[var] = i
            for b in st.body:
                p = _ptr(b.value.args[0], env)
                c = _val(b.value.args[1], env)
                if p is None or _index(p) is None or not _int(c) or c < 1:
                    return False
                got.append((p, _index(p), c, b.lineno))
    finally:
        if saved is _MISSING:
            env.pop(var, None)
        else:
            env[var] = saved
    for p, i, c, line in got:
        _init(p.buf, i, c, line)
    return True


_MISSING = object()


def _init(buf, i, c, line):
    import barrier_phase
    ph = barrier_phase.phases()
    w = word(buf, i)
    s = ph.slots.get((id(w), i))
    if s is not None and (s.phases or s.arrivals):
        ph.lose(w, f"{w.label}: re-initialised at line {line} while in use", i)
        return
    ph.counts[id(w)] = c
    ph.keep.append(w)


def enclosing(ex, cond):
    """The undecided condition a statement runs under: its own, else the innermost one a helper call
    enclosing it is under (the walk walks a helper's body with no condition: kernel_walk.scan_calls)."""
    if cond is not None:
        return cond
    for c in reversed(getattr(ex, "raw_conds", None) or []):
        if c is not None:
            return c
    return None


def statement(call, env, ex, cond, line: int):
    """A raw init / arrive / commit on a word: the bookkeeping.  None when `call` is none of these
    (on a word buffer), else ("arrive",) or ("other",)."""
    import barrier_phase
    import kernel_env
    name = _name(call)
    if name not in ARRIVES + (INIT, COMMIT) or not call.args:
        return None
    cond = enclosing(ex, cond)
    p = _ptr(call.args[0], env)
    if p is None and name != INIT:
        per_lane = lane_words(call.args[0], env, ex)
        if per_lane is not None:  # one word per lane (lane_words): each word gets its lanes' arrivals
            for _i, (lp, n) in sorted(per_lane.items()):
                _arrive(call, name, lp, env, ex, cond, line, n)
            return ("arrive",)
    if p is None:
        b = _ptr_buf(call.args[0], env)
        if b is not None and name != INIT:  # an arrive on a word of it whose index the walk does not fix
            lose_buffer(b, f"{b.name}: an arrive at line {line} on a word whose index the source does not fix")
            return ("arrive",)
        if b is not None:
            lose_buffer(b, f"{b.name}: an init at line {line} on a word whose index the source does not fix")
            return ("other",)
        return None
    i = _index(p)
    ph = barrier_phase.phases()
    if i is None:
        lose_buffer(p.buf, f"{p.buf.name}: a word index at line {line} the source does not fix")
        return ("other",)
    w = word(p.buf, i)
    kws = {k.arg: k.value for k in call.keywords}
    if name == INIT:
        c = _val(call.args[1], env) if len(call.args) == 2 and not kws else None
        if STATE.get("in_init_loop"):
            return ("other",)  # recorded for every iteration by init_loop
        if cond is not None or ex.runtime_loops or ex.state_log or not _int(c) or c < 1:
            ph.counts[id(w)] = None
            ph.lose(w, f"{w.label}: mbarrier.init at line {line} with a count the walk does not fix (under an "
                    "undecided condition, in a loop not unrolled, or not a constant)", i)
            return ("other",)
        _init(p.buf, i, c, line)
        return ("other",)
    _arrive(call, name, p, env, ex, cond, line, None)
    return ("arrive",)


def _arrive(call, name, p, env, ex, cond, line: int, lanes) -> None:
    """An arrive / commit on the word at `p` by the executing threads (`lanes`: their number when the
    word is one lane's, lane_words; None: every executing thread's)."""
    import barrier_phase
    import kernel_env
    i = _index(p)
    ph = barrier_phase.phases()
    w = word(p.buf, i)
    kws = {k.arg: k.value for k in call.keywords}
    where = None
    if cond is not None:
        where = f"an arrive at line {line} under the undecided condition of line {cond.line}"
    elif ex.runtime_loops:
        where = f"an arrive at line {line} in a loop the walk does not unroll"
    mine, assumed = True, None
    if name == COMMIT:
        extra = set(kws) - {"cta_group"}
        if extra or len(call.args) != 1 or any(k is None for k in kws):
            where = where or (f"a tcgen05.commit at line {line} with {', '.join(sorted(map(str, extra))) or 'arguments'} "
                              "not modelled (a multicast commit)")
    elif name == "mbarrier.arrive.expect_tx":
        if kws or len(call.args) != 2:
            where = where or f"an arrive.expect_tx at line {line} in a form not modelled"
    else:  # mbarrier.arrive
        if len(call.args) != 1 or set(kws) - {"remote", "pred"} or any(k is None for k in kws):
            where = where or f"an arrive at line {line} in a form not modelled (a count or another argument)"
        if where is None and "pred" in kws:
            pv = _val(kws["pred"], env)
            if pv is not True:
                where = f"an arrive at line {line} under a predicate the walk does not fix to True"
        if where is None and "remote" in kws:
            r = _val(kws["remote"], env)
            if not _int(r) or kernel_env.SETTINGS.get("instance") == "none":
                where = f"an arrive at line {line} on another CTA's word (remote=) whose rank the walk does not fix"
            elif r != 0:
                where = (f"an arrive at line {line} on CTA rank {r}'s word (remote={r}): the walked CTA is rank 0, "
                         "and the arrivals of the other CTAs are not walked")
            else:
                assumed = (f"mbarrier.arrive at line {line} with remote=0: the walked CTA is rank 0 of its cluster "
                           "(the arrive lands on its own word)", line, 0)
    for log in ex.state_log:  # a loop walked for its first iterations: lost after it (RawWord.lose)
        log.add(w)
    if where is not None:
        ph.lose(w, f"{w.label}: {where}", i)
        return
    if not mine:
        return
    n = barrier_phase.threads(ex) if lanes is None else lanes
    if n is None:
        ph.lose(w, f"{w.label}: an arrive at line {line} by a number of threads the walk does not fix", i)
        return
    if id(w) not in ph.counts:
        ph.lose(w, f"{w.label}: arrived on at line {line} before any mbarrier.init the walk followed", i)
        return
    if assumed is not None:
        ph.slot(w, i).assumed.append(assumed)
    ph.arrive(w, i, n)


def wait_result(p, call, env, ex, cond, line: int):
    """A raw wait on the word at `p`: ("wait", word, index, (parity, passes)) when decided, else
    ("wait", word-or-None, index, why)."""
    import barrier_phase
    i = _index(p)
    if i is None:
        return ("wait", None, None, f"the wait at line {line} on {p.buf.name} has a word index the source does not fix")
    w = word(p.buf, i)
    if len(call.args) != 2 or call.keywords:
        return ("wait", w, i, f"the wait at line {line} on {w.label} is in a form not modelled")
    import kernel_env
    try:
        par = kernel_env.Evaluator(env).value(call.args[1])
    except Exception as e:  # noqa: BLE001 - not fixed
        par = kernel_env.Unresolved(ast.unparse(call.args[1]), line, str(e))
    if not _int(par) or par not in (0, 1):
        what = f"{par.name}: {par.root().reason}" if isinstance(par, kernel_env.Unresolved) else repr(par)
        return ("wait", w, i, f"the wait at line {line} on {w.label} has a parity the walk does not fix ({what})")
    if cond is not None and not poll_shape(cond, w, par):
        return ("wait", w, i, f"the wait at line {line} on {w.label} runs under the undecided condition of line "
                f"{cond.line}")
    why = why_lost(w)
    if why is not None:
        return ("wait", w, i, f"the wait at line {line} is not decided ({why})")
    ph = barrier_phase.phases()
    if ph.count(w) is None:
        return ("wait", w, i, f"the wait at line {line} on {w.label}: no mbarrier.init of the word the walk followed")
    return ("wait", w, i, (par, ph.passes(w, i, par)))


# ---- the poll-then-wait shape (gemm.py:564-567, 597-603) ------------------------------------------

def poll_call(node, env):
    """`f(ptr, parity)` where f is a Python helper whose body is `return T.cuda.func_call(
    "tvm_builtin_ptx_mbarrier_try_wait...", ptr, parity, source_code=...)` with a source that polls
    mbarrier.try_wait and arrives on nothing (utils.py:181-205): (word, parity) when ptr and parity
    are fixed, else None."""
    from kernel_env import FuncValue
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) == 2
            and not node.keywords):
        return None
    fv = env.get(node.func.id)
    if not isinstance(fv, FuncValue) or not _is_poll_helper(fv.node):
        return None
    p = _ptr(node.args[0], env)
    par = _val(node.args[1], env)
    if p is None or _index(p) is None or not _int(par) or par not in (0, 1):
        return None
    return word(p.buf, _index(p)), par


def _is_poll_helper(fn) -> bool:
    if not isinstance(fn, ast.FunctionDef) or fn.decorator_list or len(fn.args.args) != 2:
        return False
    body = [b for b in fn.body if not (isinstance(b, ast.Expr) and isinstance(b.value, ast.Constant))]
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
        return False
    c = body[0].value
    from corpus_notation import dotted
    if (dotted(c.func) or "") not in ("T.cuda.func_call", "Tx.cuda.func_call") or len(c.args) != 3:
        return False
    if not (isinstance(c.args[0], ast.Constant) and isinstance(c.args[0].value, str)
            and c.args[0].value.startswith("tvm_builtin_ptx_mbarrier_try_wait")):
        return False
    params = [a.arg for a in fn.args.args]
    if not all(isinstance(a, ast.Name) and a.id == n for a, n in zip(c.args[1:], params)):
        return False
    src = next((k.value for k in c.keywords if k.arg == "source_code"), None)
    if not (isinstance(src, ast.Constant) and isinstance(src.value, str)):
        return False
    s = src.value
    return "mbarrier.try_wait" in s and "arrive" not in s and "mapa" not in s


def assigned(target, value_node, env, ex=None) -> None:
    """`cell = poll(ptr, parity)` was walked (no undecided condition, no loop not unrolled): the value
    object the cell now holds stands for that poll's result."""
    if ex is not None and enclosing(ex, None) is not None:
        return  # inside a helper called under an undecided condition: the poll may not run
    poll = poll_call(value_node, env)
    if poll is None:
        return
    cell = _cell(target, env)
    if cell is not None:
        STATE["polls"][id(cell)] = (cell.value, poll, cell)


def note_branch(st, env, u, ex=None) -> None:
    """`if not cell:` (or the `elif not cell:` of an if chain) with the cell holding a poll's result:
    the branch's undecided condition `u` is that poll failing."""
    import kernel_env
    t = st.test
    if not (isinstance(t, ast.UnaryOp) and isinstance(t.op, ast.Not)) or st.orelse or len(st.body) != 1:
        return
    if ex is not None and enclosing(ex, None) is not None:
        return  # the `if` itself runs under an undecided condition of an enclosing helper call
    try:
        cell = _cell(t.operand, env)
    except Exception:  # noqa: BLE001
        return
    got = STATE["polls"].get(id(cell)) if cell is not None else None
    if got is None or cell.value is not got[0]:
        return
    STATE.setdefault("branches", {})[id(u)] = (u, got[1], st)


def _cell(node, env):
    import tile_cells
    import tvm_classes
    if isinstance(node, ast.Name):
        c = env.get(node.id)
    else:
        c = tile_cells.cell_of(node, env)
    return c if isinstance(c, tvm_classes.TirLocal) else None


def poll_shape(cond, w, par) -> bool:
    """The wait runs exactly under `if not <poll of w for par>:` with no other undecided condition:
    either the poll saw the phase complete, or this wait waits for it -- after the `if` the phase is
    complete on both paths, so for the order the wait is unconditional."""
    got = STATE.get("branches", {}).get(id(cond))
    if got is None or got[0] is not cond:
        return False
    (pw, ppar), st = got[1], got[2]
    return pw is w and ppar == par and len(st.body) == 1


def address_uses(st, env, line: int) -> None:
    """A word buffer's address used other than by the forms of the module docstring, a copy's `mbar=`
    option, a TMA instruction's mbarrier operand or the poll helper: arrivals there are not seen."""
    import barrier_phase
    ptrs = [n for n in ast.walk(st) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr == "ptr_to"]
    if not ptrs:
        return
    parents = {}
    for n in ast.walk(st):
        for c in ast.iter_child_nodes(n):
            parents[id(c)] = n
    for n in ptrs:
        b = _ptr_buf(n, env)
        if b is None or not _known(b):
            continue
        pp = parents.get(id(n))
        if isinstance(pp, ast.Call) and pp.args and pp.args[0] is n and _name(pp) in ARRIVES + (INIT, COMMIT) + WAITS:
            continue
        if isinstance(pp, ast.keyword) and pp.arg == "mbar":
            continue
        if isinstance(pp, ast.Call) and n in pp.args and barrier_phase._tma_completion(pp, env):
            continue
        if isinstance(pp, ast.Dict):
            k = next((k for k, v in zip(pp.keys, pp.values) if v is n), None)
            if isinstance(k, ast.Constant) and k.value == "mbar":
                continue
        if isinstance(pp, ast.Call) and pp.args and pp.args[0] is n and poll_call(pp, env) is not None:
            continue
        lose_buffer(b, f"{b.name}: its address used at line {line} other than by an mbarrier init / arrive / wait, "
                    f"a tcgen05.commit, a TMA copy's mbar= or the poll helper ({ast.unparse(pp or n)[:80]}): "
                    "arrivals there are not seen")


def _known(buf) -> bool:
    bk = _bkey(buf)
    return any(k == bk for k, _i in STATE["words"])


def prescan_call(n, env) -> None:
    """role_sched.fork's prescan (barrier_phase.prescan): a raw arrive / commit in the roles' code in a
    form not modelled loses its buffer's words from the fork on (a role waiting on them would wait for
    an arrival the walk never counts: a deadlock that is not the kernel's)."""
    name = _name(n)
    if name not in ARRIVES + (COMMIT,) or not n.args:
        return
    b = _ptr_buf(n.args[0], env)
    if b is None:
        return
    kws = {k.arg for k in n.keywords}
    bad = None
    if name == COMMIT and (kws - {"cta_group"} or len(n.args) != 1):
        bad = "a multicast tcgen05.commit"
    elif name == "mbarrier.arrive.expect_tx" and (kws or len(n.args) != 2):
        bad = "an arrive.expect_tx form not modelled"
    elif name == "mbarrier.arrive" and (kws - {"remote", "pred"} or len(n.args) != 1):
        bad = "an arrive with a count or another argument"
    elif name == "mbarrier.arrive":
        k = {x.arg: x.value for x in n.keywords}
        if "remote" in k and _val(k["remote"], env) != 0 or "pred" in k and _val(k["pred"], env) is not True:
            bad = "an arrive on another CTA's word or under a predicate not fixed to True"
    if bad is not None:
        lose_buffer(b, f"{b.name}: {bad} at line {n.lineno} in the warp roles' code")
