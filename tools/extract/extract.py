#!/usr/bin/env python3
"""tirx-verify extract: a kernel model (format 2) from a TIRx kernel's Python source.

    python3 tools/extract/extract.py KERNEL.py [--param NAME=VALUE ...] [-o model.json]
    tirx-verify extract KERNEL.py ...           (the CLI runs this file; docs/extract.md)

Reads the file with Python's `ast` (nothing is imported or run; TVM is not needed), finds the
kernel functions (functions that allocate buffers or issue ops), binds their parameters
(--param, defaults, the file's call site of the kernel, its default configuration), walks
them in program order (kernel_walk.py) and writes the buffers and ops it can determine.
What the source does not determine is listed in the model's `extraction.unresolved` with
the name it depends on and where that name comes from, never guessed.

Exit codes: 0 every buffer and op resolved (or --allow-unresolved); 2 bad input (unreadable
file, Python syntax error at FILE:LINE:COL, bad --param, no kernel in the file); 4 an extractor
bug (extract.internal, the README's internal-error code); 3 the model
was written but something is unresolved (the list says what).
Python 3 standard library only.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from kernel_env import (ConvertError, Evaluator, FuncValue, Imported, Unresolved, _Return,  # noqa: E402
                        bind_imports, bind_targets, eval_or_unresolved, names_of, run_straight)
from kernel_walk import (Extraction, Walker, all_params, bind_buffer_params,  # noqa: E402
                         contains_interesting, is_layout_expr)
import kernel_env  # noqa: E402
import module_exec  # noqa: E402
import py_classes  # noqa: E402
from lazy_module import LazyModule  # noqa: E402
host_launch = LazyModule("host_launch")  # noqa: E402  (the kernel's launch in the file's host code)
import eval_limits  # noqa: E402
from kernel_env import FILE_KEY, LayoutExpr, class_value, enum_class, set_source_dir  # noqa: E402
import corpus_notation as cn  # noqa: E402
from corpus_notation import dotted  # noqa: E402

TOOL = "tirx-verify extract 0.2.0"
MAX_FILE_BYTES = 4 << 20
CONFIG_DICTS = ("_DEFAULT_CONFIG", "DEFAULT_CONFIG", "_DEFAULTS", "DEFAULTS", "_DEFAULT_CFG")
CONFIG_LISTS = ("CONFIGS", "BENCH_CONFIGS", "_CONFIGS")


class InputError(Exception):
    def __init__(self, check: str, message: str, line: int | None = None, col: int | None = None):
        super().__init__(message)
        self.check, self.line, self.col = check, line, col


def parse_param(text: str):
    if "=" not in text:
        raise InputError("cli.usage", f"--param {text!r}: expected NAME=VALUE")
    name, _, raw = text.partition("=")
    name, raw = name.strip(), raw.strip()
    if not all(part.isidentifier() for part in name.split(".")):
        raise InputError("cli.usage", f"--param {text!r}: {name!r} is not a Python name")
    if raw in ("True", "False"):
        return name, raw == "True"
    try:
        return name, int(raw, 0)
    except ValueError:
        pass
    if not raw:
        raise InputError("cli.usage", f"--param {text!r}: empty value")
    mode = cn.SWIZZLE_BY_NAME.get(raw.split(".")[-1]) if raw.split(".")[0] in ("SwizzleMode", "K", "T") else None
    if mode is not None:  # SwizzleMode.SWIZZLE_128B_ATOM, K.SW128B: a swizzle mode, not a string
        return name, cn.Swizzle(mode)
    return name, raw.strip("'\"")


MODULE_OVERRIDES: dict = {}  # --param names bound at module level -> the line of their assignment
MODULE_BINDERS: dict = {}  # module_binders() of the kernel file (explain_undefined)


def module_binders(tree: ast.Module) -> dict:
    """Where each module-level name is bound: name -> (line, how), the first binding. `how` is
    "assign" for a plain assignment, else the statement the binding sits in (the extraction runs
    only assignments, defs, imports and decidable ifs at module level)."""
    out: dict = {}
    for st in tree.body:
        if isinstance(st, (ast.Assign, ast.AnnAssign)):
            for t in (st.targets if isinstance(st, ast.Assign) else [st.target]):
                for n in names_of(t):
                    out.setdefault(n, (st.lineno, "assign"))
        elif isinstance(st, (ast.Try, ast.With, ast.For, ast.While, ast.AugAssign)) or \
                type(st).__name__ in ("TryStar", "Match"):
            kind = {"Try": "try statement", "TryStar": "try statement", "With": "with statement",
                    "For": "for loop", "While": "while loop", "AugAssign": "augmented assignment",
                    "Match": "match statement"}[type(st).__name__]
            for n in ast.walk(st):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    out.setdefault(n.id, (st.lineno, kind))
                elif isinstance(n, ast.ExceptHandler) and n.name:
                    out.setdefault(n.name, (st.lineno, kind))
        elif isinstance(st, ast.Import):
            for a in st.names:
                out.setdefault(a.asname or a.name.split(".")[0], (st.lineno, f"import of {a.name}"))
    return out


def explain_undefined(v: Unresolved, line: int, binders: dict) -> None:
    """A name "not defined in this file" that the file does bind, only not where the extraction
    looks: say where (a later line, a try / for / with body, an `import X` whose module is not
    read), instead of the misleading "not defined"."""
    r = v.root()
    if r.reason != "not defined in this file":
        return
    where = binders.get(r.name) or binders.get(r.name.split(".")[0])
    if where is None:
        return
    at, how = where
    if how == "assign" and at >= line:
        r.reason = f"assigned at line {at}, after its use at line {line} (module statements run in order)"
    elif how.startswith("import of"):
        r.reason = f"an {how} at line {at} (another module, not read)"
    elif how != "assign":
        r.reason = f"bound inside the {how} at line {at}, which the extraction does not run"
    r.line = r.line or at


def module_env(tree: ast.Module, overrides: dict, file: str | None = None) -> dict:
    env: dict = {FILE_KEY: file} if file else {}
    binders = module_binders(tree)
    MODULE_BINDERS.clear()
    MODULE_BINDERS.update(binders)
    for st in tree.body:
        ev = Evaluator(env)
        if isinstance(st, (ast.Assign, ast.AnnAssign)) and not all(
                isinstance(t, (ast.Name, ast.Tuple, ast.List)) for t in
                (st.targets if isinstance(st, ast.Assign) else [st.target])):
            module_exec.run_statement(st, env, ev)  # `CFG["bm"] = 32`: as Python runs it
        elif isinstance(st, (ast.Assign, ast.AnnAssign)):
            if st.value is None:
                continue
            targets = st.targets if isinstance(st, ast.Assign) else [st.target]
            names = [n for t in targets for n in names_of(t)]
            if is_layout_expr(st.value):
                v = LayoutExpr(st.value, st.lineno)
            else:
                v = eval_or_unresolved(ev, st.value, "/".join(names), st.lineno)
            if isinstance(v, Unresolved):
                explain_undefined(v, st.lineno, binders)
            bind_targets(targets, v, env, st.lineno)
            for n in names:  # --param NAME: the value from here on, so `B = A * 2` below uses it
                if n in overrides:
                    env[n] = overrides[n]
                    MODULE_OVERRIDES.setdefault(n, st.lineno)
        elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
            env[st.name] = FuncValue(st, env)
        elif isinstance(st, ast.ClassDef):
            env[st.name] = class_value(st, env, ev, "a class (not evaluated: only Enum and @dataclass classes are)")
        elif isinstance(st, (ast.Import, ast.ImportFrom)):
            bind_imports(st, env)
        else:  # if / for / while / with / try / match / calls / del ... (module_exec.py)
            module_exec.run_statement(st, env, ev)
        if not isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Import, ast.ImportFrom)):
            for n, _ in kernel_env.assigned_in([st]):  # --param NAME wins over the file's own rebinding
                if n in overrides:
                    env[n] = overrides[n]
                    MODULE_OVERRIDES.setdefault(n, st.lineno)
    # --param NAME sets a module-level NAME, except a builder namespace the file imports under that
    # name (`import tirx_kernels.kern as K` with `--param K=1024` for a function's parameter K)
    namespaces = {a.asname or a.name for st in tree.body if isinstance(st, (ast.Import, ast.ImportFrom))
                  for a in st.names if (a.asname or a.name) in cn.BUILDER_PREFIXES | {"K", "Kern"}}
    env.update({k: v for k, v in overrides.items() if k not in namespaces})
    return env


def calls_of(fn) -> set:
    return {n.func.id for n in ast.walk(fn) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def kernel_roots(tree, env, wanted: str | None) -> list:
    tops = [st for st in tree.body if isinstance(st, ast.FunctionDef)]
    if wanted:
        f = [t for t in tops if t.name == wanted]
        if not f:
            raise InputError("extract.kernel", f"no top-level function {wanted!r} in the file")
        return f
    interesting = [t for t in tops if contains_interesting(t) or _has_buffer_params(t)]
    strong = [t for t in interesting if _defines_kernel(t)]
    if strong:
        # Functions that only issue ops on operands passed to them (`_ldmatrix_x4(region, ...)`)
        # are helpers of the kernel, not kernels, whether or not this file calls them.
        interesting = strong
    called = set()
    for t in interesting:
        called |= calls_of(t) - {t.name}
    return [t for t in interesting if t.name not in called]


KERNEL_DECORATORS = {"kernel", "prim_func", "jit"}
POOL_MAKERS = {"SMEMPool", "TMEMPool", "smem_pool", "tmem_pool"}


def _defines_kernel(fn) -> bool:
    """A kernel (or a kernel builder): it, or a function nested in it, is decorated as a kernel
    (T.prim_func, T.jit, K.kernel), takes T.Buffer parameters, or allocates buffers."""
    import allocators
    for n in ast.walk(fn):
        if isinstance(n, ast.FunctionDef):
            for d in n.decorator_list:
                f = d.func if isinstance(d, ast.Call) else d
                if (dotted(f) or "").split(".")[-1] in KERNEL_DECORATORS:
                    return True
            if _has_buffer_params(n):
                return True
        elif isinstance(n, ast.Call):
            short = (dotted(n.func) or "").split(".")[-1]
            if short in POOL_MAKERS or (short in allocators.ALLOCATOR_NAMES and short != "view"):
                return True
    return False


def _has_buffer_params(fn) -> bool:
    for p in all_params(fn):
        a = p.annotation
        if isinstance(a, ast.Call) and getattr(a.func, "attr", getattr(a.func, "id", None)) == "Buffer":
            return True
    return False


class Config:
    """The file's default configuration: a default-config dict first, then the first entry
    of its configuration list (docs/corpus-conversion.md, "Default configuration")."""

    def __init__(self, env: dict):
        self.sources = []
        for n in CONFIG_DICTS:
            if isinstance(env.get(n), dict):
                self.sources.append((env[n], n))
        for n in CONFIG_LISTS:
            v = env.get(n)
            if isinstance(v, (tuple, list)) and v and isinstance(v[0], dict):
                self.sources.append((v[0], f"{n}[0]"))

    def __contains__(self, name):
        return any(name in d for d, _ in self.sources)

    def get(self, name):
        for d, n in self.sources:
            if name in d:
                return d[name], f"{n}[{name!r}]"
        raise KeyError(name)


def default_config(env: dict):
    return Config(env), ""


def find_call_site(tree, fname: str):
    """The first call of `fname(...)` / `fname.specialize(...)` in another top-level function."""
    for st in tree.body:
        if not isinstance(st, ast.FunctionDef) or st.name == fname:
            continue
        for i, body_st in enumerate(st.body):
            for n in ast.walk(body_st):
                if not isinstance(n, ast.Call):
                    continue
                f = n.func
                if (isinstance(f, ast.Name) and f.id == fname) or (
                        isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == fname
                        and f.attr in ("specialize", "__call__")):
                    return st, i, n
    return None


MAX_CALLER_CHAIN = 4  # callers of callers followed for a kernel's call-site arguments


def caller_env(caller, index, env, overrides, cfg, cfg_name, tree=None, chain=()):
    """The environment at the call of the kernel in `caller`: its parameters (--param, the
    argument at the caller's own call site in the file — callers of callers followed up to
    MAX_CALLER_CHAIN deep, as a kernel's own call site is — its default, the default
    configuration), then its straight-line code before the call."""
    cenv = dict(env)
    site = find_call_site(tree, caller.name) if tree is not None and len(chain) < MAX_CALLER_CHAIN else None
    if site is not None and site[0].name in chain + (caller.name,):
        site = None  # a cycle of callers: not followed
    site_args, site_env = {}, None
    if site is not None:
        up, up_idx, call = site
        site_env = caller_env(up, up_idx, env, overrides, cfg, cfg_name, tree, chain + (caller.name,))
        params = [p.arg for p in caller.args.posonlyargs + caller.args.args]
        for i, a in enumerate(call.args):
            if i < len(params) and not isinstance(a, ast.Starred):
                site_args[params[i]] = a
        for k in call.keywords:
            if k.arg:
                site_args[k.arg] = k.value
    for p, d in _params_with_defaults(caller):
        if p.arg in overrides:
            cenv[p.arg] = overrides[p.arg]
        elif p.arg in site_args:
            cenv[p.arg] = eval_or_unresolved(Evaluator(site_env), site_args[p.arg], p.arg, site_args[p.arg].lineno)
        elif site is None and p.arg in cfg:
            # an entry point no code of the file calls: the runner calls it with the default
            # configuration's entries as keyword arguments, which take the place of defaults
            cenv[p.arg] = cfg.get(p.arg)[0]
        elif d is not None:
            cenv[p.arg] = eval_or_unresolved(Evaluator(cenv), d, p.arg, caller.lineno)
        elif p.arg in cfg:
            cenv[p.arg] = cfg.get(p.arg)[0]
        else:
            cenv[p.arg] = Unresolved(p.arg, caller.lineno, f"parameter of {caller.name} with no default and no "
                                     "entry in the file's default configuration")
    bind_star_params(caller, cenv, overrides, cfg, None)
    try:
        run_straight(caller.body[:index], cenv, Evaluator(cenv))
    except _Return:
        pass
    except ConvertError as e:
        # the caller's code before the call failed (a validate() that raises, a missing field):
        # what it would have bound is not determined, and says why
        for n in assigned_names(caller.body[:index]):
            cenv[n] = Unresolved(n, caller.lineno, f"{caller.name} before line {caller.body[index].lineno} was not "
                                 f"evaluated statically: {e}")
    for k, v in overrides.items():
        cenv[k] = v
    return cenv


def default_kwargs(cfg, overrides: dict) -> tuple[dict, str]:
    """The `**kwargs` of an entry point at the default configuration: the file's default
    configuration (its first source: a default-config dictionary, else CONFIGS[0]) with
    --param applied to its keys; {} when the file has none."""
    if not cfg.sources:
        return {}, "no default configuration in the file: no keyword arguments"
    d, where = cfg.sources[0]
    out = dict(d)
    set_keys = [k for k in out if k in overrides]
    for k in set_keys:
        out[k] = overrides[k]
    return out, where + (f" (--param {', '.join(set_keys)})" if set_keys else "")


def bind_star_params(fn, env: dict, overrides: dict, cfg, ex) -> None:
    """`*args` of an entry point is () and `**kwargs` its default keyword arguments
    (default_kwargs); --param NAME overrides the whole parameter."""
    a = fn.args
    if a.vararg is not None:
        env[a.vararg.arg] = overrides.get(a.vararg.arg, ())
    if a.kwarg is not None:
        name = a.kwarg.arg
        if name in overrides:
            env[name] = overrides[name]
            return
        env[name], where = default_kwargs(cfg, overrides)
        if ex is not None:
            ex.config[f"**{name}"] = {"value": env[name], "origin": where}


def assigned_names(body) -> list:
    out = []
    for sub in ast.walk(ast.Module(body=list(body), type_ignores=[])):
        if isinstance(sub, (ast.Assign, ast.AnnAssign)):
            for t in (sub.targets if isinstance(sub, ast.Assign) else [sub.target]):
                out.extend(names_of(t))
    return out


def _params_with_defaults(fn):
    a = fn.args
    params = a.posonlyargs + a.args
    defaults = [None] * (len(params) - len(a.defaults)) + list(a.defaults)
    return list(zip(params, defaults)) + list(zip(a.kwonlyargs, a.kw_defaults))


def _starred_keywords(call: ast.Call, site_env) -> dict:
    """The `**{...}` keywords of a call site whose dict the caller's environment fixes
    (get_kernel's `kernel.specialize(**({} if paged else {"page_table_h": None}))`): name -> value.
    A dict the walk cannot evaluate adds nothing (its parameters stay as they are bound otherwise)."""
    out = {}
    for k in call.keywords:
        if k.arg is not None:
            continue
        try:
            d = Evaluator(site_env).value(k.value)
        except (ConvertError, RecursionError, ArithmeticError, TypeError, ValueError, KeyError, IndexError,
                AttributeError):
            continue
        if isinstance(d, dict) and all(isinstance(x, str) for x in d):
            out.update(d)
    return out

def _is_buffer_param(p) -> bool:
    a = p.annotation
    return isinstance(a, ast.Call) and getattr(a.func, "attr", getattr(a.func, "id", None)) == "Buffer"


def bind_root(tree, fn, env, overrides, ex: Extraction) -> dict:
    fenv = dict(env)
    cfg, cfg_name = default_config(env)
    site = find_call_site(tree, fn.name)
    site_args, site_vals, site_env, site_label = {}, {}, None, ""
    if site is not None:
        caller, idx, call = site
        site_env = caller_env(caller, idx, env, overrides, cfg, cfg_name, tree)
        params = [p.arg for p in fn.args.posonlyargs + fn.args.args]
        for i, a in enumerate(call.args):
            if i < len(params):
                site_args[params[i]] = a
        for k in call.keywords:
            if k.arg:
                site_args[k.arg] = k.value
        site_vals = _starred_keywords(call, site_env)
        site_label = f"{caller.name}:{call.lineno}"
    dc_cfg, entry_vals = None, {}
    if site is None:
        import pkg_entry  # the package's entry modules call it (pkg_entry.py)
        if any(d is None and p.arg not in overrides and p.arg not in cfg and not _is_buffer_param(p) and
               host_launch.param_value(fn, p, ex) is None and not kernel_env.runtime_scalar_reason(p, fn.name)
               for p, d in _params_with_defaults(fn)):
            entry_vals = pkg_entry.bind(fn, overrides, find_call_site, caller_env, Config)
    if site is None:  # an entry no code of the file calls: a configuration class's defaults (py_classes.py)
        need = [p.arg for p, d in _params_with_defaults(fn) if d is None and p.arg not in overrides and
                p.arg not in cfg and host_launch.param_value(fn, p, ex) is None and
                not kernel_env.runtime_scalar_reason(p, fn.name) and not _is_buffer_param(p)]
        dc_cfg = py_classes.entry_defaults(need, env, Evaluator(env))
    for p, d in _params_with_defaults(fn):
        name = p.arg
        if name in overrides:
            fenv[name] = overrides[name]
            ex.config[name] = {"value": overrides[name], "origin": "--param"}
        elif name in site_args:
            node = site_args[name]
            v = LayoutExpr(node, node.lineno) if is_layout_expr(node) else \
                eval_or_unresolved(Evaluator(site_env), node, name, node.lineno)
            fenv[name] = v
            if not isinstance(v, (Unresolved, LayoutExpr)):
                ex.config[name] = {"value": v, "origin": f"call site {site_label}: {ast.unparse(node)}"}
        elif name in site_vals:
            fenv[name] = site_vals[name]
            ex.config[name] = {"value": jsonable(site_vals[name]),
                               "origin": f"call site {site_label}: a **{{...}} keyword"}
        elif site is None and name in cfg:
            # an entry point no code of the file calls: the runner passes the default
            # configuration's entries as keyword arguments, which take the place of defaults
            fenv[name], where = cfg.get(name)
            ex.config[name] = {"value": fenv[name], "origin": where}
        elif d is not None:
            v = eval_or_unresolved(Evaluator(fenv), d, name, fn.lineno)
            fenv[name] = v
            if not isinstance(v, Unresolved):
                ex.config[name] = {"value": v, "origin": f"default of {fn.name}'s parameter"}
        elif name in cfg:
            fenv[name], where = cfg.get(name)
            ex.config[name] = {"value": fenv[name], "origin": where}
        elif host_launch.param_value(fn, p, ex) is not None:
            fenv[name] = host_launch.param_value(fn, p, ex)  # the file's own launch (host_launch.py)
        elif name in entry_vals:  # the package's entry module's call (pkg_entry.py)
            got = entry_vals[name]
            if isinstance(got, Unresolved):
                fenv[name] = got
            else:
                fenv[name] = got[0]
                ex.config[name] = {"value": jsonable(got[0]), "origin": got[1]}
        elif dc_cfg is not None and name in dc_cfg[1]:
            fenv[name] = dc_cfg[1][name]
            ex.config[name] = {"value": fenv[name], "origin": f"{dc_cfg[0]}() default of field {name} (the one "
                               f"configuration class whose fields give {fn.name}'s parameters without default)"}
        else:
            fenv[name] = Unresolved(name, fn.lineno, kernel_env.runtime_scalar_reason(p, fn.name) or
                                    f"parameter of {fn.name} with no default, no call site in "
                                    "the file and no entry in its default configuration")
    bind_star_params(fn, fenv, overrides, cfg, ex)
    bind_buffer_params(fn, fenv, ex, Evaluator(fenv))
    return fenv


def jsonable(v):
    if isinstance(v, (bool, int, float)) or v is None:
        return v
    if isinstance(v, (tuple, list)):
        return [jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if type(v).__name__ == "Swizzle" and isinstance(getattr(v, "mode", None), int):  # corpus_notation.Swizzle
        from corpus_notation import SWIZZLE_NAMES
        return f"SwizzleMode.{SWIZZLE_NAMES.get(v.mode, v.mode)}"
    text = str(v)
    if " object at 0x" in text:  # a default repr: its address differs from run to run
        return f"<{type(v).__name__} object>"
    return text


def extract(source: str, file_label: str, overrides: dict, function: str | None = None,
            source_dir: str | None = None, instance: str = "cta0-first-tile", serial_iterations: int = 1,
            target: str = "sm_100a") -> dict:
    try:
        tree = ast.parse(source, filename=file_label)
    except SyntaxError as e:
        msg = e.msg
        if "int_max_str_digits" in msg or "integer string conversion" in msg:
            msg = "an integer literal of more than 4300 digits"
        raise InputError("extract.syntax", f"{file_label}:{e.lineno}:{e.offset}: syntax error: {msg}",
                         e.lineno, e.offset) from None
    except (ValueError, RecursionError, MemoryError) as e:
        raise InputError("extract.syntax", f"{file_label}: not parsable as Python: {e}") from None
    set_source_dir(source_dir)
    import pkg_entry  # a builder only its package's entry modules call (pkg_entry.py)
    pkg_entry.KERNEL["file"] = os.path.basename(file_label)
    import runtime_data
    runtime_data.set_tree(tree, os.path.basename(file_label))  # the file the address screen reads (runtime_data.py)
    import range_data
    range_data.reset_walk()  # loops whose start is runtime data (range_data.py)
    import op_alias
    op_alias.normalise(tree)  # `cp = Tx.copy_async; cp(...)`, keyword operands (op_alias.py)
    kernel_env.SETTINGS.update(instance=instance, serial_iterations=serial_iterations, target=target,
                               overrides=overrides)
    kernel_env.CONVENTION_USED.clear()
    py_classes.OVERRIDES = dict(overrides)
    py_classes.FIELD_OVERRIDES.clear()
    MODULE_OVERRIDES.clear()
    import tile_class  # a kernel that is a class's methods: a megakernel tile task (tile_class.py)
    tile_class.CLASS_OVERRIDES.clear()
    tile_class.MANAGERS.clear()
    tile_class.MANAGER_NOTES.clear()
    eval_limits.reset()
    env = module_env(tree, overrides, os.path.basename(file_label))
    host_launch.set_context(tree, env, overrides, os.path.basename(file_label))
    classes = {st.name: st for st in tree.body if isinstance(st, ast.ClassDef)}
    roots = [] if function is not None and function in classes and \
        not any(isinstance(st, ast.FunctionDef) and st.name == function for st in tree.body) else \
        kernel_roots(tree, env, function)
    if not roots:
        tiles = [c for c in tile_class.tile_classes(tree, env) if function is None or c.name == function]
        if len(tiles) > 1:
            raise InputError("extract.kernel", f"{file_label}: the file defines {len(tiles)} tile-task classes ("
                             + ", ".join(f"{c.name} at line {c.node.lineno}" for c in tiles)
                             + "); a model describes one: choose it with --function NAME", tiles[1].node.lineno)
        if tiles:
            return _extract_tile(tiles[0], tree, env, overrides, file_label)
        for st in ([classes[function]] if function is not None else tree.body):
            # kernels as methods of a class that is not read as a tile task: say why, instead of "no kernel"
            if isinstance(st, ast.ClassDef) and (function is not None or any(
                    isinstance(m, ast.FunctionDef) and (contains_interesting(m) or _has_buffer_params(m))
                    for m in st.body)):
                raise InputError("extract.kernel", f"{file_label}:{st.lineno}: "
                                 + (f"--function {function}: " if function is not None else "the kernels are methods of ")
                                 + f"the class {st.name}, which extract does not read as a tile task: "
                                 + _not_tile_why(st, env.get(st.name)) + "; extract reads top-level kernel functions "
                                 "and plain classes with a `run` method along their bases (tile tasks)", st.lineno)
        raise InputError("extract.kernel", f"{file_label}: no kernel function found (no function allocates a "
                         "buffer, issues an op or takes a T.Buffer parameter)")
    # kernels: public @T.prim_func (a private=True one is a device function the module's kernels call)
    prims = [fn for fn in roots if any((dotted(d.func if isinstance(d, ast.Call) else d) or "").split(".")[-1] ==
                                       "prim_func" and not (isinstance(d, ast.Call) and any(
                                           k.arg == "private" and isinstance(k.value, ast.Constant) and
                                           k.value.value is True for k in d.keywords))
                                       for d in fn.decorator_list)]
    if function is None and len(prims) > 1:
        # one model is one kernel: two @T.prim_func of one file are two kernels, never merged
        raise InputError("extract.kernel", f"{file_label}: the file defines {len(prims)} kernels ("
                         + ", ".join(f"{fn.name} at line {fn.lineno}" for fn in prims)
                         + "); a model describes one: choose it with --function NAME", prims[1].lineno)
    check_param_names(tree, overrides, roots)
    ex = Extraction(os.path.basename(file_label), overrides)
    import scoping
    for fn in roots:
        fenv = bind_root(tree, fn, env, overrides, ex)
        try:
            Walker(ex).walk_function(FuncValue(fn, env), fenv, set())
        except scoping.ScopeError as e:  # the kernel uses a name TVMScript has dropped: TVM rejects it
            raise InputError("extract.scope", str(e), e.line) from None
    range_data.settle()  # a loop start's runtime data: its value for the next walk (range_data.py)
    import smem_placement
    smem_placement.finish(ex)  # SMEMPool offsets -> placement (or a note saying why not)
    import tmem_nesting
    tmem_nesting.finish(ex)  # a copy into a nested SF buffer needs an MMA reading it as SFA/SFB
    for (cls, field), v in sorted(py_classes.FIELD_OVERRIDES.items()):
        ex.config[f"{cls}.{field}"] = {"value": v, "origin": "--param (a field of every instance constructed)"}
    for name, v in overrides.items():  # every override applied is recorded, module constants too
        if name not in ex.config:
            where = f" (module constant, line {MODULE_OVERRIDES[name]})" if name in MODULE_OVERRIDES else ""
            ex.config[name] = {"value": v, "origin": f"--param{where}"}
    return {"ex": ex, "roots": [f.name for f in roots]}


def _not_tile_why(st: ast.ClassDef, value) -> str:
    """Why the class `st` (its value in the module environment) is not a tile task."""
    import tile_class
    if st.decorator_list or st.keywords:
        parts = ["@" + ast.unparse(d) for d in st.decorator_list] + [ast.unparse(k) for k in st.keywords]
        return (f"a class with {', '.join(parts)} is not evaluated (what the decorator or metaclass "
                "does is not modelled)")
    if isinstance(value, tile_class.ClassValue):
        unread = value.unread_bases()
        return "it has no `run` method along its bases (the megakernel driver's entry)" + (
            f"; a base is not read, and may define it: {'; '.join(unread)}" if unread else "")
    return f"it is read as another kind of class ({type(value).__name__})"


def _extract_tile(cls, tree, env, overrides, file_label) -> dict:
    """Walk a tile-task class's entry methods in the megakernel driver's order (tile_class.py)."""
    import tile_class
    import tile_cells
    import scoping
    import smem_placement
    import run_args  # names of the driver's files, which run's arguments are followed through (run_args.py)
    check_param_names(tree, overrides, [fn for c in cls.mro() for fn in c.methods.values()],
                      run_args.driver_names(cls.name))
    ex = Extraction(os.path.basename(file_label), overrides)
    inst = tile_class.construct(cls, overrides, ex, is_layout_expr)
    walked = []
    called: set = set()
    if inst.never is not None:  # the constructor does not (or is not known to) return: no method runs
        ex.block(f"the {cls.name} instance", inst.never[0], None,
                 inst.never[1] + "; the driver's calls (class_init, init, run) are not walked")
    for name, fv in ([] if inst.never is not None else tile_class.entry_methods(cls, inst, ex)):
        if name == "run":  # the driver's device set-up of its manager comes first (mgr_init.py)
            import mgr_init
            mgr_init.before_run(ex, cls, lambda mfv, menv: Walker(ex).walk_function(mfv, menv, called))
        tile_cells.enter_run(cls, inst, name)  # register scalars the tile holds: the first tile's (tile_cells.py)
        fenv = tile_class.bind_entry(fv, cls, name, overrides, ex)
        bind_buffer_params(fv.node, fenv, ex, Evaluator(fenv))  # `A: T.Buffer(...)` parameters
        try:
            Walker(ex).walk_function(fv, fenv, called)
        except scoping.ScopeError as e:
            raise InputError("extract.scope", str(e), e.line) from None
        walked.append(f"{cls.name}.{name}")
    import range_data
    range_data.settle()  # a loop start's runtime data: its value for the next walk (range_data.py)
    smem_placement.finish(ex)
    import tmem_nesting
    tmem_nesting.finish(ex)
    for name, where in sorted(tile_class.CLASS_OVERRIDES.items()):
        if name not in ex.config:
            ex.config[name] = {"value": overrides[name], "origin": f"--param (bound in {', '.join(where)})"}
    for name, v in overrides.items():
        if name not in ex.config:
            where = f" (module constant, line {MODULE_OVERRIDES[name]})" if name in MODULE_OVERRIDES else ""
            ex.config[name] = {"value": v, "origin": f"--param{where}"}
    return {"ex": ex, "roots": walked}


def read_names(tree) -> set:
    """Every name the extraction may read from the file: identifiers, parameters, dotted
    attributes, function names and the string keys of dict literals (configuration entries)."""
    names = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Name):
            names.add(n.id)
        elif isinstance(n, ast.arg):
            names.add(n.arg)
        elif isinstance(n, ast.Attribute):
            d = dotted(n)
            if d:
                names.add(d)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(n.name)
        elif isinstance(n, ast.Dict):
            names.update(k.value for k in n.keys if isinstance(k, ast.Constant) and isinstance(k.value, str))
        elif isinstance(n, ast.Call) and (dotted(n.func) or "").endswith("environ.get") and n.args and \
                isinstance(n.args[0], ast.Constant) and isinstance(n.args[0].value, str):
            names.add(n.args[0].value)
    return names


def check_param_names(tree, overrides: dict, roots, extra=frozenset()) -> None:
    """--param NAME must name something the extraction reads (else it would change nothing,
    silently), and not a T.Buffer parameter (its shape is its annotation's)."""
    import difflib
    import pkg_entry  # names an entry module of the package reads (pkg_entry.py)
    names = read_names(tree) | pkg_entry.read_names(roots, find_call_site) | set(extra)
    for name in overrides:
        if name not in names:
            close = difflib.get_close_matches(name, sorted(n for n in names if "." not in n), n=3, cutoff=0.6)
            hint = f"; close names: {', '.join(close)}" if close else ""
            raise InputError("extract.param", f"--param {name}: the file has no name {name!r} the extraction "
                             f"reads, so the override would change nothing{hint}")
        for fn in roots:
            for p in all_params(fn):
                a = p.annotation
                if p.arg == name and isinstance(a, ast.Call) and \
                        getattr(a.func, "attr", getattr(a.func, "id", None)) == "Buffer":
                    raise InputError("extract.param", f"--param {name}: {name} is a T.Buffer parameter of "
                                     f"{fn.name} (line {fn.lineno}); its shape comes from its annotation: override "
                                     "the names the annotation uses instead", fn.lineno)


def build_model(result: dict, args, file_label: str) -> dict:
    ex: Extraction = result["ex"]
    kernel = args.kernel_name or os.path.splitext(os.path.basename(file_label))[0]
    source = {}
    if args.repo:
        source["repos"] = args.repo
    source["files"] = [args.source_path or os.path.basename(file_label)]
    if args.commit:
        source["commit"] = args.commit
    source["notes"] = f"extracted by {TOOL} from {os.path.basename(file_label)} (functions: " \
                      f"{', '.join(result['roots'])})"
    for o in ex.ops:
        o.pop("_run", None)  # reg_access.py's bookkeeping of merged casts
    model = {"format": 2, "kernel": kernel, "target": args.target, "source": source,
             "buffers": ex.buffers, "ops": ex.ops}
    model["extraction"] = {
        "tool": TOOL,
        "file": source["files"][0],
        "functions": result["roots"],
        "config": {k: {"value": jsonable(v["value"]), "origin": v["origin"]} for k, v in sorted(ex.config.items())},
        "instance": instance_record(args),
        "sampled_loops": sampled_loops(ex),
        "unresolved": [dict(b, reason=plain(explained(b))) for b in ex.blocked],
        "complete": not ex.blocked,
    }
    return model


def explained(b: dict) -> str:
    """An unresolved item's reason, with explain_undefined's wording for a module name the file
    binds where the extraction does not look (the walk looked it up inside a function)."""
    if b.get("reason") != "not defined in this file" or "name" not in b:
        return b["reason"]
    u = Unresolved(b["name"], None, b["reason"])
    explain_undefined(u, b.get("line") or 0, {k: v for k, v in MODULE_BINDERS.items() if v[1] != "assign"})
    if u.line and "defined_at" not in b:
        b["defined_at"] = u.line
    return u.reason


def instance_record(args) -> dict:
    """The representative instance the model is (docs/extract.md): the convention and every
    binding it made, so that nothing it fixed is silent."""
    rec = {"convention": args.instance, "serial_iterations": args.serial_iterations}
    if args.instance == "cta0-first-tile":
        rec["meaning"] = ("CTA 0 of the grid (rank 0 of its cluster) on its first tile: CTA and cluster indices "
                          "are 0, tile-scheduler fields are 0, a `while scheduler.valid()` loop is one pass")
    rec["bindings"] = [dict(v, line=v["line"] or 0) for v in sorted(kernel_env.CONVENTION_USED.values(),
                                                key=lambda v: (v["line"] or 0, v["what"]))]
    return rec


NOTE_WIDTH = 160  # characters of a binding's description on stderr (the model holds all of it)


def note_bindings(instance: dict) -> None:
    """Says on stderr that the model fixed values the source leaves to run time, so that a complete
    model's assumptions are not only inside the JSON (docs/extract.md, the representative instance)."""
    bound = instance.get("bindings") or []
    if not bound:
        return
    print(f"extract: the model is the representative instance '{instance.get('convention')}': {len(bound)} value(s) "
          "the source leaves to run time are bound (extraction.instance.bindings; --instance none leaves them "
          "unresolved):", file=sys.stderr)
    for b in bound[:5]:
        what = b["what"] if len(b["what"]) <= NOTE_WIDTH else b["what"][:NOTE_WIDTH - 3].rstrip() + "..."
        print(f"  line {b['line']} (value {b['value']}): {what}", file=sys.stderr)
    if len(bound) > 5:
        print(f"  ... and {len(bound) - 5} more", file=sys.stderr)


def sampled_loops(ex) -> list:
    seen, out = set(), []
    for s in ex.sampled_loops:
        key = (s["line"], s["var"])
        if key not in seen:
            seen.add(key)
            out.append(s)
    return out


def check_output(out: str, kernel: str) -> None:
    """-o before the extraction: not a directory, its directory exists, not the kernel file."""
    if os.path.isdir(out):
        raise InputError("extract.output", f"-o {out}: is a directory")
    if os.path.exists(out) and os.path.exists(kernel) and os.path.samefile(out, kernel):
        raise InputError("extract.output", f"-o {out}: is the kernel file {kernel} itself (the model would "
                         "overwrite the source)")
    parent = os.path.dirname(out) or "."
    if not os.path.isdir(parent):
        raise InputError("extract.output", f"-o {out}: the directory {parent} does not exist")


def dump(model) -> str:
    return json.dumps(model, indent=2) + "\n"


class _Parser(argparse.ArgumentParser):
    """argparse whose usage errors are InputError("cli.usage") (one JSON document with --json)."""

    def error(self, message):
        raise InputError("cli.usage", f"tirx-verify extract: {message}")


INTERNAL_NAMES = {"FuncValue": "function", "BufferRef": "buffer", "LayoutExpr": "layout expression",
                  "ModuleValue": "module", "Unresolved": "unresolved value", "Imported": "imported name",
                  "Pool": "allocator", "Scheduler": "tile scheduler", "SchedField": "tile-scheduler field",
                  "EnumMember": "enum member", "ThreadIndex": "thread index", "TirLocal": "TIR local",
                  "PipeState": "PipelineState", "SmemDescObj": "SmemDescriptor", "RegArray": "register array",
                  "NoneType": "None"}


def plain(text: str) -> str:
    """A message without the extractor's own class names ("'FuncValue' object is not callable"
    -> "a function defined in the file is not callable") and without Python's digit-limit hint."""
    import re
    if "int_max_str_digits" in text:
        text = re.sub(r"Exceeds the limit.*", "an integer of more than 4300 digits", text)
    for k, v in INTERNAL_NAMES.items():
        text = text.replace(f"'{k}' object", f"a {v} of the file" if k == "FuncValue" else f"a {v}")
        text = re.sub(rf"\b{k}\b", v, text)
    return text


def position_of(raw: bytes, offset: int) -> tuple[int, int]:
    """1-based line and column of byte `offset` in `raw`."""
    line = raw.count(b"\n", 0, offset) + 1
    return line, offset - (raw.rfind(b"\n", 0, offset) + 1) + 1


def innermost_line(tb) -> int | None:
    """The line of the kernel statement or expression being handled when an exception was raised:
    the innermost frame holding an ast node (`st`, `node`, `sub`...) with a line number."""
    line = None
    while tb is not None:
        for k in ("st", "node", "sub", "n", "stmt"):
            v = tb.tb_frame.f_locals.get(k)
            if isinstance(v, ast.AST) and getattr(v, "lineno", None):
                line = v.lineno
                break
        tb = tb.tb_next
    return line


def run_deep(fn):
    """fn() on a thread with a 256 MiB stack and a recursion limit of 20000: a 5000-term sum or a
    deeply nested expression is walked instead of failing. Falls back to this thread when the
    stack cannot be had (a low --memory-limit)."""
    import threading
    box = {}

    def body():
        try:
            box["value"] = fn()
        except BaseException as e:  # noqa: BLE001 - re-raised in the caller's thread
            box["error"] = e

    old_limit = sys.getrecursionlimit()
    try:
        threading.stack_size(256 << 20)
        t = threading.Thread(target=body, daemon=True)
        sys.setrecursionlimit(20000)
        t.start()
    except (RuntimeError, ValueError, MemoryError):
        sys.setrecursionlimit(old_limit)
        return fn()
    finally:
        threading.stack_size(0)
    try:
        t.join()
    finally:
        sys.setrecursionlimit(old_limit)
    if "error" in box:
        raise box["error"]
    return box["value"]


def main(argv=None) -> int:
    ap = _Parser(prog="tirx-verify extract", description=__doc__.split("\n\n")[0])
    ap.add_argument("kernel", help="the kernel's Python source file")
    ap.add_argument("--param", action="append", default=[], metavar="NAME=VALUE",
                    help="override a name's value (a module constant, a configuration value, a kernel "
                         "parameter, a loop variable)")
    ap.add_argument("-o", "--output", help="write the model here (default: standard output)")
    ap.add_argument("--kernel-name", help="the model's kernel name (default: the file's stem)")
    ap.add_argument("--function", help="the top-level kernel function, or the tile-task class (a class with a "
                    "`run` method), to extract (default: every kernel function, else the file's one tile-task class)")
    ap.add_argument("--target", default="sm_100a", help="machine description (default sm_100a)")
    ap.add_argument("--repo", action="append", default=[], metavar="OWNER/NAME", help="provenance: repository")
    ap.add_argument("--commit", help="provenance: the commit the file was read at (40 hex digits)")
    ap.add_argument("--source-path", help="provenance: the file's path in the repository")
    ap.add_argument("--allow-unresolved", action="store_true",
                    help="exit 0 even when something is unresolved (the model still lists it)")
    ap.add_argument("--json", action="store_true", help="errors as one JSON document on standard output")
    ap.add_argument("--instance", choices=("cta0-first-tile", "none"), default="cta0-first-tile",
                    help="the representative instance modelled: CTA 0 on its first tile (default), or none "
                         "(CTA indices and tile-scheduler fields stay unresolved)")
    ap.add_argument("--serial-iterations", type=int, default=1, metavar="N",
                    help="walk a T.serial loop with a fixed range for its first N iterations (default 1; 0: all)")
    ap.add_argument("--memory-limit", type=int, metavar="MB",
                    help="address-space limit of this process in MB (RLIMIT_AS, only lowered; tirx-verify "
                         "extract sets it before exec and passes the value for messages)")
    ap.add_argument("--layout-tool", metavar="PATH",
                    help="the tirx-verify binary that expands layouts for derived views (layout_text.py; "
                         "`tirx-verify extract` passes itself)")
    json_out = "--json" in (argv if argv is not None else sys.argv[1:])
    try:
        args = ap.parse_args(argv)
    except SystemExit as e:  # --help
        return 0 if e.code == 0 else 2
    except InputError as e:
        return report_error(e, json_out)
    import layout_text
    layout_text.set_tool(args.layout_tool)
    limit = f"--memory-limit {args.memory_limit} MB" if args.memory_limit else "the memory available"
    try:
        if args.memory_limit is not None:
            if args.memory_limit < 16:
                raise InputError("cli.usage", f"--memory-limit {args.memory_limit}: below 16 MB")
            import resource
            want = args.memory_limit << 20
            soft, hard = resource.getrlimit(resource.RLIMIT_AS)
            if soft == resource.RLIM_INFINITY or soft > want:
                resource.setrlimit(resource.RLIMIT_AS, (min(want, hard) if hard != resource.RLIM_INFINITY
                                                        else want, hard))
        return run(args)
    except InputError as e:
        return report_error(e, args.json)
    except MemoryError:
        return report_error(InputError("extract.memory-limit", f"{args.kernel}: the extraction ran out of memory "
                                       f"({limit}); no model was written"), args.json, 3)


UNDECIDED_IDS = ("extract.memory-limit", "extract.recursion-limit")  # a limit was hit: exit 3


def report_error(e: InputError, as_json: bool, code: int | None = None) -> int:
    if code is None:
        code = 4 if e.check == "extract.internal" else 3 if e.check in UNDECIDED_IDS else 2
    msg = plain(str(e))
    if as_json:
        doc = {"error": {"id": e.check, "message": msg}, "exit_code": code}
        if e.line is not None:
            doc["error"]["line"] = e.line
        print(json.dumps(doc))
    print(f"error[{e.check}]: {msg}", file=sys.stderr)
    return code


def run(args) -> int:
    if True:
        overrides = {}
        for p in args.param:
            name, v = parse_param(p)
            if name in overrides:
                raise InputError("extract.param", f"--param {name} is given twice; give each name once")
            overrides[name] = v
        if args.commit is not None and (len(args.commit) != 40 or
                                        any(c not in "0123456789abcdef" for c in args.commit)):
            raise InputError("cli.usage", f"--commit {args.commit!r}: not a full 40-digit lowercase hex commit")
        path = args.kernel
        if not os.path.isfile(path):
            raise InputError("extract.input", f"{path}: not a readable regular file")
        try:
            if os.path.getsize(path) > MAX_FILE_BYTES:
                raise InputError("extract.input", f"{path}: larger than {MAX_FILE_BYTES} bytes")
            with open(path, "rb") as fh:
                raw = fh.read(MAX_FILE_BYTES + 1)
        except OSError as e:  # /proc/self/mem, a file that vanished or cannot be read
            raise InputError("extract.input", f"{path}: cannot be read ({e.strerror or e})") from None
        if len(raw) > MAX_FILE_BYTES:
            raise InputError("extract.input", f"{path}: larger than {MAX_FILE_BYTES} bytes")
        try:
            source = raw.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            line, col = position_of(raw, e.start)
            raise InputError("extract.input", f"{path}:{line}:{col}: not UTF-8 (byte {e.start}, "
                             f"0x{raw[e.start]:02x})", line, col) from None
        if "\0" in source:
            line, col = position_of(raw, raw.index(b"\0"))
            raise InputError("extract.syntax", f"{path}:{line}:{col}: a NUL byte (not Python source)", line, col)
        if args.output:
            check_output(args.output, path)
        try:
            if not 0 <= args.serial_iterations <= 256:
                raise InputError("cli.usage", f"--serial-iterations {args.serial_iterations}: not in 0..256")
            import runtime_data
            runtime_data.reset()
            import tile_driver  # where tile_driver.py looks for a tile task's driver
            kernel_env.SETTINGS["source_path"] = args.source_path or tile_driver.package_path(path)
            for _round in range(runtime_data.MAX_ROUNDS):
                # runtime data an op's coordinate needs: the walk again with it bound (runtime_data.py)
                result = run_deep(lambda: extract(source, path, overrides, args.function,
                                                  os.path.dirname(os.path.abspath(path)), args.instance,
                                                  args.serial_iterations, args.target))
                if not runtime_data.next_round():
                    break
        except RecursionError as e:
            line = innermost_line(e.__traceback__)
            where = f"{path}:{line}" if line else path
            raise InputError("extract.recursion-limit", f"{where}: nests too deeply to walk (calls or expressions "
                             "deeper than the extractor's recursion limit of 20000 frames); no model was written",
                             line) from None
        except (InputError, MemoryError):
            raise
        except Exception as e:  # noqa: BLE001 - an extractor bug must still give an answer, not a traceback
            line = innermost_line(e.__traceback__)
            where = f"{path}:{line}" if line else path
            raise InputError("extract.internal", f"{where}: the extractor failed ({type(e).__name__}: {e}); "
                             "please report it with the file", line) from None
        model = build_model(result, args, path)
    text = dump(model)
    if args.output:
        try:
            with open(args.output, "w") as fh:
                fh.write(text)
        except OSError as e:
            raise InputError("extract.output", f"-o {args.output}: writing the model failed "
                             f"({e.strerror or e})") from None
    else:
        sys.stdout.write(text)
    note_bindings(model["extraction"].get("instance", {}))
    blocked = model["extraction"]["unresolved"]
    model["extraction"]["complete"] = not blocked
    if blocked:
        print(f"extract: {len(blocked)} item(s) unresolved (listed in extraction.unresolved):", file=sys.stderr)
        for b in blocked[:20]:
            where = f" (defined at line {b['defined_at']})" if "defined_at" in b else ""
            name = f"{b['name']}{where}: " if "name" in b else ""
            print(f"  line {b['line']}: {b['item']}: {name}{b['reason']}", file=sys.stderr)
        if len(blocked) > 20:
            print(f"  ... and {len(blocked) - 20} more", file=sys.stderr)
        return 0 if args.allow_unresolved else 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
