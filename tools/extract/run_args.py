"""The arguments a megakernel driver passes to a tile task's `run`, followed through the driver's
own source (docs/extract.md, "The driver's arguments of run, hop by hop").

A tile task's `run(self, m_idx, n_idx, k_idx, A, B, output, ...)` is called by its driver, not by
its file.  In spectrometerHBH 8721e86 the global buffers reach GemmTile.run through four hops:
`self.gate = self._add_tile(GemmTile(...), ...)` (moe.py:97-107; `_add_tile` returns its argument,
239-243), `run_tile(self, tile, *args, **kwargs)` forwarding `*args` to `tile.run` (base.py:541-547),
its one call for `self.gate` (moe.py:264-273, in `task_impl_moe_gating(self, A, B, output, ...)`),
that method's one call (moe.py:592, in `fused_body`), fused_body's two calls (moe.py:699 and 801,
in the nested `run` of each prim_func), whose arguments are names bound by `Tx.match_buffer` in
the enclosing prim_func (665-675, 765-775).  This module follows such hops statically, as Python
binds names:

  * **the tile's attribute**: the statement holding the driver's one construction (tile_driver.find)
    is `self.X = C(...)` or `self.X = self.M(C(...), ...)` with M (looked up along the driver class's
    MRO) returning that parameter on every `return`;
  * **the forwarder**: the one call `self.F(self.X, ...)` in a method of the driver class whose F
    (along its MRO) calls `P.run(...)` on its parameter P; the forwarder's `*args` / `**kwargs` and
    named parameters are mapped onto run's parameters, as Python binds a call;
  * **a name** is looked up as Python's scoping does, innermost function first: a parameter of that
    function takes the argument its callers pass (every call of it in the package; several calls
    must agree, else it is a choice and unresolved, naming them; none: its default, else the
    package runner's first configuration for `run_test` / `run_bench` -- tirx_kernels/runner.py:19-21
    at 8721e86, `run_test(**config)` for the entries of the module's CONFIGS -- else unresolved);
    a name bound once at the top of that function takes that value; else a module name;
  * **an attribute of the driver instance** is what its `__init__` gave, unless the package stores
    it elsewhere: one store `mk.N = v` after `mk = D(...)` in one function gives v there (moe.py:958,
    `mk._compile_batch_size = batch_size`); `getattr(self, N, d)` reads the same, d only when
    nothing stores N; a store of a tile scheduler (a call annotated with, or of, a class whose name
    holds `Scheduler`) is a tile-scheduler object, whose fields read 0 under the representative
    instance (kernel_env.Scheduler, recorded), unresolved without it;
  * `Tx.match_buffer(handle, shape, dtype, scope=)` (tir_buffers.py's rules) is the global buffer,
    named after run's parameter; `Tx.meta_var(x)` is x.

`--param NAME=V` sets any name met on the way (the first hop binding NAME takes it), recorded in
extraction.config.  Anything else stays unresolved, naming the hop where it stops.

Python 3 standard library only.
"""
from __future__ import annotations

import ast

FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
MAX_DEPTH = 24  # hops followed for one value
RUNNER_ENTRIES = ("run_test", "run_bench")  # tirx_kernels/runner.py:19-21, 47-56, 86-108 at 8721e86


class MatchBuf:
    """A `T.match_buffer(...)` of the driver, with its evaluated shape, dtype and scope."""

    def __init__(self, name, rel, call, shape, dtype, scope):
        self.name, self.rel, self.call, self.shape, self.dtype, self.scope = name, rel, call, shape, dtype, scope

    def key(self):
        return ("match_buffer", tuple(self.shape), self.dtype, self.scope)

    @property
    def where(self):
        return f"{self.rel}:{self.call.lineno}"


class Stop(Exception):
    """A hop that is not followed: the reason, naming where."""


def _walk(tree):
    """(node, enclosing functions (outermost first), enclosing class of the outermost function)."""
    def rec(node, funcs, cls):
        for ch in ast.iter_child_nodes(node):
            yield ch, funcs, cls
            if isinstance(ch, ast.ClassDef):
                yield from rec(ch, funcs, ch if not funcs else cls)
            elif isinstance(ch, FUNCS):
                yield from rec(ch, funcs + [ch], cls)
            else:
                yield from rec(ch, funcs, cls)
    yield from rec(tree, [], None)


def _params(fn):
    a = fn.args
    return a.posonlyargs + a.args


def _has_param(fn, name):
    a = fn.args
    return any(p.arg == name for p in a.posonlyargs + a.args + a.kwonlyargs) or \
        (a.vararg is not None and a.vararg.arg == name) or (a.kwarg is not None and a.kwarg.arg == name)


def _top_binds(fn, name):
    """The statements directly in fn's body that bind `name` (`name = v`, `name: t = v`), and
    whether any other statement of fn binds it (in a branch, a loop, a with, as a target)."""
    top = [st for st in fn.body if isinstance(st, ast.Assign) and len(st.targets) == 1 and
           isinstance(st.targets[0], ast.Name) and st.targets[0].id == name or
           isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name) and st.target.id == name and
           st.value is not None]
    other = False
    for node in ast.walk(fn):
        if node in top or node is fn:
            continue
        if isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, ast.Store):
            if not any(node in (t.targets[0] if isinstance(t, ast.Assign) else t.target,) for t in top):
                other = True
        if isinstance(node, FUNCS) and node.name == name:
            other = True
    return top, other


class Follower:
    """One extraction's hop-following over the package's files."""

    def __init__(self, files, drv, overrides, ex):
        import kernel_env
        self.files = files  # [(rel, tree)]
        self.drv, self.overrides, self.ex = drv, overrides, ex
        self.kenv = kernel_env
        self.trail: list = []
        self.depth = 0
        self.inst = None
        self.dcls = None  # (rel, ClassDef) of the driver class

    # -- where things are -----------------------------------------------------------------------
    def tree_of(self, rel):
        for r, t in self.files:
            if r == rel:
                return t
        raise Stop(f"{rel} is not read")

    def module_env(self, rel):
        dotted_name = rel[:-3].replace("/", ".")
        if dotted_name.endswith(".__init__"):
            dotted_name = dotted_name[: -len(".__init__")]
        mv = self.kenv.package_module(dotted_name)
        return dict(mv.env) if mv is not None else {}

    def method_of_driver(self, name):
        """The FunctionDef (rel, node) the driver class's MRO resolves `name` to."""
        import tile_class
        cv = self.inst.cls if self.inst is not None else None
        if cv is None:
            raise Stop("the driver class is not read")
        got = cv.find(name)
        if got is None or got[1] != "method":
            raise Stop(f"{cv.name}.{name} is not a method the extraction reads")
        owner, _, fn = got
        home = owner.env.get(self.kenv.FILE_KEY)
        for rel, tree in self.files:
            if rel == home or rel.endswith("/" + str(home)):
                for node in ast.walk(tree):
                    if isinstance(node, FUNCS) and node.name == name and node.lineno == fn.lineno:
                        return rel, node
        del tile_class
        raise Stop(f"{cv.name}.{name} (line {fn.lineno}) is not found in the package's files")

    def in_driver_method(self, funcs, cls):
        """Is the scope a method of the driver class (or a function nested in one)? Its self name."""
        if not funcs or cls is None or self.dcls is None or cls is not self.dcls[1]:
            return None
        if funcs[0] not in cls.body or not _params(funcs[0]):
            return None
        return _params(funcs[0])[0].arg

    # -- hops ---------------------------------------------------------------------------------
    def tile_attr(self):
        """The driver attribute the construction is bound to (`self.gate`)."""
        rel = self.drv.rel
        tree = self.tree_of(rel)
        for node, funcs, cls in _walk(tree):
            if not isinstance(node, ast.Assign) or not funcs:
                continue
            call = node.value
            hit = [c for c in ast.walk(call) if isinstance(c, ast.Call) and c.lineno == self.drv.call.lineno and
                   c.col_offset == self.drv.call.col_offset]
            if not hit:
                continue
            self.dcls = (rel, cls)
            fn = funcs[0]
            selfn = _params(fn)[0].arg if cls is not None and fn in cls.body and _params(fn) else None
            t = node.targets[0] if len(node.targets) == 1 else None
            if selfn is None or not (isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and
                                     t.value.id == selfn):
                raise Stop(f"the construction {self.drv.where} is not bound to an attribute of the driver "
                           f"instance (`self.X = ...`)")
            if call is not hit[0]:
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and
                        isinstance(call.func.value, ast.Name) and call.func.value.id == selfn and
                        hit[0] in call.args):
                    raise Stop(f"the construction {self.drv.where} is inside {ast.unparse(call)[:60]}, not "
                               "the argument of a method of the driver")
                i = call.args.index(hit[0])
                mrel, m = self.method_of_driver(call.func.attr)
                ps = _params(m)
                if any(isinstance(a, ast.Starred) for a in call.args[: i + 1]) or i + 1 >= len(ps):
                    raise Stop(f"{call.func.attr}'s parameter for the construction is not known")
                pname = ps[i + 1].arg
                rets = [r for r in self._own(m) if isinstance(r, ast.Return)]
                if not rets or not all(isinstance(r.value, ast.Name) and r.value.id == pname for r in rets):
                    raise Stop(f"{call.func.attr} ({mrel}:{m.lineno}) does not return its parameter {pname} on "
                               "every return, so what self." + t.attr + " holds is not followed")
                self.trail.append(f"self.{t.attr} = {call.func.attr}({ast.unparse(hit[0].func)}(...), ...) at "
                                  f"{rel}:{node.lineno} ({call.func.attr}, {mrel}:{m.lineno}, returns {pname})")
            else:
                self.trail.append(f"self.{t.attr} = {ast.unparse(call.func)}(...) at {rel}:{node.lineno}")
            return t.attr
        raise Stop(f"the statement holding the construction {self.drv.where} is not an assignment")

    @staticmethod
    def _own(fn):
        """Nodes of fn's body, not of functions or classes nested in it."""
        out, todo = [], list(fn.body)
        while todo:
            n = todo.pop()
            out.append(n)
            todo.extend(c for c in ast.iter_child_nodes(n) if not isinstance(c, FUNCS + (ast.ClassDef, ast.Lambda)))
        return out

    def forward_site(self, attr, entry):
        """(call of the forwarder, its scope, the forwarder def, its rel): the one `self.F(self.attr,
        ...)` in a driver method whose F calls `P.entry(...)` on its parameter P."""
        sites, seen = [], []
        for rel, tree in self.files:
            for node, funcs, cls in _walk(tree):
                if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                    continue
                selfn = self.in_driver_method(funcs, cls)
                if selfn is None or not (isinstance(node.func.value, ast.Name) and node.func.value.id == selfn):
                    continue
                if not any(isinstance(a, ast.Attribute) and isinstance(a.value, ast.Name) and a.value.id == selfn
                           and a.attr == attr for a in node.args):
                    continue
                try:
                    frel, f = self.method_of_driver(node.func.attr)
                except Stop:
                    continue
                fwd = self._forwards(f, entry)
                if fwd is None:
                    continue
                i = [j for j, a in enumerate(node.args) if isinstance(a, ast.Attribute) and a.attr == attr]
                if _params(f)[1:][i[0]:i[0] + 1] and _params(f)[1:][i[0]].arg == fwd[0]:
                    sites.append((node, (rel, funcs, cls), f, frel, fwd[1]))
                    seen.append(f"{rel}:{node.lineno}")
        if not sites:
            raise Stop(f"no driver method passes self.{attr} to a method that calls its {entry}")
        if len(sites) > 1:
            raise Stop(f"{len(sites)} calls pass self.{attr} to {entry} ({', '.join(seen[:4])}): which one is "
                       "modelled is a choice, not made")
        return sites[0]

    def _forwards(self, f, entry):
        """(P, the call `P.entry(...)`) when f calls entry on one of its parameters, once."""
        calls = [n for n in self._own(f) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
                 n.func.attr == entry and isinstance(n.func.value, ast.Name) and _has_param(f, n.func.value.id)]
        if len(calls) != 1:
            return None
        return calls[0].func.value.id, calls[0]

    def run_args(self, entry, efn):
        """{run parameter: (expression, scope)} as the forwarder's call binds them."""
        attr = self.tile_attr()
        call, scope, f, frel, inner = self.forward_site(attr, entry)
        self.trail.append(f"{f.name}(self.{attr}, ...) at {scope[0]}:{call.lineno}, which calls "
                          f"{ast.unparse(inner.func)}(...) at {frel}:{inner.lineno}")
        fp = _params(f)[1:]
        bound, extra = {}, []
        for j, a in enumerate(call.args):
            if isinstance(a, ast.Starred):
                raise Stop(f"{scope[0]}:{call.lineno} passes *{ast.unparse(a.value)}: not followed")
            if j < len(fp):
                bound[fp[j].arg] = a
            elif f.args.vararg is not None:
                extra.append(a)
            else:
                raise Stop(f"{scope[0]}:{call.lineno} passes more arguments than {f.name} takes")
        kextra = {}
        for k in call.keywords:
            if k.arg is None:
                raise Stop(f"{scope[0]}:{call.lineno} passes **{ast.unparse(k.value)}: not followed")
            if any(p.arg == k.arg for p in fp + f.args.kwonlyargs):
                bound[k.arg] = k.value
            elif f.args.kwarg is not None:
                kextra[k.arg] = k.value
        args, kwargs = [], {}
        va = f.args.vararg.arg if f.args.vararg is not None else None
        kw = f.args.kwarg.arg if f.args.kwarg is not None else None
        for a in inner.args:
            if isinstance(a, ast.Starred) and isinstance(a.value, ast.Name) and a.value.id == va:
                args.extend(extra)
            elif isinstance(a, ast.Name) and a.id in bound:
                args.append(bound[a.id])
            else:
                args.append(None)  # an expression of the forwarder itself: not followed
        for k in inner.keywords:
            if k.arg is None and isinstance(k.value, ast.Name) and k.value.id == kw:
                kwargs.update(kextra)
            elif k.arg is not None and isinstance(k.value, ast.Name) and k.value.id in bound:
                kwargs[k.arg] = bound[k.value.id]
            elif k.arg is not None:
                kwargs[k.arg] = None
        ep = _params(efn)  # a bound method's node, without its receiver (tile_class.bound)
        out = {}
        for j, a in enumerate(args):
            if j < len(ep):
                out[ep[j].arg] = a
        for k, v in kwargs.items():
            out[k] = v
        return out, scope

    # -- values -------------------------------------------------------------------------------
    def value(self, node, scope):
        """The value of the expression `node` in `scope` (rel, funcs, cls), as Python has it there."""
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                raise Stop(f"more than {MAX_DEPTH} hops")
            return self._value(node, scope)
        finally:
            self.depth -= 1

    def _value(self, node, scope):
        from corpus_notation import dotted, strip_builder
        rel, funcs, cls = scope
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            return self.name(node.id, scope, node.lineno)
        selfn = self.in_driver_method(funcs, cls)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == selfn:
            return self.attr(node.attr, None, rel, node.lineno)
        if isinstance(node, ast.Attribute):
            base = self.value(node.value, scope)
            if isinstance(base, self.kenv.Scheduler):
                if not self.kenv.convention_on():
                    raise Stop(f"{ast.unparse(node)} ({rel}:{node.lineno}) is a field of the driver's tile "
                               "scheduler, known only at run time (--instance none)")
                what = (f"{node.attr}: the driver passes {ast.unparse(node)} ({rel}:{node.lineno}), a field of its "
                        f"tile scheduler {base.cls}: 0 for CTA 0 on its first tile")
                self.kenv.note_convention(what, node.lineno, 0)
                return self.kenv.SchedField(node.attr)
            return self.kenv.Evaluator({"__b": base}).value(
                ast.Attribute(value=ast.Name(id="__b", ctx=ast.Load()), attr=node.attr, ctx=ast.Load()))
        if isinstance(node, ast.Call):
            fname = strip_builder(dotted(node.func) or "")
            if isinstance(node.func, ast.Name) and node.func.id == "getattr" and len(node.args) == 3 and \
                    isinstance(node.args[0], ast.Name) and node.args[0].id == selfn and \
                    isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str):
                return self.attr(node.args[1].value, (node.args[2], scope), rel, node.lineno)
            if fname.split(".")[-1] == "meta_var" and len(node.args) == 1 and not node.keywords:
                return self.value(node.args[0], scope)
            if fname.split(".")[-1] == "match_buffer" and (dotted(node.func) or "").startswith(("T.", "Tx.", "tirx.")):
                return self.match_buffer(node, scope)
        env = {}
        for n in ast.walk(node):
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id not in env:
                env[n.id] = self.name(n.id, scope, n.lineno)
        try:
            return self.kenv.Evaluator(env).value(node)
        except self.kenv.UnresolvedError as e:
            raise Stop(f"{ast.unparse(node)} at {rel}:{node.lineno}: {e}")
        except (self.kenv.ConvertError, ArithmeticError, TypeError, ValueError, KeyError, IndexError,
                AttributeError) as e:
            raise Stop(f"{ast.unparse(node)} at {rel}:{node.lineno} is not evaluated: {e}")

    def match_buffer(self, call, scope):
        rel = scope[0]
        kw = {k.arg: k.value for k in call.keywords if k.arg}
        import tir_buffers
        if any(k in kw for k in tir_buffers.REFUSED_KEYWORDS) or any(k.arg is None for k in call.keywords) or \
                "layout" in kw or len(call.args) > 3 or len(call.args) < 2 and "shape" not in kw:
            raise Stop(f"the match_buffer at {rel}:{call.lineno} has a form not modelled (strides, layout, ...)")
        shape = call.args[1] if len(call.args) > 1 else kw["shape"]
        dims = [self.value(d, scope) for d in (shape.elts if isinstance(shape, (ast.Tuple, ast.List)) else [shape])]
        if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in dims):
            raise Stop(f"the match_buffer at {rel}:{call.lineno} has a shape that is not integers: {dims}")
        dt = call.args[2] if len(call.args) > 2 else kw.get("dtype")
        dtype = self.value(dt, scope) if dt is not None else "float32"
        sc = self.value(kw["scope"], scope) if "scope" in kw else "global"
        return MatchBuf(None, rel, call, [int(d) for d in dims], str(dtype), sc)

    def name(self, name, scope, line):
        rel, funcs, cls = scope
        for k in range(len(funcs) - 1, -1, -1):
            fn = funcs[k]
            if _has_param(fn, name):
                return self.param(name, fn, k, scope, line)
            top, other = _top_binds(fn, name)
            if top or other:
                if name in self.overrides:
                    return self.given(name, f"{rel}:{top[0].lineno if top else fn.lineno}")
                if other or len(top) != 1:
                    raise Stop(f"{name} is bound {'in a branch or loop' if other else 'more than once'} of "
                               f"{fn.name} ({rel}:{fn.lineno}): which value reaches the use is not followed")
                self.trail.append(f"{name} = {ast.unparse(top[0].value)[:60]} at {rel}:{top[0].lineno}")
                return self.value(top[0].value, (rel, funcs[:k + 1], cls))
        env = self.module_env(rel)
        if name in env:
            v = env[name]
            if isinstance(v, self.kenv.Unresolved):
                raise Stop(f"{name} ({rel}): {v.reason}")
            return v
        raise Stop(f"{name} at {rel}:{line} is not a name the driver's module binds")

    def given(self, name, where):
        v = self.overrides[name]
        self.ex.config.setdefault(name, {"value": v, "origin": f"--param (the driver's {name}, {where})"})
        self.trail.append(f"{name} = {v!r} (--param, at {where})")
        return v

    def param(self, name, fn, k, scope, line):
        rel, funcs, cls = scope
        outer = funcs[:k]
        selfn = self.in_driver_method(funcs, cls)
        is_method = k == 0 and cls is not None and fn in cls.body
        if is_method and _params(fn) and _params(fn)[0].arg == name:
            if selfn == name and self.inst is not None:
                return self.inst
            raise Stop(f"{name}, the receiver of {cls.name}.{fn.name}, is not the driver's instance")
        if name in self.overrides:
            return self.given(name, f"parameter of {fn.name}, {rel}:{fn.lineno}")
        # the calls of fn: self.fn(...) in a driver method (a method), fn(...) in the same enclosing
        # function (a nested function) or anywhere in the package (a module function)
        calls = []
        for crel, tree in self.files:
            for node, cf, ccls in _walk(tree):
                if not isinstance(node, ast.Call):
                    continue
                if is_method:
                    cs = self.in_driver_method(cf, ccls)
                    ok = cs is not None and isinstance(node.func, ast.Attribute) and node.func.attr == fn.name and \
                        isinstance(node.func.value, ast.Name) and node.func.value.id == cs
                elif k > 0:
                    ok = crel == rel and cf[:k] == outer and isinstance(node.func, ast.Name) and node.func.id == fn.name
                else:
                    ok = isinstance(node.func, ast.Name) and node.func.id == fn.name and \
                        (crel == rel or self._imports(tree, rel, fn.name))
                if ok:
                    calls.append((node, (crel, cf, ccls)))
        ps = _params(fn)[1:] if is_method or (k > 0 and False) else _params(fn)
        a = fn.args
        defaults = dict(zip([p.arg for p in _params(fn)][len(_params(fn)) - len(a.defaults):], a.defaults))
        defaults.update({p.arg: d for p, d in zip(a.kwonlyargs, a.kw_defaults) if d is not None})
        if not calls:
            if name in defaults:
                self.trail.append(f"{name}: default of {fn.name}'s parameter ({rel}:{fn.lineno})")
                return self.value(defaults[name], (rel, outer, cls))
            return self.runner_config(name, fn, rel, k)
        vals = []
        for node, cscope in calls:
            idx = [p.arg for p in ps].index(name) if name in [p.arg for p in ps] else None
            arg = None
            if any(isinstance(x, ast.Starred) for x in node.args[: (idx or 0) + 1]) or \
                    any(kk.arg is None for kk in node.keywords):
                raise Stop(f"the call of {fn.name} at {cscope[0]}:{node.lineno} passes *args / **kwargs")
            if idx is not None and idx < len(node.args):
                arg = node.args[idx]
            for kk in node.keywords:
                if kk.arg == name:
                    arg = kk.value
            mark = len(self.trail)
            if arg is None:
                if name not in defaults:
                    raise Stop(f"the call of {fn.name} at {cscope[0]}:{node.lineno} does not pass {name}")
                v = self.value(defaults[name], (rel, outer, cls))
            else:
                self.trail.append(f"{name} of {fn.name} ({rel}:{fn.lineno}) from the call at "
                                  f"{cscope[0]}:{node.lineno}")
                v = self.value(arg, cscope)
            vals.append((v, f"{cscope[0]}:{node.lineno}", self.trail[mark:]))
            del self.trail[mark:]
        keys = {self._key(v) for v, _, _ in vals}
        if len(keys) != 1:
            raise Stop(f"{name} of {fn.name} ({rel}:{fn.lineno}) differs between its {len(vals)} calls ("
                       + ", ".join(f"{w}: {self._show(v)}" for v, w, _ in vals[:4])
                       + "): a choice, not made" + ("" if any(isinstance(v, MatchBuf) for v, _, _ in vals)
                                                   else f" (--param {name} sets it)"))
        if len(vals) > 1:
            self.trail.append(f"{name} of {fn.name} ({rel}:{fn.lineno}): its {len(vals)} calls ("
                              + ", ".join(w for _, w, _ in vals) + ") all pass the same value")
        self.trail.extend(vals[0][2])
        return vals[0][0]

    def _imports(self, tree, rel, name):
        mod = rel[:-3].replace("/", ".")
        return any(isinstance(st, ast.ImportFrom) and st.level == 0 and st.module == mod and
                   any(a.name == name and (a.asname or a.name) == name for a in st.names) for st in tree.body)

    def _key(self, v):
        if isinstance(v, MatchBuf):
            return v.key()
        if isinstance(v, self.kenv.Scheduler):
            return ("scheduler",)
        try:
            hash(v)
            return ("value", type(v).__name__, v)
        except TypeError:
            return ("object", id(v))

    @staticmethod
    def _show(v):
        if isinstance(v, MatchBuf):
            return f"match_buffer {v.shape} {v.dtype} ({v.where})"
        return repr(v)[:40]

    def runner_config(self, name, fn, rel, k):
        """A parameter without default of a function nothing in the package calls: the runner's
        first configuration for run_test / run_bench (runner.py:19-21 at 8721e86), else unresolved."""
        why = (f"parameter {name} of {fn.name} ({rel}:{fn.lineno}) has no default and nothing in the package "
               f"calls {fn.name}")
        if k != 0 or fn.name not in RUNNER_ENTRIES:
            raise Stop(why + f"; --param {name} sets it")
        env = self.module_env(rel)
        cfgs = env.get("CONFIGS")
        if not isinstance(cfgs, (list, tuple)) or not cfgs or not isinstance(cfgs[0], dict) or name not in cfgs[0]:
            raise Stop(why + f"; the module's CONFIGS[0] does not give it; --param {name} sets it")
        v = cfgs[0][name]
        line = next((st.lineno for st in self.tree_of(rel).body if isinstance(st, ast.Assign) and
                     any(isinstance(t, ast.Name) and t.id == "CONFIGS" for t in st.targets)), None)
        what = (f"{name} = CONFIGS[0][{name!r}] ({rel}:{line}), the first configuration of the module: the package's "
                f"runner calls {fn.name}(**config) for its CONFIGS entries (tirx_kernels/runner.py:19-21), and "
                f"{fn.name} ({rel}:{fn.lineno}) has no default for {name}")
        self.ex.config.setdefault(name, {"value": v, "origin": what})
        self.trail.append(f"{name} = {v!r}: CONFIGS[0] ({rel}:{line}) for {fn.name}")
        return v

    def attr(self, name, default, rel, line):
        """An attribute of the driver instance, read at rel:line (`self.N`, `getattr(self, N, d)`)."""
        import tile_class
        stores = []
        for srel, tree in self.files:
            for node, funcs, cls in _walk(tree):
                tgt = node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else \
                    node.target if isinstance(node, ast.AnnAssign) and node.value is not None else None
                if isinstance(tgt, ast.Attribute) and tgt.attr == name and funcs and funcs[-1].name != "__init__":
                    stores.append((node, (srel, funcs, cls)))
        if not stores:
            try:
                v = tile_class.attr_of(self.inst, name)
            except Exception as e:  # noqa: BLE001 - any failure of the lookup: the attribute is not known
                if default is not None:
                    self.trail.append(f"getattr(self, {name!r}, ...) at {rel}:{line}: nothing stores {name}, "
                                      "so the default")
                    return self.value(*default)
                raise Stop(f"self.{name} at {rel}:{line}: {e}")
            if isinstance(v, self.kenv.Unresolved):
                raise Stop(f"self.{name} at {rel}:{line}: {v.reason}")
            return v
        if len(stores) > 1:
            raise Stop(f"self.{name} at {rel}:{line} is stored at {len(stores)} places of the package ("
                       + ", ".join(f"{s[0]}:{n.lineno}" for n, s in stores[:4]) + "): which one holds is not followed")
        node, sscope = stores[0]
        srel, sfuncs, scls = sscope
        tgt = node.targets[0] if isinstance(node, ast.Assign) else node.target
        val = node.value
        sched = [x for x in ([node.annotation] if isinstance(node, ast.AnnAssign) else []) +
                 ([val.func] if isinstance(val, ast.Call) else [])
                 if "Scheduler" in (ast.unparse(x).split(".")[-1])]
        if sched and isinstance(val, ast.Call):
            self.trail.append(f"self.{name} = {ast.unparse(val)[:50]} at {srel}:{node.lineno}, a tile scheduler")
            return self.kenv.Scheduler(ast.unparse(sched[0]).split(".")[-1], node.lineno)
        base = tgt.value
        fn = sfuncs[-1]
        ok = isinstance(base, ast.Name) and not _has_param(fn, base.id)
        if ok:
            top, other = _top_binds(fn, base.id)
            ok = len(top) == 1 and not other and isinstance(top[0].value, ast.Call) and \
                isinstance(top[0].value.func, ast.Name) and self.dcls is not None and \
                top[0].value.func.id == self.dcls[1].name and top[0] in fn.body and node in fn.body and \
                fn.body.index(top[0]) < fn.body.index(node)
        if not ok:
            raise Stop(f"self.{name} at {rel}:{line} is stored at {srel}:{node.lineno} "
                       f"({ast.unparse(tgt)} = ...), a store on an object not followed")
        self.trail.append(f"self.{name}: {ast.unparse(tgt)} = {ast.unparse(val)[:40]} at {srel}:{node.lineno}, "
                          f"after {base.id} = {self.dcls[1].name}(...) at {srel}:{top[0].lineno}")
        return self.value(val, sscope)


def driver_names(cls_name: str) -> set:
    """The names the package's files that construct `cls_name` read (extract.read_names): the
    hops of run's arguments start there, so a --param for one of them may change the model."""
    import extract
    import kernel_env
    import tile_driver
    kmod = tile_driver._module_of(kernel_env.SETTINGS.get("source_path") or "")
    if kmod is None:
        return set()
    top = kmod.split(".")[0]
    root = tile_driver._root(top)
    if root is None:
        return set()
    out = set()
    for rel, tree in tile_driver._package_files(root, top):
        if rel != kernel_env.SETTINGS.get("source_path") and tile_driver._bound_name(tree, kmod, cls_name, root) and \
                any(isinstance(c, ast.Call) and isinstance(c.func, ast.Name) and
                    c.func.id == tile_driver._bound_name(tree, kmod, cls_name, root) for c in ast.walk(tree)):
            out |= extract.read_names(tree)
    return out


def entry_args(cls, entry: str, fv, overrides: dict, ex):
    """({parameter: value or Stop reason}, note): what the driver passes to `cls.entry` (run), for
    the parameters of the entry without --param; ({}, note) when no driver's construction was taken
    or its call of the entry is not followed."""
    import kernel_env
    import tile_class
    import tile_driver
    drv = tile_class.DRIVER_FOUND[0]
    if drv is None:
        return {}, tile_class.DRIVER_NOTE[0] or (
            f"the driver's construction of {cls.name} is not taken (its __init__ arguments are --param's or "
            "defaults), so which call of the driver passes these is not followed (one configuration, taken whole)")
    kmod = tile_driver._module_of(kernel_env.SETTINGS.get("source_path") or "")
    top = kmod.split(".")[0]
    root = tile_driver._root(top)
    files = list(tile_driver._package_files(root, top))
    f = Follower(files, drv, overrides, ex)
    f.inst = drv.instance
    try:
        exprs, scope = f.run_args(entry, fv.node)
    except Stop as e:
        return {}, str(e)
    out = {}
    head = list(f.trail)
    for p, e in exprs.items():
        f.trail = list(head)
        if e is None:
            out[p] = Stop(f"the forwarder passes an expression of its own for {p}: not followed")
            continue
        try:
            v = f.value(e, scope)
            out[p] = (v, head + [f"{p} = {ast.unparse(e)} at {scope[0]}:{e.lineno}"] + f.trail[len(head):])
        except Stop as s:
            out[p] = Stop(f"{p} = {ast.unparse(e)} at {scope[0]}:{e.lineno}: {s}")
    return out, None


def bind(p: str, got, fv, cls, entry: str, ex):
    """The extraction's value for run's parameter p from entry_args' result: a MatchBuf becomes
    the global buffer named p (its origin and hops in the buffer's notes), a value is recorded in
    extraction.config; a Stop is an Unresolved naming the hop."""
    import allocators
    import kernel_env
    line = fv.node.lineno
    if isinstance(got, Stop):
        return kernel_env.Unresolved(p, line, f"parameter {p} of {cls.name}.{entry}, passed by the driver: {got}")
    v, trail = got
    hops = "; ".join(trail)
    if isinstance(v, MatchBuf):
        if v.scope not in allocators.SCOPES:
            return kernel_env.Unresolved(p, line, f"the driver's match_buffer at {v.where} has scope {v.scope!r}")
        ref = allocators._emit(ex, p, v.scope, tuple(v.shape), v.dtype, allocators.row_major(tuple(v.shape)),
                               line, v.call)
        ref.start_bytes = 0
        for b in ex.buffers:
            if b["name"] == ref.name and "driver's" not in b.get("notes", ""):
                text = ast.unparse(v.call)
                b["origin"] = f"{v.where} {text[:197] + '...' if len(text) > 200 else text}"
                b["notes"] = (b["notes"] + "; " if b.get("notes") else "") + \
                    f"the driver's global buffer passed as {cls.name}.{entry}'s {p}: {hops}"
        return ref
    if isinstance(v, kernel_env.SchedField):
        return v
    ex.config.setdefault(p, {"value": v, "origin": f"the driver's argument of {cls.name}.{entry}: {hops}"[:600]})
    return v
