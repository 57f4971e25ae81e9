"""Kernels written as methods of a class: megakernel tile tasks (docs/extract.md, "Tile-task
classes").

The megakernel tile tasks (tirx_kernels/megakernel/tile_tasks/*.py, `class GemmTile(Tile)`) keep
their configuration in instance attributes that `__init__` sets from its arguments (`self.BLK_M =
BLK_M`, `self.TILE_K = ceildiv(...)`), build their buffers in methods (`self.A_smem =
smem_manager.alloc(...)`) and issue their ops in others (`run` -> `self._run(...)`).  The
megakernel driver (megakernel/utils/base.py at 8721e86: class_init_all 643-647, device_init_all
654-658, the tile's run 547, class_finalize_all 649-652) calls, for one tile class C and one
instance t:

    C.class_init(smem_manager)   (only when C.need_init)
    t.init(smem_manager)
    t.run(m_idx, n_idx, k_idx, ...)
    C.class_finalize()           (only when C.need_init)

and that is the order walked here.  Python semantics (Language Reference 3.3 "Data model", 4.2
"Naming and binding": a class body runs once in its own namespace, which method bodies do not
see; an attribute is looked up on the instance, then on the class and its bases in order; a
method read from an instance is bound to it, a classmethod to the class):

    value        meaning
    -----------  ----------------------------------------------------------------------------
    ClassValue   a class of the file (or of a module it imports), undecorated or `@T.meta_class`
                 (meta_decorated): class attributes (its body's
                 assignments, evaluated in order), methods, bases (ClassValue; a base the
                 extraction did not read makes a missing attribute unresolved, naming it)
    Instance     an instance: `attrs` set by `__init__` (run with kernel_env.run_straight) and by
                 the walked methods (`self.X = ...` stores here, so the caller sees it)

The instance is the file's own: `__init__`'s arguments are `--param NAME=VALUE` (NAME the
parameter, or `self.NAME`), else the parameter's default; one neither gives is unresolved
("the file does not construct C").  `--param self.X=V` also sets the attribute X after
`__init__`.  Python 3 standard library only.
"""
from __future__ import annotations

import ast
import copy

from corpus_notation import ConvertError, dotted, strip_builder

ENTRY = (("class_init", "cls"), ("init", "self"), ("run", "self"), ("class_finalize", "cls"))
DRIVER = "the megakernel driver (megakernel/utils/base.py), not this file"


def meta_decorated(st: ast.ClassDef) -> bool:
    """Is the class decorated exactly `@T.meta_class` (the builder namespace's)?  TVM's decorator
    (apache/tvm 5d4dc87 python/tvm/tirx/script/builder/ir.py:2898-2945) returns the class itself:
    it wraps `__init__` (a construction scope that refuses TVM resources the instance does not
    own), `__setattr__` (a scalar wrapper stored as its scalar) and `__init_subclass__` (the same
    for subclasses) and adds two marker attributes; every other class attribute and method is the
    body's, so the class reads as a plain one."""
    if len(st.decorator_list) != 1:
        return False
    name = dotted(st.decorator_list[0]) or ""
    return name != "meta_class" and strip_builder(name) == "meta_class"


class ClassValue:
    def __init__(self, node: ast.ClassDef, env: dict, bases: list):
        self.node, self.env, self.name, self.bases = node, env, node.name, bases
        self.methods = {st.name: st for st in node.body if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self._attrs: dict | None = None

    @property
    def attrs(self) -> dict:
        """The class body run once in the class namespace (module names visible), every statement
        (for / if / try ... with kernel_env.run_straight's rules: what it does not run is
        unresolved, naming the line).  `--param NAME=V` for a name the body binds wins over the
        body's own bindings, as for a module constant (recorded in CLASS_OVERRIDES)."""
        if self._attrs is None:
            import kernel_env
            self._attrs = {}
            ns = dict(self.env)
            overrides = kernel_env.SETTINGS.get("overrides", {})
            failed = None
            for st in self.node.body:
                if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    continue
                names = [n for n, _ in kernel_env.assigned_in([st]) if "." not in n]
                if failed is not None:
                    for n in names:
                        ns[n] = kernel_env.Unresolved(n, st.lineno, failed)
                else:
                    try:
                        kernel_env.run_straight([st], ns, kernel_env.Evaluator(ns))
                    except kernel_env.CodeRaises as e:  # the class statement raises: nothing after it is bound
                        failed = f"class body of {self.name}: {e}"
                        for n in names:
                            ns[n] = kernel_env.Unresolved(n, st.lineno, failed)
                    except Exception as e:  # noqa: BLE001 - the class body fails here: its names are unknown
                        for n in names:
                            ns[n] = kernel_env.Unresolved(n, st.lineno, f"class body of {self.name} line "
                                                          f"{st.lineno}: {e}")
                for n in names:
                    if n in overrides:
                        ns[n] = overrides[n]
                        _applied(n, f"{self.name} (class attribute, line {st.lineno})")
                    if n in ns:
                        self._attrs[n] = ns[n]
        return self._attrs

    def mro(self):
        out = [self]
        for b in self.bases:
            if isinstance(b, ClassValue):
                out += [c for c in b.mro() if c not in out]
        return out

    def unread_bases(self) -> list:
        """Each base along the MRO that is not a ClassValue, with why (a decorated class other than
        `@T.meta_class` is not evaluated: the decorator's effect is not modelled)."""
        out = []
        for c in self.mro():
            for b, v in zip(c.node.bases, c.bases):
                if not isinstance(v, ClassValue):
                    why = getattr(v, "reason", None) or "not read"
                    deco = getattr(v, "decorated", "")
                    out.append(f"{ast.unparse(b)}: {deco}{why}")
        return out

    def find(self, name: str):
        """(owner ClassValue, 'attr' | 'method', value) for `name` along the MRO, else None."""
        for c in self.mro():
            if name in c.methods:
                return c, "method", c.methods[name]
            if name in c.attrs:
                return c, "attr", c.attrs[name]
        return None

    def missing(self, name: str, what: str):
        import kernel_env
        unread = self.unread_bases()
        stores = unfollowed_stores(self)
        if stores:
            why = (f"{what}: no `self.{name} = ...` (or class attribute) that the extraction follows binds "
                   f"{name!r}; the file sets attributes in ways it does not follow, which may bind it: "
                   + "; ".join(stores))
        else:
            why = f"{what} has no attribute {name!r} in this file"
        if unread:
            why += f" (a base is not read, and may define it: {'; '.join(unread)})"
        return kernel_env.UnresolvedError(kernel_env.Unresolved(f"{what}.{name}", self.node.lineno, why))


def unfollowed_stores(cls: "ClassValue") -> list:
    """Attribute stores in the methods along the MRO that the extraction does not follow:
    `setattr(...)` calls and stores through a chain (`self.a.b = v`, `self.lst[0].x = v`)."""
    out = []
    for c in cls.mro():
        for fn in c.methods.values():
            for n in ast.walk(fn):
                if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "setattr":
                    out.append(f"{ast.unparse(n)[:60]} at line {n.lineno}")
                for t in (n.targets if isinstance(n, ast.Assign) else
                          [n.target] if isinstance(n, (ast.AnnAssign, ast.AugAssign)) else []):
                    if isinstance(t, ast.Attribute) and not isinstance(t.value, ast.Name):
                        out.append(f"{ast.unparse(t)[:60]} = ... at line {n.lineno}")
    return out[:4]


class Instance:
    def __init__(self, cls: ClassValue):
        self.cls, self.attrs = cls, {}
        self.never = None  # (line, why) when __init__ is not known to return: nothing after it runs


DRIVER_FOUND = [None]  # the driver's construction taken for __init__ (tile_driver.Driver), for run's arguments (run_args.py)
DRIVER_NOTE = [None]  # why no driver's construction was taken (tile_driver.find), for the reasons below
CLASS_OVERRIDES: dict = {}  # --param NAME applied where a class body / __init__ binds NAME -> where


def _applied(name: str, where: str) -> None:
    got = CLASS_OVERRIDES.setdefault(name, [])
    if where not in got:
        got.append(where)


CONSTRUCTING = [0]  # > 0 while a tile task's own __init__ runs (construct): class_build.py builds nothing then
BUILDING: list = []  # while __init__ runs: (class, line) of each construction of a file's class it reaches


def _decorators(fn) -> set:
    return {(dotted(d.func if isinstance(d, ast.Call) else d) or "").split(".")[-1] for d in fn.decorator_list}


_STRIPPED: dict = {}


def bound(fn: ast.FunctionDef, owner: ClassValue, receiver):
    """The method `fn` of `owner` bound to `receiver` (an Instance, or the class for a classmethod):
    a FuncValue without its first parameter, whose closure binds that parameter's name."""
    from kernel_env import FILE_KEY, FuncValue
    params = fn.args.posonlyargs + fn.args.args
    if not params:
        raise ConvertError(f"method {fn.name} of {owner.name} takes no receiver parameter")
    node = _STRIPPED.get(id(fn))
    if node is None:
        node = copy.copy(fn)
        node.args = copy.copy(fn.args)
        if fn.args.posonlyargs:
            node.args.posonlyargs = fn.args.posonlyargs[1:]
        else:
            node.args.args = fn.args.args[1:]
        _STRIPPED[id(fn)] = node
    closure = dict(owner.env)
    closure[params[0].arg] = receiver
    return FuncValue(node, closure, owner.env.get(FILE_KEY))


def attr_of(base, name: str):
    """`base.name` for an Instance or a ClassValue (Python's attribute lookup), or raises."""
    if isinstance(base, Instance) and name == "__class__":
        return base.cls
    if isinstance(base, ClassValue) and name == "__name__":
        return base.name
    if isinstance(base, Instance):
        if name in base.attrs:
            return _known(base.attrs[name])
        got = base.cls.find(name)
        if got is None:
            raise base.cls.missing(name, f"the {base.cls.name} instance")
        owner, kind, v = got
        if kind == "attr":
            return _known(v)
        decos = _decorators(v)
        if "staticmethod" in decos:
            return bound_static(v, owner)
        return bound(v, owner, owner if "classmethod" in decos else base)
    got = base.find(name)
    if got is None:
        raise base.missing(name, base.name)
    owner, kind, v = got
    if kind == "attr":
        return _known(v)
    if "classmethod" in _decorators(v):
        return bound(v, owner, base)
    raise ConvertError(f"{base.name}.{name}: a method read from the class (not bound to an instance)")


def bound_static(fn, owner):
    from kernel_env import FILE_KEY, FuncValue
    return FuncValue(fn, dict(owner.env), owner.env.get(FILE_KEY))


def _known(v):
    import kernel_env
    if isinstance(v, kernel_env.Unresolved):
        raise kernel_env.UnresolvedError(v)
    return v


def store(target: ast.Attribute, value, env: dict) -> bool:
    """`recv.X = value` where recv names an Instance or a ClassValue: stored on the object (so
    every method sees it, as in Python).  True when stored."""
    if isinstance(target.value, ast.Name) and isinstance(env.get(target.value.id), (Instance, ClassValue)):
        from kernel_env import LayoutExpr
        if isinstance(value, LayoutExpr) and not hasattr(value, "env"):
            value.env = env  # read where it was written: the names it uses are that method's
        env[target.value.id].attrs[target.attr] = value
        if isinstance(value, Instance):
            import class_build  # the attribute that holds a constructed object names its buffers
            class_build.HOLDERS.setdefault(id(value), (value, target.attr))
        return True
    return False


def settle(st, env: dict) -> None:
    """After a walked assignment: a `recv.X` target that a special form (a register array, a
    thread index, a declared scalar, an in-place update) bound in `env` under its dotted name
    is moved onto the Instance / ClassValue, where every method reads it."""
    targets = st.targets if isinstance(st, ast.Assign) else [st.target]
    for t in targets:
        if isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and \
                isinstance(env.get(t.value.id), (Instance, ClassValue)):
            key = f"{t.value.id}.{t.attr}"
            if key in env:
                env[t.value.id].attrs[t.attr] = env.pop(key)


NOT_MEMBER = object()


def member(node, env: dict):
    """The value of `recv.X` for an Instance / ClassValue receiver name (an Unresolved when the
    lookup fails), else NOT_MEMBER."""
    import kernel_env
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and
            isinstance(env.get(node.value.id), (Instance, ClassValue))):
        return NOT_MEMBER
    try:
        return attr_of(env[node.value.id], node.attr)
    except kernel_env.UnresolvedError as e:
        return e.item
    except ConvertError as e:
        return kernel_env.Unresolved(ast.unparse(node), getattr(node, "lineno", None), str(e))


def member_name(name: str, env: dict) -> str:
    """The buffer name of an allocation bound to `self.X` / `C.X`: X (the attribute's name)."""
    head, _, rest = name.partition(".")
    if rest and "." not in rest and isinstance(env.get(head), (Instance, ClassValue)):
        import class_build  # `self.mbar` of an object held as `GemmTile.tma2mma_bar`: tma2mma_bar.mbar
        held = class_build.HOLDERS.get(id(env[head]))
        return f"{held[1]}.{rest}" if held is not None and held[0] is env[head] else rest
    return name


# -- the tile task ------------------------------------------------------------------------------

def tile_classes(tree: ast.Module, env: dict) -> list:
    """The file's own classes that are tile tasks: a `run` along the MRO, a method or a class
    attribute (`run = Other.run`: a second tile task, whose `run` entry_methods reports as not
    followed)."""
    return [env[st.name] for st in tree.body if isinstance(st, ast.ClassDef) and
            isinstance(env.get(st.name), ClassValue) and env[st.name].find("run") is not None]


def construct(cls: ClassValue, overrides: dict, ex, is_layout_expr) -> Instance:
    """Run `__init__` (along the MRO; `super().__init__(...)` runs the base's) with the
    arguments --param gives, else the parameters' defaults; then --param self.X."""
    inst = Instance(cls)
    for c in cls.mro():
        c.attrs  # noqa: B018 - every class body runs (and takes its --param) before __init__, as in Python
    got = cls.find("__init__")
    if got is not None and got[1] == "method":
        BUILDING.clear()
        CONSTRUCTING[0] += 1
        try:
            run_init(got[0], got[2], inst, overrides, ex, None, is_layout_expr, _driver(cls, got[2], overrides, ex))
        finally:
            CONSTRUCTING[0] -= 1
            built = list(BUILDING)
            BUILDING.clear()
        if inst.never is None and built:
            name, line = built[0]
            inst.never = (line, f"{cls.name}.__init__ constructs {name} (line {line}), which the extraction does "
                          f"not evaluate: whether that construction returns is not known (a constructor that "
                          f"builds its own class recurses without end)")
    for k, v in overrides.items():
        if k.startswith("self.") and "." not in k[5:]:
            inst.attrs[k[5:]] = v
            ex.config[k] = {"value": v, "origin": "--param (an attribute of the tile-task instance)"}
    return inst


def _driver(cls: ClassValue, fn: ast.FunctionDef, overrides: dict, ex):
    """The one construction of `cls` in the kernel's repository (tile_driver.py), when some
    parameter of its `__init__` has neither --param nor a default; else None."""
    import kernel_env
    import tile_driver
    params = (fn.args.posonlyargs + fn.args.args)[1:]
    defaults = [None] * (len(params) - len(fn.args.defaults)) + list(fn.args.defaults)
    need = [p.arg for p, d in zip(params, defaults) if d is None]
    need += [p.arg for p, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is None]
    DRIVER_NOTE[0] = None
    DRIVER_FOUND[0] = None
    if not need:
        return None
    given = [p.arg for p in params + fn.args.kwonlyargs if p.arg in overrides or f"self.{p.arg}" in overrides]
    if given:  # one configuration, taken whole or not at all: the driver's values are not mixed with --param's
        DRIVER_NOTE[0] = (f"--param sets {', '.join(given)}, so the driver's construction (a whole configuration) "
                          "is not used")
        return None
    drv, note = tile_driver.find(cls.name, kernel_env.SETTINGS.get("source_path"))
    DRIVER_NOTE[0] = note
    DRIVER_FOUND[0] = drv
    return drv


def _from_driver(v, name: str, owner: ClassValue, driver, ex) -> None:
    """Record an __init__ argument the driver passes (extraction.config), or say why it is not known."""
    import kernel_env
    if isinstance(v, kernel_env.Unresolved):
        v.reason = f"{v.reason} (argument {name} of {owner.name}.__init__ as the driver {driver.where} passes it)"
        return
    if name not in ex.config:
        ex.config[name] = {"value": v, "origin": f"the driver's construction {driver.where} "
                           f"({ast.unparse(driver.call)[:70]}{'...' if len(ast.unparse(driver.call)) > 70 else ''})"
                           + (f", in {driver.owner}" if driver.owner else "")}


def run_init(owner: ClassValue, fn: ast.FunctionDef, inst: Instance, overrides: dict, ex, call_args,
             is_layout_expr, driver=None):
    import kernel_env
    env = dict(owner.env)
    params = fn.args.posonlyargs + fn.args.args
    env[params[0].arg] = inst
    rest = params[1:]
    defaults = [None] * (len(params) - len(fn.args.defaults)) + list(fn.args.defaults)
    defaults = defaults[1:]
    ev = kernel_env.Evaluator(env)
    for i, p in enumerate(rest):
        if call_args is not None:
            args, kwargs = call_args
            if i < len(args):
                env[p.arg] = args[i]
                continue
            if p.arg in kwargs:
                env[p.arg] = kwargs[p.arg]
                continue
        if p.arg in overrides:
            env[p.arg] = overrides[p.arg]
            ex.config[p.arg] = {"value": overrides[p.arg], "origin": f"--param ({owner.name}.__init__ argument)"}
        elif f"self.{p.arg}" in overrides:
            env[p.arg] = overrides[f"self.{p.arg}"]
        elif driver is not None and (i < len(driver.args) or p.arg in driver.kwargs):
            env[p.arg] = driver.args[i] if i < len(driver.args) else driver.kwargs[p.arg]
            _from_driver(env[p.arg], p.arg, owner, driver, ex)
        elif defaults[i] is not None:
            env[p.arg] = kernel_env.eval_or_unresolved(ev, defaults[i], p.arg, fn.lineno)
            if not isinstance(env[p.arg], kernel_env.Unresolved) and p.arg not in ex.config:
                ex.config[p.arg] = {"value": env[p.arg], "origin": f"default of {owner.name}.__init__'s parameter"}
        else:
            env[p.arg] = kernel_env.Unresolved(
                p.arg, fn.lineno, f"argument {p.arg} of {owner.name}.__init__: the file does not construct "
                f"{owner.name} (its callers are elsewhere"
                + (f"; {DRIVER_NOTE[0]}" if DRIVER_NOTE[0] and call_args is None else "")
                + f"); --param {p.arg}=V fixes it")
    for p, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults):
        if p.arg not in overrides and driver is not None and p.arg in driver.kwargs:
            env[p.arg] = driver.kwargs[p.arg]
            _from_driver(env[p.arg], p.arg, owner, driver, ex)
            continue
        env[p.arg] = overrides.get(p.arg, kernel_env.eval_or_unresolved(ev, d, p.arg, fn.lineno) if d is not None
                                   else kernel_env.Unresolved(p.arg, fn.lineno, f"keyword argument {p.arg} of "
                                                              f"{owner.name}.__init__ not given"))
    self_name = params[0].arg
    for st in fn.body:
        if inst.never is not None:
            return
        again = _reinit_call(st, self_name, env)
        if again is not None:
            inst.never = (st.lineno, f"{owner.name}.__init__ line {again.lineno} calls {ast.unparse(again.func)} "
                          "(a constructor of the file's class again): not followed, so whether the constructor returns is not known "
                          "(called unconditionally it recurses without end)")
            return
        sup = _super_init(st)
        if sup is not None:
            base = next((b for b in owner.bases if isinstance(b, ClassValue) and b.find("__init__")), None)
            if base is not None:
                args = [kernel_env.eval_or_unresolved(ev, a, "argument", st.lineno) for a in sup.args]
                kwargs = {k.arg: kernel_env.eval_or_unresolved(ev, k.value, k.arg, st.lineno) for k in sup.keywords}
                b_owner, _, b_fn = base.find("__init__")
                run_init(b_owner, b_fn, inst, overrides, ex, (args, kwargs), is_layout_expr)
            continue  # an unread base's __init__: what it sets stays unknown (ClassValue.missing says so)
        if isinstance(st, ast.Assign) and len(st.targets) == 1 and isinstance(st.targets[0], ast.Attribute) and \
                isinstance(st.targets[0].value, ast.Name) and st.targets[0].value.id == params[0].arg:
            if is_layout_expr(st.value):  # `self.A_layout = mma_shared_layout(a_type, ...)`: in __init__'s names
                lay = kernel_env.LayoutExpr(st.value, st.lineno)
                lay.env = env
                inst.attrs[st.targets[0].attr] = lay
                continue
        try:
            if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call) and \
                    isinstance(member(st.value.func, env), kernel_env.FuncValue):
                ev.value(st.value)  # `self.setup()` as a statement: run, its `self.X = ...` stores kept
            else:
                kernel_env.run_straight([st], env, ev)
        except kernel_env._Return:
            _onto(inst, env, self_name)
            break
        except kernel_env.CodeRaises as e:  # the existing code-raises rule: the constructor does not return
            inst.never = (st.lineno, f"{owner.name}.__init__: {e}; the instance is never built")
            return
        except (ConvertError, kernel_env.UnresolvedError) as e:
            for n, _ in kernel_env.assigned_in([st]):
                env[n] = kernel_env.Unresolved(n, st.lineno, f"{owner.name}.__init__ line {st.lineno}: {e}")
        for n, _ in kernel_env.assigned_in([st]):
            if n in overrides and "." not in n:  # --param NAME for a local of __init__: wins where it is bound
                env[n] = overrides[n]
                _applied(n, f"{owner.name}.__init__ (local, line {st.lineno})")
        _onto(inst, env, self_name)


def _onto(inst: Instance, env: dict, self_name: str) -> None:
    """`self.X` bound in `env` under its dotted name (a special form, or made unresolved by a
    statement not run): moved onto the instance, where every method reads it."""
    for key in [k for k in env if k.startswith(self_name + ".") and "." not in k[len(self_name) + 1:]]:
        inst.attrs[key[len(self_name) + 1:]] = env.pop(key)


def _reinit_call(st, self_name: str, env: dict):
    """A call in `st` that runs a constructor of the file again: `self.__init__(...)` /
    `C.__init__(...)` (other than the statement `super().__init__(...)`) or `C(...)` for a plain
    class C of the file, else None."""
    sup = _super_init(st)
    for n in ast.walk(st):
        if n is sup or not isinstance(n, ast.Call):
            continue
        if isinstance(n.func, ast.Attribute) and n.func.attr == "__init__" or \
                isinstance(n.func, ast.Name) and isinstance(env.get(n.func.id), ClassValue):
            return n
    return None


def _super_init(st):
    """The call of `super().__init__(...)` in an expression statement, else None."""
    if isinstance(st, ast.Expr) and isinstance(st.value, ast.Call):
        f = st.value.func
        if isinstance(f, ast.Attribute) and f.attr == "__init__" and isinstance(f.value, ast.Call) and \
                isinstance(f.value.func, ast.Name) and f.value.func.id == "super":
            return st.value
    return None


def entry_methods(cls: ClassValue, inst: Instance, ex) -> list:
    """The (name, FuncValue) of the driver's calls in its order (module docstring); a class
    method under `need_init` is walked only when the class's need_init is True."""
    import kernel_env
    out = []
    for name, recv in ENTRY:
        got = cls.find(name)
        if got is None:
            continue
        owner, kind, fn = got
        if kind != "method":  # `run = One.run`: a class attribute, not a def of the class
            why = f" ({fn.reason})" if isinstance(fn, kernel_env.Unresolved) else ""
            ex.block(f"helper {cls.name}.{name}", owner.node.lineno, None, f"{owner.name}.{name} is bound by an "
                     f"assignment in the class body, not a def: the method it names is not followed{why}")
            continue
        if recv == "cls":
            try:
                need = attr_of(cls, "need_init")
            except (ConvertError, kernel_env.UnresolvedError) as e:
                ex.block(f"helper {cls.name}.{name}", fn.lineno, None,
                         f"the driver calls it only when {cls.name}.need_init; not known here ({e})")
                continue
            ex.config[f"{cls.name}.need_init"] = {"value": need, "origin": "class attribute: the driver calls "
                                                  "class_init / class_finalize only when it is True"}
            if need is not True:
                continue
            out.append((name, bound(fn, owner, cls)))
        else:
            out.append((name, bound(fn, owner, inst)))
    return out


def bind_entry(fv, cls: ClassValue, name: str, overrides: dict, ex) -> dict:
    """The environment of an entry method: its parameters from --param, else their defaults,
    else unresolved (the driver passes them)."""
    import kernel_env
    env = dict(fv.closure)
    fn = fv.node
    params = fn.args.posonlyargs + fn.args.args
    defaults = [None] * (len(params) - len(fn.args.defaults)) + list(fn.args.defaults)
    ev = kernel_env.Evaluator(env)
    passed, why = {}, None
    if name == "run":  # the driver's call of run, followed hop by hop through its source (run_args.py)
        import run_args
        passed, why = run_args.entry_args(cls, name, fv, overrides, ex)
    for p, d in list(zip(params, defaults)) + list(zip(fn.args.kwonlyargs, fn.args.kw_defaults)):
        if p.arg in overrides:
            env[p.arg] = overrides[p.arg]
        elif p.arg in passed and not _buffer_annotated(p):
            import run_args
            env[p.arg] = run_args.bind(p.arg, passed[p.arg], fv, cls, name, ex)
        elif d is not None:
            env[p.arg] = kernel_env.eval_or_unresolved(ev, d, p.arg, fn.lineno)
            if not isinstance(env[p.arg], kernel_env.Unresolved) and p.arg not in ex.config:
                ex.config[p.arg] = {"value": env[p.arg], "origin": f"default of {cls.name}.{name}'s parameter"}
        else:
            env[p.arg] = _driver_object(p, fv, cls, name, ex) or kernel_env.Unresolved(
                p.arg, fn.lineno, f"parameter {p.arg} of {cls.name}.{name}, passed by {DRIVER}"
                + (f"; {MANAGER_NOTES[p.arg]}" if MANAGER_NOTES.get(p.arg) else "")
                + (f"; its call is not followed: {why}" if why and name == "run" and not _buffer_annotated(p) else ""))
    return env


def _buffer_annotated(p: ast.arg) -> bool:
    """`A: T.Buffer(...)`: the parameter's buffer is its annotation's (extract.bind_buffer_params)."""
    a = p.annotation
    return isinstance(a, ast.Call) and getattr(a.func, "attr", getattr(a.func, "id", None)) == "Buffer"


MANAGERS: dict = {}  # id of the annotated class -> (Instance | None, where, note): one object for every entry
MANAGER_NOTES: dict = {}  # entry parameter name -> why no driver object was found for it


def _driver_object(p: ast.arg, fv, cls: ClassValue, entry: str, ex):
    """An entry parameter annotated with a class of the kernel's repository (`smem_manager:
    SmemManager`): the driver's one instance of it (tile_driver.manager), the same for every entry
    method; before the entry, the driver's own calls on it that precede the entry call
    (tile_driver.pre_calls: `smem_manager.set_tile(tile)`) run, after its pools' offsets are
    forgotten (the driver's other tiles use it first: mgr_pool.forget_all).  None when not so."""
    import kernel_env
    import mgr_pool
    import tile_driver
    ann = p.annotation
    cv = kernel_env.Evaluator(dict(fv.closure))._lazy(ann) if isinstance(ann, (ast.Name, ast.Attribute)) else None
    if not isinstance(cv, ClassValue):
        return None
    if id(cv) not in MANAGERS:
        MANAGERS[id(cv)] = tile_driver.manager(cv)
    inst, where, note = MANAGERS[id(cv)]
    if inst is None:
        MANAGER_NOTES[p.arg] = note
        return None
    ex.config.setdefault(p.arg, {"value": f"{cv.name} instance", "origin": f"the driver's construction {where}"})
    mgr_pool.forget_all(inst, f"the driver runs every tile's init and class_init with this {cv.name} before "
                        f"{cls.name}.{entry}; what the others allocate is not modelled")
    pre, where = tile_driver.pre_calls(entry, cv.name)
    ev = kernel_env.Evaluator(dict(fv.closure))
    for m in pre:
        got = inst.cls.find(m)
        if got is None or got[1] != "method":
            return kernel_env.Unresolved(p.arg, fv.node.lineno, f"the driver calls {cv.name}.{m} before "
                                         f"{entry} ({where}), a method this file does not read")
        receiver = cls if entry.startswith("class_") else _self_of(fv)
        try:
            ev.run_helper(bound(got[2], got[0], inst), [receiver], {})
        except (ConvertError, kernel_env.UnresolvedError, kernel_env.CodeRaises, ArithmeticError, TypeError,
                ValueError, KeyError, IndexError) as e:
            return kernel_env.Unresolved(p.arg, fv.node.lineno, f"the driver's {cv.name}.{m}(...) before {entry} "
                                         f"({where}) is not evaluated: {e}")
        ex.config.setdefault(f"{p.arg} before {cls.name}.{entry}", {
            "value": f"{cv.name}.{m}({'the class' if entry.startswith('class_') else 'the tile'})",
            "origin": f"the driver's call before {entry} at {where}"})
    return inst


def _self_of(fv):
    """The receiver a bound method's closure holds (tile_class.bound binds its first parameter)."""
    for v in fv.closure.values():
        if isinstance(v, Instance):
            return v
    return None
