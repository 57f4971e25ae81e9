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
device body), each at the top level of its body, with no loop before the first, and nothing
between the first and the tile loop -- nor in the loop's test or body -- that names the manager
or calls a driver method that does (except the manager's plain Python methods that emit no
device code, such as moe.py's `exit_tile_runtime`), and one pass of the loop runs one tile on
every path (an if/elif dispatch, moe.py:591-614; two tiles in a row: the second is never the
CTA's first): `_order`.  Else none is walked, and an
unresolved item says why (the tile's waits on the words then fail too: an attribute never set).
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
                        found.append((name, frel, st.lineno, f"{c.name}.{m.name}", m, st))
    funcs = sorted({x[3] for x in found})
    if len(funcs) > 1:
        return [], None, (f"device calls on the {cv.name} before a tile loop in {len(funcs)} functions "
                          f"({', '.join(funcs)}): which one runs is a choice, not made")
    if skipped and not found:
        return [], None, (f"the driver's device calls on the {cv.name} ({', '.join(skipped[:4])}) are in a loop or "
                          "after the tile loop: not walked as its set-up")
    if not found:
        return [], None, None
    found.sort(key=lambda x: x[2])
    why = _order(found, attr, cv, _methods(files, classes), files)
    if why is not None:
        return [], None, why
    where = ", ".join(f"{x[1]}:{x[2]}" for x in found)
    return [x[:4] for x in found], where, None


def _methods(files, classes) -> dict:
    """name -> FunctionDef of the driver classes' methods (by name; a name defined twice: None)."""
    out: dict = {}
    for _rel, tree in files:
        for c in ast.walk(tree):
            if isinstance(c, ast.ClassDef) and c.name in classes:
                for m in c.body:
                    if isinstance(m, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        out[m.name] = None if m.name in out else m
    return out


def _order(found, attr: str, cv, methods: dict, files):
    """Why the set-up calls `found` (one driver function's, in line order) do not fix the manager's
    state at the first tile's `run`, or None.  The state the walk takes is what the calls leave, so
    the source must say that nothing else changes it first: each call stands at the top level of
    the function body (not under a condition the walk would have to decide), no loop comes before
    the first call (a tile loop that runs before the set-up), the tile loop is the first `while`
    after the last call, the statements between the first call and that loop do not name the
    manager (`self.<attr>`) or call a driver method that does, and neither does the loop's test or
    body before a tile can run -- except calls of the manager's plain Python methods that emit no
    device code (exit_tile_runtime: trace-time bookkeeping)."""
    m, me = found[0][4], found[0][4].args.args[0].arg
    body = m.body
    sts = [x[5] for x in found]
    where = f"{found[0][1]}:{found[0][2]}"
    for st in sts:
        if st not in body:
            return (f"the {cv.name} set-up call at {found[0][1]}:{st.lineno} stands under a condition or in a nested "
                    "block of the driver: whether it runs is not decided, so the manager's state at run is not fixed")
    first, last = body.index(sts[0]), body.index(sts[-1])
    for st in body[:first]:
        if any(isinstance(n, (ast.For, ast.AsyncFor, ast.While)) for n in ast.walk(st)):
            return (f"a loop at {found[0][1]}:{st.lineno} comes before the {cv.name} set-up at {where}: tiles it runs "
                    "would see the manager before its set-up, and its state at run is not fixed")
    loop = next((i for i in range(last + 1, len(body)) if isinstance(body[i], ast.While)), None)
    between = [st for st in body[first:loop] if st not in sts]
    for st in between:
        hit = _touches(st, me, attr, cv, methods, 3)
        if hit is not None:
            return (f"{found[0][1]}:{hit} uses the {cv.name} between its set-up at {where} and the tile loop (not "
                    "walked): its state at the first tile's run is not the set-up's")
    lp = body[loop]
    hit = _touches(lp.test, me, attr, cv, methods, 3)
    for st in ([] if hit is not None else lp.body):
        hit = _touches(st, me, attr, cv, methods, 3, allow_python=True)
        if hit is not None:
            break
    if hit is not None:
        return (f"{found[0][1]}:{hit} uses the {cv.name} in the tile loop (not walked as the set-up): its state at "
                "the first tile's run may not be the set-up's")
    n = _runs(lp.body, me, methods, 3)
    if n == 0:
        return (f"the tile loop at {found[0][1]}:{lp.lineno} runs no tile the walk can see (a tile's run or prefetch, "
                "directly or through the driver's methods)")
    if n > 1:  # several tiles in a pass: this one must come first on its path (moe.py's down-proj arm runs many)
        tile = _tile_attr(files)
        before = None if tile is None else _before(lp.body, me, tile, methods, 3)
        if before != 0:
            return (f"a pass of the tile loop at {found[0][1]}:{lp.lineno} can run {n} tiles one after another, and "
                    + (f"this tile's run is not the first of its pass on every path ({before} may come before it)"
                       if before is not None else "which of them is this tile is not found (the tile is not held "
                       "as `self.X = ...` of its construction, or its run is reached in a loop)")
                    + ": a tile after the first sees the words and registers the earlier ones moved, so 'the CTA's "
                    "first tile' is not an instance it can be")
    return None


def _tile_attr(files):
    """The driver attribute holding this tile (`self.gate = self._add_tile(GemmTile(...))`,
    moe.py:97-98): the target of the assignment whose value is the construction tile_driver found,
    or a call taking it as a direct argument; None when it is not so held (in a list, say)."""
    import kernel_env
    import tile_class
    import tile_driver
    drv = tile_class.DRIVER_FOUND[0]
    if drv is None and TILE[0] is not None:  # its arguments came from --param: the site is the same
        drv, _note = tile_driver.find(TILE[0], kernel_env.SETTINGS.get("source_path"))
    if drv is None:
        return None
    for rel, tree in files:
        if rel != drv.rel:
            continue
        for st in ast.walk(tree):
            if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Attribute) and \
                    isinstance(st.targets[0].value, ast.Name):
                v = st.value  # the construction itself, or the direct argument of one wrapper call
                held = [v] + (list(v.args) if isinstance(v, ast.Call) else [])
                if any(isinstance(n, ast.Call) and n.lineno == drv.call.lineno and n.col_offset == drv.call.col_offset
                       for n in held):
                    return st.targets[0].attr
    return None


def _names_tile(node, me: str, tile: str) -> bool:
    return any(isinstance(n, ast.Attribute) and n.attr == tile and isinstance(n.value, ast.Name) and n.value.id == me
               for n in ast.walk(node))


def _reaches(node, me: str, tile: str, methods: dict, depth: int) -> bool:
    """Does `node` run this tile: an entry call naming `me.<tile>` (as receiver or argument)?  Through
    the driver's methods only by their arguments (the tile is passed to `run_tile`)."""
    return _call_to(node, me, tile, methods, depth) is not None


def _call_to(node, me: str, tile: str, methods: dict, depth: int):
    """The first call in `node` that runs this tile: ("here", call) when it names `me.<tile>`,
    ("in", method FunctionDef) when it is a driver method `me.M(...)` whose body does; else None."""
    for n in ast.walk(node):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)):
            continue
        if _names_tile(n, me, tile):
            return ("here", n)
        if isinstance(n.func.value, ast.Name) and n.func.value.id == me and methods.get(n.func.attr) is not None \
                and depth > 0:
            fn = methods[n.func.attr]
            inner = fn.args.args[0].arg if fn.args.args else me
            if any(_call_to(st, inner, tile, methods, depth - 1) is not None for st in fn.body):
                return ("in", fn)
    return None


def _before(block, me: str, tile: str, methods: dict, depth: int):
    """The most tile entries one pass of `block` can make before it reaches this tile's run (None:
    the run is reached inside a loop of the pass, or not at all)."""
    total = 0
    for st in block:
        if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if not _reaches(st, me, tile, methods, depth):
            total += _runs([st], me, methods, depth)
            continue
        if isinstance(st, ast.If):
            arm = st.body if any(_reaches(x, me, tile, methods, depth) for x in st.body) else st.orelse
            inner = _before(arm, me, tile, methods, depth)
            return None if inner is None else total + inner
        if isinstance(st, (ast.For, ast.AsyncFor, ast.While)):
            return None
        got = _call_to(st, me, tile, methods, depth)
        if got[0] == "here":  # the statement itself runs it: `self.run_tile(self.gate, ...)`
            return total
        fn = got[1]  # through a driver method (`self.task_impl_moe_gating(...)`): what comes before inside it
        inner = _before(fn.body, fn.args.args[0].arg if fn.args.args else me, tile, methods, depth - 1)
        return None if inner is None else total + inner
    return None

TILE_ENTRIES = ("run", "prefetch")


def _runs(block, me: str, methods: dict, depth: int) -> int:
    """The most tile entries (`x.run(...)`, `x.prefetch(...)`, directly or through the driver's methods
    `me.M(...)`, `depth` levels down) one pass of `block` can make: statements add up, the arms of an
    `if` are alternatives (the larger counts), a loop counts as many (2 when its body runs one)."""
    total = 0
    for st in block:
        if isinstance(st, ast.If):
            total += max(_runs(st.body, me, methods, depth), _runs(st.orelse, me, methods, depth))
        elif isinstance(st, (ast.For, ast.AsyncFor, ast.While)):
            total += 2 * _runs(st.body, me, methods, depth)
        elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        else:
            for n in ast.walk(st):
                if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)):
                    continue
                if n.func.attr in TILE_ENTRIES:
                    total += 1
                elif isinstance(n.func.value, ast.Name) and n.func.value.id == me and methods.get(n.func.attr) \
                        is not None and depth > 0:
                    fn = methods[n.func.attr]
                    total += _runs(fn.body, fn.args.args[0].arg if fn.args.args else me, methods, depth - 1)
    return total


def _touches(node, me: str, attr: str, cv, methods: dict, depth: int, allow_python: bool = False):
    """The line where `node` names the manager (`me.<attr>`) other than by a call of one of its
    plain Python methods that emit no device code (allow_python), or calls a driver method
    (`me.M(...)`) that does so, `depth` levels down; None when it does not."""
    parents = {}
    for n in ast.walk(node):
        for ch in ast.iter_child_nodes(n):
            parents[id(ch)] = n
    for n in ast.walk(node):
        if isinstance(n, ast.Attribute) and n.attr == attr and isinstance(n.value, ast.Name) and n.value.id == me:
            p = parents.get(id(n))
            gp = parents.get(id(p)) if p is not None else None
            if allow_python and isinstance(p, ast.Attribute) and isinstance(gp, ast.Call) and gp.func is p:
                got = cv.find(p.attr)
                if got is not None and got[1] == "method" and not _inline(got[2]) and _host_only(got[2], cv, 3):
                    continue
            return n.lineno
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and \
                n.func.value.id == me and n.func.attr in methods:
            fn = methods[n.func.attr]
            if fn is None or depth <= 0:
                return n.lineno
            inner = fn.args.args[0].arg if fn.args.args else me
            for st in fn.body:
                if _touches(st, inner, attr, cv, methods, depth - 1, allow_python) is not None:
                    return n.lineno
    return None


BUILDERS = ("T", "Tx", "K", "tvm", "tirx")


def _host_only(fn, cv, depth: int) -> bool:
    """A manager method that emits no device code: no builder name (T., Tx., ...), no store into a
    subscript (a buffer element), and only such methods of its own class called on `self`."""
    me = fn.args.args[0].arg if fn.args.args else None
    for n in ast.walk(fn):
        if isinstance(n, ast.Name) and n.id in BUILDERS:
            return False
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            ts = n.targets if isinstance(n, ast.Assign) else [n.target]
            if any(isinstance(t, ast.Subscript) for t in ts):
                return False
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) and \
                n.func.value.id == me:
            got = cv.find(n.func.attr)
            if got is None or got[1] != "method" or _inline(got[2]) or depth <= 0 or \
                    not _host_only(got[2], cv, depth - 1):
                return False
    return True


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


TILE = [None]  # the name of the tile class whose run comes next (before_run)


def before_run(ex, cls, walk) -> None:
    """Walk each driver manager's device set-up (setup_calls) once, before `cls.run`; `walk(fv, env)`
    walks a bound method.  Then the words it initialised are the first tile's (module docstring)."""
    import kernel_env
    import raw_phase
    import tile_cells
    import tile_class
    TILE[0] = cls.name
    for _key, (inst, _where, _note) in list(tile_class.MANAGERS.items()):
        if inst is None:
            continue
        calls, where, note = setup_calls(inst.cls)
        if note is not None:
            ex.config.setdefault(f"{inst.cls.name} set-up before {cls.name}.run", {
                "value": "not walked", "origin": note})
            # the tile's uses of what the set-up makes stay unresolved (an attribute it never set); the
            # reason is listed once, so the model is never complete on a set-up the walk left out
            ex.block(f"the {inst.cls.name} set-up before {cls.name}.run", cls.node.lineno, None,
                     f"the driver's device set-up of its {inst.cls.name} is not walked: {note}")
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
