"""The driver's device set-up of its shared-memory manager, walked before a tile's `run`
(docs/extract.md, "The manager's device set-up and its chunk words").

The megakernel driver builds one SmemManager (spectrometerHBH 8721e86 megakernel/utils/base.py:531,
`self.smem_manager = SmemManager(...)` in MegaKernelWrapper.set_smem_manager; tile_driver.manager
evaluates it) and, in its device body, after every tile's `init` / `class_init` (moe.py:569-570)
and before the scheduler loop that runs the tiles (moe.py:590 `while self.tile_scheduler.valid()`),
calls the manager's device method `self.smem_manager.init()` (moe.py:586).  That method allocates
the manager's persistent words (`self.mbar`, one uint64 mbarrier per shared-memory chunk,
base.py:127-128), sets the register `cur_phase[0] = 1` and initialises each word for one arrival
(base.py:138-149).  A tile's `run` then waits on and arrives at those words (wait_specific /
arrive_specific / wait_unused / arrive_unused, base.py:297-386), so without this call the tile's
waits name an attribute that does not exist.

Which calls are walked: in the methods of the class holding the construction and of the
package's classes deriving from it (by base name), every statement `self.<attr>.M()` -- `<attr>`
the attribute the construction is stored in, M a method of the manager's class decorated
`@T.inline` (device code), no arguments -- that stands in a block before a `while` loop of that
block (the driver's tile loop), outside any loop.  All such calls must be in one function (one
device body); else none is walked and each tile entry that needs the manager's state says why.
They are walked in source order, once, right before the tile's `run` entry (tile_class.ENTRY:
after `class_init` and `init`, as the driver orders them).

The words' state at `run`'s entry: the driver's loop runs many tiles on the one manager, each
tile's waits and arrives moving the words and each tile ending with `advance()` (gemm.py:687).
What `init` left is their state only on the CTA's first tile -- the representative instance ("CTA
0 on its first tile"), recorded in extraction.instance.bindings, with the manager's register
values (`cur_phase[0]`, a reg_cell.py cell).  Under `--instance none` every word the set-up
initialised and every such register is lost at `run`'s entry (the waits on them stay unresolved,
naming this).

Python 3 standard library only.
"""
from __future__ import annotations

import ast


def _inline(fn) -> bool:
    import tile_class
    return "inline" in tile_class._decorators(fn)


def _derived(files, base: str) -> set:
    """The class `base` and the package's classes deriving from it, by base name."""
    names, changed = {base}, True
    while changed:
        changed = False
        for _rel, tree in files:
            for c in ast.walk(tree):
                if isinstance(c, ast.ClassDef) and c.name not in names and any(
                        (ast.unparse(b).split(".")[-1]) in names for b in c.bases):
                    names.add(c.name)
                    changed = True
    return names


def _blocks(body, in_loop=False):
    """(block, in a loop?) for `body` and every block nested in it (not into nested functions)."""
    yield body, in_loop
    for st in body:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        loop = in_loop or isinstance(st, (ast.For, ast.AsyncFor, ast.While))
        for field in ("body", "orelse", "finalbody"):
            sub = getattr(st, field, None)
            if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                yield from _blocks(sub, loop)
        for h in getattr(st, "handlers", []) or []:
            yield from _blocks(h.body, loop)


def setup_calls(cv):
    """([(method name, rel, line, function)], where, note): the driver's device calls on its manager
    of class `cv` before its tile loop (module docstring); note says why there are none."""
    import tile_driver
    site, note = tile_driver.manager_site(cv)
    if site is None:
        return [], None, note
    rel, _tree, call, fn, cl, root, top = site
    params = (fn.args.posonlyargs + fn.args.args) if fn is not None else []
    attr = None
    if cl is not None and params:
        for st in ast.walk(fn):
            if isinstance(st, ast.Assign) and st.value is call and len(st.targets) == 1:
                t = st.targets[0]
                if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == params[0].arg:
                    attr = t.attr
    if attr is None:
        return [], None, (f"{rel}:{call.lineno} does not store the {cv.name} as an attribute of the driver's "
                          "object, so its device calls are not looked for")
    files = list(tile_driver._package_files(root, top))
    classes = _derived(files, cl.name)
    found, skipped = [], []
    for frel, tree in files:
        for c in ast.walk(tree):
            if not (isinstance(c, ast.ClassDef) and c.name in classes):
                continue
            for m in c.body:
                if not isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)) or not m.args.args:
                    continue
                me = m.args.args[0].arg
                for block, in_loop in _blocks(m.body):
                    for i, st in enumerate(block):
                        name = _call_on(st, me, attr)
                        if name is None:
                            continue
                        got = cv.find(name)
                        if got is None or got[1] != "method" or not _inline(got[2]):
                            continue
                        if in_loop or not any(isinstance(b, ast.While) for b in block[i + 1:]):
                            skipped.append(f"{frel}:{st.lineno}")
                            continue
                        found.append((name, frel, st.lineno, f"{c.name}.{m.name}"))
    funcs = sorted({f for *_x, f in found})
    if len(funcs) > 1:
        return [], None, (f"device calls on the {cv.name} before a tile loop in {len(funcs)} functions "
                          f"({', '.join(funcs)}): which one runs is a choice, not made")
    where = ", ".join(f"{r}:{ln}" for _n, r, ln, _f in found)
    if skipped and not found:
        return [], None, (f"the driver's device calls on the {cv.name} ({', '.join(skipped[:4])}) are in a loop or "
                          "after the tile loop: not walked as its set-up")
    return sorted(found, key=lambda x: (x[1], x[2])), where or None, None


def _call_on(st, me: str, attr: str):
    if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Call)):
        return None
    c = st.value
    f = c.func
    if c.args or c.keywords or not isinstance(f, ast.Attribute):
        return None
    v = f.value
    if isinstance(v, ast.Attribute) and v.attr == attr and isinstance(v.value, ast.Name) and v.value.id == me:
        return f.attr
    return None


def before_run(ex, cls, walk) -> None:
    """Walk each driver manager's device set-up (setup_calls) once, before `cls.run`; `walk(fv, env)`
    walks a bound method.  Then the words it initialised are the first tile's (module docstring)."""
    import kernel_env
    import raw_phase
    import tile_cells
    import tile_class
    for _key, (inst, _where, _note) in list(tile_class.MANAGERS.items()):
        if inst is None:
            continue
        calls, where, note = setup_calls(inst.cls)
        if note is not None:
            ex.config.setdefault(f"{inst.cls.name} set-up before {cls.name}.run", {
                "value": "not walked", "origin": note})
            continue
        before = set(raw_phase.STATE["words"])
        for name, _rel, _line, _fn in calls:
            got = inst.cls.find(name)
            fv = tile_class.bound(got[2], got[0], inst)
            walk(fv, dict(fv.closure))
        if not calls:
            continue
        ex.config.setdefault(f"{inst.cls.name} set-up before {cls.name}.run", {
            "value": ", ".join(f"{inst.cls.name}.{n}()" for n, *_r in calls),
            "origin": f"the driver's device calls at {where}, before its tile loop"})
        new = [w for k, w in raw_phase.STATE["words"].items() if k not in before]
        regs = [(n, c) for n, c in tile_cells.cells(inst.cls, inst) if not isinstance(c.value, kernel_env.Unresolved)]
        if not new and not regs:
            continue
        held = ([f"words {', '.join(sorted({w.buf.name for w in new}))}"] if new else []) + \
            ([f"registers {', '.join(n for n, _c in regs)}"] if regs else [])
        why = (f"{inst.cls.name}'s {' and '.join(held)}: the driver's loop runs every tile of the CTA on them "
               f"(each tile's waits, arrives and advance() move them), so the state "
               f"{', '.join(n for n, *_r in calls)}() left at {where} holds at {cls.name}.run's entry on the CTA's "
               "first tile only")
        if kernel_env.convention_on():
            kernel_env.note_convention(why, calls[0][2], "as the set-up left them (no phase completed" +
                                       "".join(f"; {n} = {c.value}" for n, c in regs) + ")")
        else:
            for b in {id(w.buf): w.buf for w in new}.values():
                raw_phase.lose_buffer(b, why + "; --instance none: not bound")
            for _n, c in regs:
                c.lose(calls[0][2], why + "; --instance none: not bound")
