"""A runtime loop whose START is runtime data, under the representative instance.

A loop walked as its first iteration (loop_first.py) has its variable bound to the range's start;
when that start is computed from data the kernel loads at run time, the variable stays unresolved
and so does every op that reads it.  sparse_atten_fwd's MMA warp drains its last PV tiles with

    mma_count_raw: T.int32 = ld_shared_i32(s_row_meta, 3)        # data (runtime_data.py's ROOT)
    if mma_count_raw > 0:
        num_q_groups_mma: T.int32 = uceil_div_i32(mma_count_raw, q_tokens_per_group)
        ...
        for qi in T.serial(2, num_q_groups_mma): ...              # walked as its first iteration
        drain_begin: T.int32 = T.if_then_else(num_q_groups_mma == 1, 0, num_q_groups_mma - 2)
        for pv_qi2 in T.serial(drain_begin, num_q_groups_mma): ... # pv_qi2 selects the TMEM slot

runtime_data.py binds a root an op's TMA coordinate needs to the smallest index, 0; here 0 would
skip the very branch the loop is in.  So under the representative instance the root is bound to
the smallest value v = 0, 1, ... (at most MAX_VALUE) CONSISTENT WITH THE DECISIONS THE INSTANCE
ALREADY RECORDED in this walk: with the root taken to be v,

  * every loop the walk took as its first iteration ("the loop at line N runs at least once",
    loop_first.enter) whose range (a `while`: its test) v decides runs at least once, and
  * every undecided `if` enclosing such a loop whose test v decides takes the arm the loop is in;
  * the loop that wants the root has its range decided by v (its start becomes a number).

A test or range that v alone does not decide (it reads other runtime values) constrains nothing;
it stays a runtime test in the walk with the root bound.  The root is wanted only when an op is
unresolved because it reads the loop variable (`blocked`, from Extraction.block); the value is found
after the walk (`settle`) by evaluating those tests and ranges again with the root taken to be v
(`Probe`): a value derived from the root keeps its expression and the environment it was computed
in (`keep`, on declared scalars and assignments), so `drain_begin` is re-evaluated through
`num_q_groups_mma` and the helper `uceil_div_i32` down to the register.  The next walk binds the
root from the start (runtime_data.next_round, with its address screen), the binding recorded in
extraction.instance.bindings ("runtime data: ... the instance takes it to be V at every read (the
smallest value consistent with ...)"); `--instance none` wants nothing.  When no value up to
MAX_VALUE is consistent (or the screen refuses the root) it stays unresolved, the op's reason
saying why.
"""
from __future__ import annotations

import ast
import contextlib

MAX_VALUE = 4096        # the largest value tried
MAX_DEPTH = 64          # kept expressions re-evaluated inside one another

ARMS: list = []         # (line, test node, environment snapshot, taken) of the undecided ifs being walked
LOOPS: list = []        # the loops this walk took as their first iteration: constraints on a root's value
PENDING: dict = {}      # root key -> {"info", "loops": {(file, line): var}, "ops": [op line], "entries": [entry]}


def reset_walk() -> None:
    ARMS.clear()
    LOOPS.clear()
    PENDING.clear()


def _on() -> bool:
    import kernel_env
    return kernel_env.convention_on()


def snapshot(env: dict) -> dict:
    """The environment as it reads here: a declared scalar (TirLocal) replaced by its current value."""
    import tvm_classes
    return {n: (v.get(None) if isinstance(v, tvm_classes.TirLocal) else v) for n, v in env.items()}


# -- during the walk --------------------------------------------------------------------------

def keep(v, node, env: dict) -> None:
    """A value the walk could not evaluate, computed from runtime data by `node` in `env`: keep
    both, so that a probe can compute it again with the root taken to be a number."""
    import runtime_data
    from kernel_env import Unresolved
    if not _on() or not isinstance(v, Unresolved) or v.thread or runtime_data.root_key(v) is None:
        return
    v.data_expr = (node, snapshot(env))


@contextlib.contextmanager
def arm(line: int, test, env: dict, taken: bool):
    """Walking one arm of an undecided `if` (kernel_walk): the loops in it hold only where it is taken."""
    if not _on():
        yield
        return
    ARMS.append((line, test, snapshot(env), taken))
    try:
        yield
    finally:
        ARMS.pop()


def loop_entered(st, env: dict) -> None:
    """A loop walked as its first iteration (loop_first.enter): the instance assumes it runs at least once."""
    kind = "for" if isinstance(st, (ast.For, ast.AsyncFor)) else "while"
    node = st.iter if kind == "for" else st.test
    LOOPS.append({"line": st.lineno, "file": _file(), "kind": kind, "node": node, "env": snapshot(env),
                  "arms": tuple(ARMS)})


def _file():
    import runtime_data
    return runtime_data.STACK[-1][0] if runtime_data.STACK else None


def start_root(st, ev):
    """(key, info) of the runtime-data root of a `for` loop's start the source does not fix, or None."""
    import runtime_data
    from kernel_env import UnresolvedError
    it = st.iter
    if not _on() or not isinstance(it, ast.Call) or len(it.args) < 2:
        return None
    try:
        v = ev.value(it.args[0])
    except UnresolvedError as e:
        return runtime_data.root_key(e.item)
    except Exception:  # noqa: BLE001 - not evaluable for another reason: no root
        return None
    return runtime_data.root_key(v)


def mark(u, st, root) -> None:
    """The loop variable `u` (an Unresolved) of the loop `st` whose start is runtime data `root`."""
    u.data_loop = (root, (_file(), st.lineno), ast.unparse(st.target))


def blocked(u, entry: dict, line: int) -> None:
    """An op (or buffer) left unresolved whose root is such a loop variable: want its root."""
    got = getattr(u, "data_loop", None)
    if got is None or not _on():
        return
    (key, info), loop_line, var = got
    p = PENDING.setdefault(key, {"info": info, "loops": {}, "ops": [], "entries": []})
    p["loops"][loop_line] = var
    p["ops"].append(line)
    p["entries"].append(entry)


# -- after the walk ---------------------------------------------------------------------------

def settle() -> None:
    """For each wanted root: the smallest consistent value, wanted for the next walk
    (runtime_data.WANTED), or the reason it is not bound added to the ops' entries."""
    import runtime_data
    for key, p in sorted(PENDING.items(), key=lambda kv: str(kv[0])):
        if key in runtime_data.BOUND:
            continue
        why = runtime_data.REFUSED.get(key)
        if why is None:
            why = runtime_data.screen(key, p["info"])
        if why is None:
            value, text = solve(key, p)
            if value is None:
                why = text
            elif key in runtime_data.WANTED and runtime_data.WANTED[key]["value"] != value:
                why = (f"an op's TMA coordinate wants it to be {runtime_data.WANTED[key]['value']}, while the "
                       f"recorded decisions want {value}")
            else:
                runtime_data.WANTED[key] = dict(p["info"], value=value, use=text)
                continue
        runtime_data.REFUSED[key] = why
        for e in p["entries"]:
            if runtime_data.NOT_BOUND not in e["reason"]:
                e["reason"] += f"; {runtime_data.NOT_BOUND}: {why}"


def solve(key, p: dict):
    """(v, what the binding says) for the smallest consistent v, or (None, why not)."""
    order = list(range(len(LOOPS)))
    for v in range(MAX_VALUE + 1):
        values = {key: v}
        decided, bad = [], None
        for k in list(order):
            c = LOOPS[k]
            got = check(c, values)
            if got is False or (got is None and (c["file"], c["line"]) in p["loops"]):
                bad = k
                break
            if got is not None:
                decided.append(c)
        if bad is not None:
            order.remove(bad)
            order.insert(0, bad)  # the constraint that failed is tried first for the next value
            continue
        return v, ("the smallest value from 0 up that keeps what the walk without it assumed: "
                   + _said(decided, values) + f"; it fixes the start of {_starts(p)}")
    kept = [c for c in LOOPS if check(c, {key: 0}) is not None]
    return None, (f"no value 0..{MAX_VALUE} of {_name(key)} keeps what the walk without it assumed ("
                  + (_said(kept, {key: 0}) if kept else "the loop's range decided")
                  + f") and fixes the start of {_starts(p)}")


def _name(key) -> str:
    import runtime_data
    site = key[4] if key[0] == "reg" else None
    return runtime_data.describe(key) + (f" (the register the helper called at line {site[1]} fills)" if site else "")


def _starts(p: dict) -> str:
    return ", ".join(f"the loop at line {ln} (its variable {var} is read by an op at line {min(p['ops'])})"
                     for (_f, ln), var in sorted(p["loops"].items(), key=lambda kv: str(kv[0])))


def _said(cons: list, values: dict) -> str:
    """The decisions `cons` (loops and the arms holding them) that `values` decide, in words."""
    loops = sorted({c["line"] for c in cons})
    arms = sorted({(a[0], a[3]) for c in cons for a in c["arms"] if _decides(a, values)})
    s = "s" if len(loops) > 1 else ""
    out = f"the loop{s} at line{s} {', '.join(map(str, loops))} run{'' if s else 's'} at least once"
    for taken in (True, False):
        lines = [ln for ln, t in arms if t is taken]
        if lines:
            s = "s" if len(lines) > 1 else ""
            out += f", the if{s} at line{s} {', '.join(map(str, lines))} {'taken' if taken else 'not taken'}"
    return out


def _decides(a, values) -> bool:
    return _probe(a[1], a[2], values) is not UNDECIDED


UNDECIDED = object()


def check(c: dict, values: dict):
    """True / False: the loop is reached and runs at least once with the root(s) taken to be
    `values`; None when they do not decide it."""
    for _line, test, env, taken in c["arms"]:
        t = _probe(test, env, values)
        if t is not UNDECIDED and bool(t) != taken:
            return False
    if c["kind"] == "while":
        t = _probe(c["node"], c["env"], values)
        return None if t is UNDECIDED else bool(t)
    it = c["node"]
    if not isinstance(it, ast.Call) or not 1 <= len(it.args) <= 3:
        return None
    args = [_probe(a, c["env"], values) for a in it.args]
    if any(a is UNDECIDED or isinstance(a, bool) or not isinstance(a, int) for a in args) or \
            (len(args) == 3 and args[2] == 0):
        return None
    import kernel_walk
    return kernel_walk.range_len(range(*[int(a) for a in args])) > 0


def _probe(node, env: dict, values: dict):
    """`node`'s value in `env` with the roots taken to be `values`, or UNDECIDED."""
    import eval_limits
    import kernel_env
    import runtime_data
    saved, steps = dict(kernel_env.CONVENTION_USED), eval_limits._steps[0]  # a probe leaves no trace
    runtime_data.PROBE.update(values)
    try:
        v = Probe(env, values).value(node)
        return v if isinstance(v, (bool, int)) else UNDECIDED
    except Exception:  # noqa: BLE001 - what the probe cannot evaluate does not decide
        return UNDECIDED
    finally:
        runtime_data.PROBE.clear()
        eval_limits._steps[0] = steps
        kernel_env.CONVENTION_USED.clear()
        kernel_env.CONVENTION_USED.update(saved)


def _make_probe():
    import fragments
    import runtime_data
    from kernel_env import Evaluator, Unresolved

    class _Probe(Evaluator):
        """An Evaluator over a snapshot in which the roots hold `values` and a value kept by `keep`
        is computed again from its expression."""

        def __init__(self, env, values, level=0):
            super().__init__(env)
            self.values, self.level = values, level

        def lookup(self, name):
            v = self.env.get(name)
            if isinstance(v, (fragments.RegElem, Unresolved)):
                r = runtime_data.root_key(v)
                if r is not None and r[0] in self.values and (not isinstance(v, Unresolved) or v.cause is None):
                    return self.values[r[0]]
            if isinstance(v, Unresolved) and getattr(v, "data_expr", None) is not None and self.level < MAX_DEPTH:
                node, env = v.data_expr
                return _Probe(env, self.values, self.level + 1).value(node)
            return super().lookup(name)

    return _Probe


class _Lazy:
    cls = None


def Probe(env, values):  # noqa: N802 - a class made on first use (kernel_env imports this module's users)
    if _Lazy.cls is None:
        _Lazy.cls = _make_probe()
    return _Lazy.cls(env, values)
