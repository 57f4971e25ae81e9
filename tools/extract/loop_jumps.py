"""`break` / `continue` in a loop the walk follows, and `while` loops that never end.

A `break` / `continue` the walk decides (no undecided test, warp or lane branch between it and its
loop) raises Jump: the walked iteration ends there (what follows it in the body is not in the
model); after a decided `break` the loop is over (kernel_walk does not walk later iterations, and a
loop walked as its first iteration keeps iteration 0's values: loop_first.leave(exact=True)).
One under an undecided test marks the loop's frame: what follows it in the iteration (and, for a
`break`, in every later iteration the walk takes) is walked under an undecided condition, so its
ops and stores stay unresolved; never silently included.  Statements after a break / continue in
its own block are unreachable and not walked.

A `while` whose test cannot become false (a constant true test, no `break` of its own): the code
after it never runs; kernel_walk stops the block there and walks what follows in enclosing blocks
under an undecided condition (Walker.endless).
docs/extract.md, "Runtime loops: the first iteration", states the rule.
"""
from __future__ import annotations

import ast

from kernel_env import Unresolved


class Jump(Exception):
    """A decided `break` / `continue` (kind) at `line`."""

    def __init__(self, kind: str, line: int):
        super().__init__(kind)
        self.kind = kind
        self.line = line


class Frame:
    """One loop the walk is inside: what a jump is decided against."""

    def __init__(self, ex, line: int, cond):
        self.line = line
        self.entry_cond = cond
        self.warp_depth = ex.warp_branches
        self.lane_depth = ex.lane_branches
        self.undecided = None   # an Unresolved condition once a jump under an undecided test was met
        self.broke = False      # that jump was a break: later iterations are undecided too

    def new_iteration(self) -> None:
        if not self.broke:
            self.undecided = None


def enter(ex, line: int, cond) -> Frame:
    fr = Frame(ex, line, cond)
    ex.__dict__.setdefault("jump_frames", []).append(fr)
    return fr


def leave(ex, fr: Frame) -> None:
    frames = ex.__dict__.get("jump_frames", [])
    if frames and frames[-1] is fr:
        frames.pop()


def top(ex):
    frames = ex.__dict__.get("jump_frames")
    return frames[-1] if frames else None


def jump(ex, st, cond) -> None:
    """The walk meets `st` (a Break / Continue): raise Jump when decided, else mark the frame."""
    fr = top(ex)
    if fr is None:
        return
    kind = "break" if isinstance(st, ast.Break) else "continue"
    if cond is fr.entry_cond and ex.warp_branches == fr.warp_depth and ex.lane_branches == fr.lane_depth:
        raise Jump(kind, st.lineno)
    fr.undecided = Unresolved(f"{kind} at line {st.lineno}", st.lineno,
                              f"the {kind} at line {st.lineno} (under an undecided test) may end the iteration of "
                              f"the loop at line {fr.line} before this", cond)
    fr.undecided.jump = True
    fr.broke = fr.broke or kind == "break"


def jump_cond(ex, cond):
    """The condition an op at this point depends on when a jump or an endless loop may keep it from
    running (it is then left unresolved, not issued under a note), else None."""
    if cond is not None and getattr(cond, "jump", False):
        return cond
    for fr in ex.__dict__.get("jump_frames", ()):
        if fr.undecided is not None:
            return fr.undecided
    return None


def effective_cond(ex, walker, cond):
    """The condition a statement runs under: an undecided jump or endless loop met before it adds one."""
    if cond is not None:
        return cond
    fr = top(ex)
    if fr is not None and fr.undecided is not None:
        return fr.undecided
    return getattr(walker, "endless", None)


def _breaks(body) -> bool:
    """A break / return of this loop (not of a loop nested in it) in `body`."""
    return leaves_loop(body, (ast.Break, ast.Return))


def leaves_loop(body, kinds) -> bool:
    """A statement of one of `kinds` (ast.Break, ast.Continue, ast.Return) that belongs to this loop
    (not to a loop or function nested in it) anywhere in `body`."""
    stack = list(body)
    while stack:
        n = stack.pop()
        if isinstance(n, kinds):
            return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef, ast.For, ast.While,
                          ast.AsyncFor)):
            continue
        stack.extend(ast.iter_child_nodes(n))
    return False


def never_ends(st) -> bool:
    """A `while` whose test is a constant true expression (no name, no call) and that has no break."""
    if any(isinstance(n, (ast.Name, ast.Call, ast.Attribute, ast.Subscript)) for n in ast.walk(st.test)):
        return False
    try:
        value = eval(compile(ast.Expression(st.test), "<test>", "eval"), {"__builtins__": {}})  # noqa: S307 - constants only
    except Exception:  # noqa: BLE001
        return False
    return bool(value) and not _breaks(st.body)


def endless_cond(line: int) -> Unresolved:
    u = Unresolved(f"endless loop at line {line}", line,
                      f"after the while loop at line {line}, which never ends (its test is always true and it has no "
                      "break): this code runs only where that loop is not reached")
    u.jump = True
    return u
