"""A kernel builder that only its package's entry modules call (extract.bind_root).

Some kernels live in a private subpackage whose public modules, one directory up, pin one
configuration each (mlc-ai/TIRx-kernels 92240d6 tirx_kernels/deepgemm/_sm100_fp8_fp4_gemm_1d1d/:
kernel.py holds `build_kernel(spec)`, spec.py the `GemmSpec`, its heuristics and a forwarding
`build_kernel`, and the five modules `../fp8_gemm_1d1d.py`, `../fp8_bmm.py`, ... each call it as
`get_kernel(**config)` -> `build_kernel(_spec_for(config))`).  No code of the kernel file calls the
builder, so its parameters have no call site in the file; the entry modules are its callers.

Entry modules of a kernel file DIR/K.py whose DIR holds an `__init__.py` (a subpackage SUB): the
modules `DIR/../M.py` (M not starting with "_": the registry's public modules) that import the
builder's name relatively, `from .SUB import F` or `from .SUB.K import F`, and call it in a
top-level function.  Imported from `.SUB`, the name must be the kernel's own function or a
function of the subpackage that forwards every parameter, in order, to it
(`from .K import F as _b; return _b(spec)`); anything else is not this kernel's builder.

Which entry is the default configuration: the only one; with several, the one whose module name
is the subpackage's name with words left out (its words, split at "_", a subsequence of the
subpackage's: `fp8_gemm_1d1d` of `_sm100_fp8_fp4_gemm_1d1d`).  That choice is not the
source's, so it is an instance binding (`--instance none` takes it back); two or none such
modules leave the parameters unresolved, naming the candidates.  `--param entry_module=M` picks
entry M.  The call site in the entry module is then followed as a kernel's own call site is
(extract.caller_env: the entry's default configuration, CONFIGS[0], as its **kwargs, callers of
callers, straight-line code before the call), and the builder's parameters take the call's
arguments, evaluated there.
"""
from __future__ import annotations

import ast
import os

import kernel_env
from kernel_env import Unresolved

PARAM = "entry_module"
KERNEL = {"file": None}  # the kernel file's base name (extract.extract sets it)


def _words(name: str) -> list:
    return [w for w in name.split("_") if w]


def _subsequence(a: list, b: list) -> bool:
    it = iter(b)
    return all(w in it for w in a)


def _parse(path: str):
    try:
        if os.path.getsize(path) > kernel_env.MAX_SIBLING_BYTES:
            return None
        with open(path, "rb") as fh:
            return ast.parse(fh.read().decode("utf-8"), filename=os.path.basename(path))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None


UNREADABLE: list = []  # modules one directory up that may import from the subpackage but do not parse


def _may_import(path: str, sub: str) -> bool:
    """The file's text names the subpackage in a relative import (read as bytes: it did not parse)."""
    try:
        with open(path, "rb") as fh:
            text = fh.read(kernel_env.MAX_SIBLING_BYTES + 1).decode("utf-8", "replace")
    except OSError:
        return False
    return f"from .{sub}" in text


def _forwards(fv, fn, stem: str) -> bool:
    """fv (a function of the subpackage) is the kernel function itself, or returns
    `F(p1, ..., pn)` with F imported as the kernel function from `.stem` and p its parameters."""
    node = getattr(fv, "node", None)
    if not isinstance(node, ast.FunctionDef):
        return False
    if node.name == fn.name and fv.file == f"{stem}.py" and len(node.args.args) == len(fn.args.args):
        return True
    params = [a.arg for a in node.args.posonlyargs + node.args.args]
    if len(params) != len(fn.args.posonlyargs + fn.args.args) or node.args.vararg or node.args.kwarg:
        return False
    local = {a.asname or a.name for st in node.body if isinstance(st, ast.ImportFrom) and st.level == 1
             and st.module == stem for a in st.names if a.name == fn.name}
    last = node.body[-1] if node.body else None
    return isinstance(last, ast.Return) and isinstance(last.value, ast.Call) and \
        isinstance(last.value.func, ast.Name) and last.value.func.id in local and not last.value.keywords and \
        [getattr(a, "id", None) for a in last.value.args] == params


def entries(fn, find_call_site) -> list:
    """[(module stem, path, tree, name the builder is bound to)] of the entry modules that call
    the kernel function fn; [] when the kernel file is not in a subpackage."""
    d = kernel_env.SIBLINGS.get("dir")
    kfile = KERNEL["file"]
    if not d or not kfile or not os.path.isfile(os.path.join(d, "__init__.py")):
        return []
    d = os.path.abspath(d)
    sub, parent, stem = os.path.basename(d), os.path.dirname(d), os.path.splitext(kfile)[0]
    if not sub.isidentifier():
        return []
    out = []
    UNREADABLE.clear()
    try:
        names = sorted(os.listdir(parent))
    except OSError:
        return []
    for f in names:
        if not f.endswith(".py") or f.startswith("_") or not f[:-3].isidentifier():
            continue
        tree = _parse(os.path.join(parent, f))
        if tree is None:
            if _may_import(os.path.join(parent, f), sub):
                UNREADABLE.append(f)  # it may be an entry module: the set of entries is not known
            continue
        bound = None
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom) and n.level == 1 and n.module in (sub, f"{sub}.{stem}"):
                for a in n.names:
                    if a.name == fn.name:
                        bound = (a.asname or a.name, n.module)
        if bound is None or find_call_site(tree, bound[0]) is None:
            continue
        if bound[1] == sub:
            pkg = kernel_env.sibling_module(sub, parent)
            fv = pkg.env.get(fn.name) if pkg is not None else None
            if not _forwards(fv, fn, stem):
                continue
        out.append((f[:-3], os.path.join(parent, f), tree, bound[0]))
    return out


def choose(fn, cands: list, overrides: dict):
    """(entry, how) or (None, why)."""
    names = [c[0] for c in cands]
    if UNREADABLE and PARAM not in overrides:
        return None, (f"{', '.join(UNREADABLE)} next to the subpackage import{'s' if len(UNREADABLE) == 1 else ''} "
                      "from it but could not be read as Python (a syntax error, or too large), so the entry "
                      f"modules that call {fn.name} are not known; --param {PARAM}=NAME picks one")
    if PARAM in overrides:
        want = overrides[PARAM]
        for c in cands:
            if c[0] == want:
                return c, f"--param {PARAM}={want}"
        return None, (f"--param {PARAM}={want} names no entry module that calls {fn.name} (entry modules: "
                      f"{', '.join(names)})")
    if len(cands) == 1:
        return cands[0], f"the one entry module that calls {fn.name}"
    sub = os.path.basename(os.path.abspath(kernel_env.SIBLINGS["dir"]))
    named = [c for c in cands if _subsequence(_words(c[0]), _words(sub))]
    if len(named) != 1:
        return None, (f"{len(cands)} entry modules call {fn.name} ({', '.join(names)}) and "
                      f"{'none' if not named else len(named)} of them is named after its subpackage {sub}; --param {PARAM}=NAME picks one")
    what = (f"default configuration of {fn.name}: entry module {named[0][0]}.py, the one of its {len(cands)} "
            f"entry modules ({', '.join(names)}) whose name is its subpackage's name {sub} with words left out")
    if not kernel_env.convention_on():
        return None, (f"{len(cands)} entry modules call {fn.name} ({', '.join(names)}); choosing {named[0][0]} by its "
                      "name is a representative-instance binding, off under --instance none")
    kernel_env.note_convention(what, fn.lineno, named[0][0])
    return named[0], f"entry module {named[0][0]}.py, named after the subpackage {sub}"


def bind(fn, overrides: dict, find_call_site, caller_env, Config) -> dict:
    """{parameter: (value, origin)} from the default entry module's call of fn, or
    {parameter: Unresolved} saying why; {} when fn has no entry modules."""
    cands = entries(fn, find_call_site)
    if not cands and not UNREADABLE:
        return {}
    params = [p.arg for p in fn.args.posonlyargs + fn.args.args]
    entry, how = choose(fn, cands, overrides)
    if entry is None:
        return {p: Unresolved(p, fn.lineno, how) for p in params}
    stem, path, tree, bound = entry
    mv = kernel_env._load_module(path, stem, f"{stem}.py")
    if mv is None:
        return {p: Unresolved(p, fn.lineno, f"entry module {stem}.py could not be read") for p in params}
    caller, idx, call = find_call_site(tree, bound)
    cfg = Config(mv.env)
    cenv = caller_env(caller, idx, mv.env, overrides, cfg, "", tree)
    where = f" with {cfg.sources[0][1]} of {stem}.py as its keyword arguments" if cfg.sources else ""
    site = f"{how}: {caller.name} at {stem}.py:{call.lineno}, {ast.unparse(call)}{where}"
    args = {}
    for i, a in enumerate(call.args):
        if i < len(params) and not isinstance(a, ast.Starred):
            args[params[i]] = a
    args.update({k.arg: k.value for k in call.keywords if k.arg in params})
    out = {}
    for p, node in args.items():
        v = kernel_env.eval_or_unresolved(kernel_env.Evaluator(cenv), node, p, node.lineno)
        out[p] = v if isinstance(v, Unresolved) else (v, site)
    return out


def read_names(fn_roots, find_call_site) -> set:
    """Names --param may set through an entry module: PARAM, and the names its code reads."""
    out = set()
    for fn in fn_roots:
        cands = entries(fn, find_call_site)
        if cands:
            out.add(PARAM)
        for c in cands:
            for n in ast.walk(c[2]):
                if isinstance(n, ast.Name):
                    out.add(n.id)
                elif isinstance(n, ast.arg):
                    out.add(n.arg)
                elif isinstance(n, ast.Dict):
                    out.update(k.value for k in n.keys if isinstance(k, ast.Constant) and isinstance(k.value, str))
                elif isinstance(n, ast.keyword) and n.arg:
                    out.add(n.arg)
    return out
