"""A tile task's configuration from the one driver of its repository that constructs it
(docs/extract.md, "The tile's constructor arguments from its one driver").

A megakernel tile task (`class GemmTile(Tile)`, tile_class.py) is not constructed by its own file:
its `__init__` arguments without defaults come from the megakernel wrapper that builds it
(spectrometerHBH 8721e86 megakernel/moe.py:98-107, `GemmTile(self.NUM_EXPERTS, ...)` inside
`MegaKernelMOE._set_tiles`).  Here that call is found and its arguments are evaluated with the
extraction's own Python evaluator, as Python would evaluate them there:

  * **the driver**: the Python files of the kernel's top-level package (under the directory that
    holds it: a checkout, or compare_models.py's scratch tree) other than the kernel itself that
    import the class by name from the kernel's module, or from its package when the package's
    `__init__.py` re-exports it from that module (`from .gemm import GemmTile`), and call it:
    `C(...)`.  Exactly one such call in the repository is the driver; none, or more than one
    (several configurations: a choice), and nothing is taken;
  * **the call's environment**: the driver module's names (kernel_env.package_module); when the
    call is inside a method of a class D of that module, `self` is D's instance built by D's
    `__init__` (tile_class's constructor semantics) with the arguments of the one call `D(...)` of
    the driver module (none or several: `self` has D's class attributes only); the enclosing
    function's parameters are unresolved ("passed by its caller");
  * each argument is evaluated there; one that is not fixed stays unresolved, naming the driver.

Python 3 standard library only.
"""
from __future__ import annotations

import ast
import os

MAX_FILES = 400  # Python files of the package read when looking for the driver


class Driver:
    """The construction `C(...)` found: where, and its evaluated arguments."""

    def __init__(self, rel: str, call: ast.Call, args: list, kwargs: dict, owner: str | None):
        self.rel, self.call, self.args, self.kwargs, self.owner = rel, call, args, kwargs, owner
        self.instance = None  # the driver class's instance the call's `self` is (run_args.py follows it)

    @property
    def where(self) -> str:
        return f"{self.rel}:{self.call.lineno}"


def package_path(file: str) -> str | None:
    """The file's path in its repository when --source-path is not given: the directories above
    it that hold an `__init__.py` are its package (a checkout); None for a file outside one."""
    d, parts = os.path.dirname(os.path.abspath(file)), [os.path.basename(file)]
    while os.path.isfile(os.path.join(d, "__init__.py")):
        parts.insert(0, os.path.basename(d))
        up = os.path.dirname(d)
        if up == d:
            break
        d = up
    return "/".join(parts) if len(parts) > 1 else None


def _module_of(source_path: str) -> str | None:
    if not source_path or not source_path.endswith(".py"):
        return None
    parts = source_path[:-3].split("/")
    return ".".join(parts) if all(p.isidentifier() for p in parts) else None


def _root(top: str) -> str | None:
    """The directory holding the package `top`, at most kernel_env.MAX_PACKAGE_UP levels above the
    kernel file's directory."""
    import kernel_env
    d = kernel_env.SIBLINGS.get("dir")
    if d is None:
        return None
    base = os.path.abspath(d)
    for _ in range(kernel_env.MAX_PACKAGE_UP + 1):
        if os.path.isdir(os.path.join(base, top)):
            return base
        up = os.path.dirname(base)
        if up == base:
            return None
        base = up
    return None


def _reexports(root: str, package: str, module: str, name: str) -> bool:
    """Does `package`'s __init__.py import `name` from its submodule `module` (the last part)?"""
    path = os.path.join(root, *package.split("."), "__init__.py")
    try:
        tree = ast.parse(open(path, encoding="utf-8").read())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
        return False
    for st in tree.body:
        if isinstance(st, ast.ImportFrom) and st.level == 1 and st.module == module and \
                any(a.name == name and (a.asname or a.name) == name for a in st.names):
            return True
    return False


def _bound_name(tree: ast.Module, kmod: str, name: str, root: str) -> str | None:
    """The name the file binds the kernel's class `name` to, when it imports it (module level)."""
    package, _, last = kmod.rpartition(".")
    for st in tree.body:
        if isinstance(st, ast.ImportFrom) and st.level == 0 and st.module in (kmod, package):
            for a in st.names:
                if a.name == name and (st.module == kmod or _reexports(root, package, last, name)):
                    return a.asname or name
    return None


def _scopes(tree: ast.Module):
    """(call node, enclosing function, enclosing class) for every call in the module."""
    def walk(node, fn, cls):
        for ch in ast.iter_child_nodes(node):
            if isinstance(ch, ast.ClassDef):
                yield from walk(ch, fn, ch if fn is None else cls)
            elif isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef)):
                yield from walk(ch, ch if fn is None else fn, cls)
            else:
                if isinstance(ch, ast.Call):
                    yield ch, fn, cls
                yield from walk(ch, fn, cls)
    yield from walk(tree, None, None)


def find(cls_name: str, source_path: str | None):
    """(Driver | None, note): the one call constructing `cls_name` in the kernel's repository."""
    kmod = _module_of(source_path or "")
    if kmod is None:
        return None, "the kernel's path in its repository is not known (--source-path), so its drivers are not looked for"
    top = kmod.split(".")[0]
    root = _root(top)
    if root is None:
        return None, f"the package {top} is not next to the kernel file: its drivers are not read"
    found = []
    for rel, tree in _package_files(root, top):
        if rel == source_path:
            continue
        bound = _bound_name(tree, kmod, cls_name, root)
        if bound is None:
            continue
        for call, fn, cl in _scopes(tree):
            if isinstance(call.func, ast.Name) and call.func.id == bound:
                found.append((rel, tree, call, fn, cl))
    if not found:
        return None, f"no file of the package {top} constructs {cls_name}"
    if len(found) > 1:
        return None, (f"{len(found)} constructions of {cls_name} in the package ("
                      + ", ".join(f"{r}:{c.lineno}" for r, _, c, _, _ in found[:4])
                      + "): which configuration to model is a choice, not made")
    rel, tree, call, fn, cl = found[0]
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None, (f"{rel}:{call.lineno} constructs {cls_name} with *args / **kwargs: which parameter gets "
                      "what is not followed")
    return _evaluate(rel, tree, call, fn, cl), None


def _params_unresolved(fn, env: dict, owner: str, skip_first: bool, rel: str) -> None:
    import kernel_env
    a = fn.args
    params = a.posonlyargs + a.args + a.kwonlyargs + [p for p in (a.vararg, a.kwarg) if p is not None]
    for p in params[1:] if skip_first else params:
        env[p.arg] = kernel_env.Unresolved(p.arg, fn.lineno, f"parameter {p.arg} of {owner} in the driver "
                                           f"{rel}:{fn.lineno}, passed by its caller")


def _instance(cl: ast.ClassDef, tree: ast.Module, menv: dict, rel: str):
    """The driver class's instance: built from the one call `D(...)` of the driver module, else
    an instance with the class attributes only."""
    import kernel_env
    import tile_class
    cv = menv.get(cl.name)
    if not isinstance(cv, tile_class.ClassValue):
        return None
    inst = tile_class.Instance(cv)
    calls = [(c, fn) for c, fn, _ in _scopes(tree) if isinstance(c.func, ast.Name) and c.func.id == cl.name]
    got = cv.find("__init__")
    if len(calls) != 1 or got is None or got[1] != "method":
        return inst
    call, fn = calls[0]
    env = dict(menv)
    if fn is not None:
        _params_unresolved(fn, env, fn.name, False, rel)
    ev = kernel_env.Evaluator(env)
    args = [kernel_env.eval_or_unresolved(ev, a, "argument", call.lineno) for a in call.args
            if not isinstance(a, ast.Starred)]
    kwargs = {k.arg: kernel_env.eval_or_unresolved(ev, k.value, k.arg, call.lineno) for k in call.keywords if k.arg}
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return inst  # *args / **kwargs: which parameter gets what is not followed

    class _Sink:  # the driver class's own configuration is not the model's
        config: dict = {}
    for c in cv.mro():
        c.attrs  # noqa: B018 - the class bodies run before __init__, as in Python
    tile_class.run_init(got[0], got[2], inst, {}, _Sink(), (args, kwargs), lambda node: False)
    return inst if inst.never is None else tile_class.Instance(cv)


def _evaluate(rel, tree, call, fn, cl) -> Driver:
    import kernel_env
    dotted_name = rel[:-3].replace("/", ".")
    if dotted_name.endswith(".__init__"):
        dotted_name = dotted_name[: -len(".__init__")]
    mv = kernel_env.package_module(dotted_name)
    menv = dict(mv.env) if mv is not None else {}
    env = dict(menv)
    owner = None
    if fn is not None:
        owner = f"{cl.name}.{fn.name}" if cl is not None else fn.name
        is_method = cl is not None and fn in cl.body
        _params_unresolved(fn, env, owner, is_method, rel)
        if is_method and (fn.args.posonlyargs + fn.args.args):
            inst = _instance(cl, tree, menv, rel)
            self_name = (fn.args.posonlyargs + fn.args.args)[0].arg
            env[self_name] = inst if inst is not None else kernel_env.Unresolved(
                self_name, fn.lineno, f"the {cl.name} instance of the driver (a class the extraction does not read)")
    ev = kernel_env.Evaluator(env)
    args = [kernel_env.eval_or_unresolved(ev, a, "argument", call.lineno) for a in call.args]
    kwargs = {k.arg: kernel_env.eval_or_unresolved(ev, k.value, k.arg, call.lineno) for k in call.keywords}
    drv = Driver(rel, call, args, kwargs, owner)
    import tile_class
    if fn is not None and cl is not None and fn in cl.body and (fn.args.posonlyargs + fn.args.args):
        inst = env.get((fn.args.posonlyargs + fn.args.args)[0].arg)
        drv.instance = inst if isinstance(inst, tile_class.Instance) else None
    return drv


# -- a driver's object passed to the tile's methods (the shared-memory manager) ---------------------

def _package_files(root: str, top: str):
    n = 0
    for d, dirs, files in os.walk(os.path.join(root, top)):
        dirs.sort()
        for f in sorted(files):
            if not f.endswith(".py"):
                continue
            n += 1
            if n > MAX_FILES:
                return
            path = os.path.join(d, f)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            try:
                yield rel, ast.parse(open(path, encoding="utf-8").read(), filename=rel)
            except (OSError, SyntaxError, ValueError, UnicodeDecodeError):
                continue


def _binds_class(tree: ast.Module, rel: str, name: str, home: str) -> str | None:
    """The name `tree` (the file `rel`) binds the class `name` of the file `home` to, or None."""
    if rel == home:
        return name if any(isinstance(st, ast.ClassDef) and st.name == name for st in tree.body) else None
    mod = home[:-3].replace("/", ".")
    for st in tree.body:
        if isinstance(st, ast.ImportFrom) and st.level == 0 and st.module == mod:
            for a in st.names:
                if a.name == name:
                    return a.asname or name
    return None


def _sites(root, top, pred):
    return [(rel, tree, c, fn, cl) for rel, tree in _package_files(root, top)
            for c, fn, cl in _scopes(tree) if pred(rel, tree, c)]


def _method_env(rel, tree, fn, cl, root, top, depth: int):
    """The environment a call inside `fn` (of class `cl`, or a module function) is evaluated in:
    the module's names, `self` the driver class's instance, the parameters bound from the one
    call of `fn` in the package (depth 1 more), else unresolved."""
    import kernel_env
    dotted_name = rel[:-3].replace("/", ".")
    if dotted_name.endswith(".__init__"):
        dotted_name = dotted_name[: -len(".__init__")]
    mv = kernel_env.package_module(dotted_name)
    menv = dict(mv.env) if mv is not None else {}
    env = dict(menv)
    if fn is None:
        return env, []
    owner = f"{cl.name}.{fn.name}" if cl is not None else fn.name
    is_method = cl is not None and fn in cl.body
    _params_unresolved(fn, env, owner, is_method, rel)
    params = fn.args.posonlyargs + fn.args.args
    if is_method and params:
        inst = _instance(cl, tree, menv, rel)
        env[params[0].arg] = inst if inst is not None else kernel_env.Unresolved(
            params[0].arg, fn.lineno, f"the {cl.name} instance of the driver (a class the extraction does not read)")
    chain = []
    if depth <= 0:
        return env, chain
    callers = _sites(root, top, lambda r, t, c: isinstance(c.func, ast.Attribute) and c.func.attr == fn.name and
                     is_method or isinstance(c.func, ast.Name) and c.func.id == fn.name and not is_method)
    if len(callers) != 1 or any(isinstance(a, ast.Starred) for a in callers[0][2].args) or \
            any(k.arg is None for k in callers[0][2].keywords):
        return env, chain
    crel, ctree, ccall, cfn, ccl = callers[0]
    cenv, cchain = _method_env(crel, ctree, cfn, ccl, root, top, depth - 1)
    ev = kernel_env.Evaluator(cenv)
    rest = params[1:] if is_method else params
    for p, a in zip(rest, ccall.args):
        env[p.arg] = kernel_env.eval_or_unresolved(ev, a, p.arg, ccall.lineno)
    for k in ccall.keywords:
        if any(p.arg == k.arg for p in rest):
            env[k.arg] = kernel_env.eval_or_unresolved(ev, k.value, k.arg, ccall.lineno)
    where = f"{fn.name} called at {crel}:{ccall.lineno}" + (f" in {ccl.name}.{cfn.name}" if ccl is not None and cfn
                                                          else f" in {cfn.name}" if cfn is not None else "")
    return env, [where] + cchain


def manager_site(cv):
    """((rel, tree, call, fn, cl, root, top) | None, note): the package's one construction `C(...)`
    of the class `cv`, with the function and class enclosing it and the package's root and name."""
    import kernel_env
    kmod = _module_of(kernel_env.SETTINGS.get("source_path") or "")
    if kmod is None:
        return None, "the kernel's path in its repository is not known (--source-path)"
    top = kmod.split(".")[0]
    root = _root(top)
    home = cv.env.get(kernel_env.FILE_KEY)
    if root is None or not isinstance(home, str) or not home.startswith(top + "/"):
        return None, f"the class {cv.name} is not read from a file of the package {top}"
    sites = _sites(root, top, lambda r, t, c: isinstance(c.func, ast.Name) and
                   c.func.id == _binds_class(t, r, cv.name, home))
    if len(sites) != 1:
        return None, (f"{len(sites)} constructions of {cv.name} in the package" +
                      (" (" + ", ".join(f"{r}:{c.lineno}" for r, _, c, _, _ in sites[:4]) + ")" if sites else ""))
    return sites[0] + (root, top), None


def manager(cv):
    """(Instance | None, where, note): the driver's one construction of the class `cv` (the class
    an entry method's parameter is annotated with), evaluated: its arguments in the enclosing
    function's environment, that function's parameters from its one call in the package."""
    import kernel_env
    import tile_class
    site, note = manager_site(cv)
    if site is None:
        return None, None, note
    rel, tree, call, fn, cl, root, top = site
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None, None, f"{rel}:{call.lineno} constructs {cv.name} with *args / **kwargs"
    env, chain = _method_env(rel, tree, fn, cl, root, top, 1)
    ev = kernel_env.Evaluator(env)
    args = [ev._lazy(a) for a in call.args]
    kwargs = {k.arg: ev._lazy(k.value) for k in call.keywords}
    inst = tile_class.Instance(cv)
    for c in cv.mro():
        c.attrs  # noqa: B018
    got = cv.find("__init__")
    if got is not None and got[1] == "method":
        class _Sink:
            config: dict = {}
        tile_class.run_init(got[0], got[2], inst, {}, _Sink(), (args, kwargs), lambda node: False)
    if inst.never is not None:
        return None, None, f"{cv.name}.__init__ at {rel}:{call.lineno} does not return: {inst.never[1]}"
    return inst, f"{rel}:{call.lineno} ({ast.unparse(call)[:60]})" + (", " + ", ".join(chain) if chain else ""), None


def pre_calls(entry: str, manager_class: str):
    """The driver's statements right before its call of a tile's `entry` method with the manager
    (`smem_manager.set_tile(tile)` before `tile.init(smem_manager)`, base.py:658-659): the one such
    call site in the package, as [(method name, receiver of the entry: True when it is the
    tile/class itself)], with where; ([], None) when there is no single site."""
    import kernel_env
    kmod = _module_of(kernel_env.SETTINGS.get("source_path") or "")
    if kmod is None:
        return [], None
    top = kmod.split(".")[0]
    root = _root(top)
    if root is None:
        return [], None
    found = []
    for rel, tree in _package_files(root, top):
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            managed = {a.arg for a in fn.args.posonlyargs + fn.args.args + fn.args.kwonlyargs
                       if a.annotation is not None and
                       (ast.unparse(a.annotation).split(".")[-1] == manager_class)}
            if managed:
                found += _pre_sites(rel, fn, entry, managed)
    if len(found) != 1:
        return [], None
    rel, line, pre = found[0]
    return pre, f"{rel}:{line}"


def _pre_sites(rel, fn, entry: str, managed: set) -> list:
    """In `fn`, the calls `t.<entry>(m)` with m a parameter annotated with the manager class, and
    the calls `m.<meth>(t)` right before each in its block."""
    found = []
    for node in ast.walk(fn):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            for i, st in enumerate(block):
                c = st.value if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) else None
                if c is None or not (isinstance(c.func, ast.Attribute) and c.func.attr == entry and
                                     isinstance(c.func.value, ast.Name) and len(c.args) == 1 and
                                     isinstance(c.args[0], ast.Name)):
                    continue
                tile, mgr = c.func.value.id, c.args[0].id
                if mgr not in managed:
                    continue
                pre = []
                for prev in reversed(block[:i]):
                    pc = prev.value if isinstance(prev, ast.Expr) and isinstance(prev.value, ast.Call) else None
                    if pc is None or not (isinstance(pc.func, ast.Attribute) and
                                          isinstance(pc.func.value, ast.Name) and pc.func.value.id == mgr and
                                          len(pc.args) == 1 and isinstance(pc.args[0], ast.Name) and
                                          pc.args[0].id == tile and not pc.keywords):
                        break
                    pre.insert(0, pc.func.attr)
                found.append((rel, c.lineno, pre))
    return found
