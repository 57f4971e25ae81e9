"""Configuration classes of a kernel file, evaluated statically (docs/extract.md, "Configuration
classes").

Kernel files describe their configuration with `@dataclass` classes (`MQALogitsFP8Config`,
`SparseFlashMLAPrefillHead64Config`, ...): fields with defaults, `@property` methods and plain
methods that compute an expression of the fields, a `validate()` that raises on a bad
configuration, and the `dataclasses` functions `asdict`, `fields`, `replace`.  This module gives
those the meaning Python gives them (Python 3.12 Language Reference 3.3 "Data model",
`dataclasses` module documentation: the generated `__init__` takes the fields in definition
order, positionally or by keyword, each default evaluated once at class definition; a field
without a default must be passed; an unknown keyword is a TypeError):

    value               meaning
    ------------------  ---------------------------------------------------------------------
    DataclassDef        the class: calling it constructs a DataInstance (fields bound by the
                        generated __init__, then __post_init__ if the class defines one)
    DataInstance        an instance: `x.field` its value, `x.prop` a @property evaluated
                        with `self` bound, `x.method(...)` a method run on concrete arguments
    FieldInfo           what `dataclasses.fields(C)` lists (`.name`, `.default`)

Only classes decorated `@dataclass` / `@dataclass(...)` / `@dataclasses.dataclass(...)` are
evaluated (their semantics is fixed by the standard library); any other class stays
undetermined.  Method bodies run with kernel_env.run_straight (assignments, decided ifs,
returns, raises): a `raise` reached at the configuration is reported as such, never skipped.
`--param NAME=VALUE` sets the field NAME of every instance constructed (OVERRIDES, set by
extract.py); each such setting is recorded in FIELD_OVERRIDES.

Python 3 standard library only.
"""
from __future__ import annotations

import ast

from corpus_notation import ConvertError, dotted

OVERRIDES: dict = {}          # --param NAME=VALUE (extract.py sets it before a walk)
FIELD_OVERRIDES: dict = {}    # (class, field) -> value: fields that --param set
MAX_METHOD_DEPTH = 8          # methods / properties calling each other


class FieldInfo:
    def __init__(self, name: str, default):
        self.name, self.default = name, default


class DataclassDef:
    """A `@dataclass` class of the file: its fields (definition order, annotated class
    attributes that are not `ClassVar`), their default expressions, and its methods."""

    def __init__(self, node: ast.ClassDef, env: dict, bases: list):
        self.node, self.env, self.name = node, env, node.name
        self.fields: list[tuple[str, ast.expr | None, int]] = []
        self.methods: dict[str, ast.FunctionDef] = {}
        self.properties: set[str] = set()
        self.statics: set[str] = set()
        for b in bases:  # fields and methods of a dataclass base come first (dataclasses docs)
            self.fields.extend(f for f in b.fields if f[0] not in {x[0] for x in self.fields})
            self.methods.update(b.methods)
            self.properties |= b.properties
            self.statics |= b.statics
        for st in node.body:
            if isinstance(st, ast.AnnAssign) and isinstance(st.target, ast.Name):
                ann = ast.unparse(st.annotation)
                if ann.startswith(("ClassVar", "typing.ClassVar")):
                    continue
                default = st.value
                if isinstance(default, ast.Call) and (dotted(default.func) or "").split(".")[-1] == "field":
                    kw = {k.arg: k.value for k in default.keywords}
                    default = kw.get("default")
                    if default is None and "default_factory" in kw:
                        default = ast.Call(func=kw["default_factory"], args=[], keywords=[])
                        ast.copy_location(default, st)
                self.fields = [f for f in self.fields if f[0] != st.target.id]
                self.fields.append((st.target.id, default, st.lineno))
            elif isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.methods[st.name] = st
                decos = {(dotted(d) or "").split(".")[-1] for d in st.decorator_list}
                if "property" in decos or "cached_property" in decos:
                    self.properties.add(st.name)
                if "staticmethod" in decos:
                    self.statics.add(st.name)
        self._defaults: dict | None = None

    def defaults(self, ev) -> dict:
        """Each field's default, evaluated once in the class's defining environment (as at
        class definition); a default the source does not fix is its Unresolved."""
        if self._defaults is None:
            import kernel_env
            out = {}
            for name, node, line in self.fields:
                if node is not None:
                    out[name] = kernel_env.eval_or_unresolved(kernel_env.Evaluator(self.env, ev.depth), node,
                                                              f"{self.name}.{name}", line)
            self._defaults = out
        return self._defaults

    def construct(self, args: list, kwargs: dict, ev) -> "DataInstance":
        """The generated __init__: positional then keyword arguments, then defaults."""
        names = [f[0] for f in self.fields]
        if len(args) > len(names):
            raise ConvertError(f"{self.name}() takes {len(names)} fields, {len(args)} positional arguments given "
                               "(a TypeError in Python)")
        values = dict(zip(names, args))
        for k, v in kwargs.items():
            if k not in names:
                raise ConvertError(f"{self.name}() got an unexpected keyword argument {k!r} (a TypeError in Python)")
            if k in values:
                raise ConvertError(f"{self.name}() got multiple values for field {k!r} (a TypeError in Python)")
            values[k] = v
        defaults = self.defaults(ev)
        for n in names:
            if n in OVERRIDES:
                values[n] = OVERRIDES[n]
                FIELD_OVERRIDES[(self.name, n)] = OVERRIDES[n]
            elif n not in values:
                if n not in defaults:
                    raise ConvertError(f"{self.name}() missing required field {n!r} (a TypeError in Python)")
                values[n] = defaults[n]
        inst = DataInstance(self, values)
        if "__post_init__" in self.methods:
            call_method(inst, "__post_init__", [], {}, ev)
        return inst

    def attr(self, name: str, ev):
        """`C.name`: a field's default, or a static method."""
        if name in self.statics:
            return lambda *a, **k: run_function(self.methods[name], self.env, a, k, ev)
        d = self.defaults(ev)
        if name in d:
            return _known(d[name])
        raise ConvertError(f"{self.name}.{name}: not a field default or static method of the class")


class DataInstance:
    def __init__(self, cls: DataclassDef, values: dict):
        self.cls, self.values = cls, values

    def attr(self, name: str, ev):
        if name in self.values:
            return _known(self.values[name])
        c = self.cls
        if name in c.properties:
            return call_method(self, name, [], {}, ev)
        if name in c.statics:
            return lambda *a, **k: run_function(c.methods[name], c.env, a, k, ev)
        if name in c.methods:
            return lambda *a, **k: call_method(self, name, list(a), k, ev)
        raise ConvertError(f"{c.name} has no field, property or method {name!r}")

    def __repr__(self):
        return f"{self.cls.name}({', '.join(f'{k}={v!r}' for k, v in self.values.items())})"


def _known(v):
    import kernel_env
    if isinstance(v, kernel_env.Unresolved):
        raise kernel_env.UnresolvedError(v)
    return v


def call_method(inst: DataInstance, name: str, args: list, kwargs: dict, ev):
    return run_function(inst.cls.methods[name], inst.cls.env, [inst] + list(args), kwargs, ev)


def run_function(fn: ast.FunctionDef, closure: dict, args, kwargs: dict, ev):
    """Run a method body on concrete arguments in the class's defining environment."""
    import kernel_env
    if ev.depth >= MAX_METHOD_DEPTH:
        raise ConvertError(f"methods call each other deeper than {MAX_METHOD_DEPTH}")
    env = dict(closure)
    kernel_env.bind_arguments(fn, list(args), dict(kwargs), env, ev)
    sub = kernel_env.Evaluator(env, ev.depth + 1, ev.thread)
    try:
        kernel_env.run_straight(fn.body, env, sub)
    except kernel_env._Return as r:
        return r.value
    return None


def dataclass_def(st: ast.ClassDef, env: dict):
    """A DataclassDef for a class decorated as a dataclass; else None."""
    for d in st.decorator_list:
        f = d.func if isinstance(d, ast.Call) else d
        if (dotted(f) or "") in ("dataclass", "dataclasses.dataclass"):
            bases = [env[b.id] for b in st.bases if isinstance(b, ast.Name) and isinstance(env.get(b.id), DataclassDef)]
            return DataclassDef(st, env, bases)
    return None


DATACLASS_FUNCS = ("asdict", "astuple", "fields", "replace", "is_dataclass")


def dataclass_function(name: str, args: list, kwargs: dict, ev):
    """The `dataclasses` module's functions on this module's values (their documented meaning)."""
    if name == "is_dataclass" and len(args) == 1:
        return isinstance(args[0], (DataclassDef, DataInstance))
    if not args:
        raise ConvertError(f"dataclasses.{name}() without an argument")
    x = args[0]
    if name == "fields" and isinstance(x, (DataclassDef, DataInstance)):
        c = x if isinstance(x, DataclassDef) else x.cls
        d = c.defaults(ev)
        return tuple(FieldInfo(n, d.get(n)) for n, _, _ in c.fields)
    if not isinstance(x, DataInstance):
        raise ConvertError(f"dataclasses.{name}() of something that is not a dataclass instance of this file")
    if name == "asdict":
        return {k: _known(v) for k, v in x.values.items()}
    if name == "astuple":
        return tuple(_known(v) for v in x.values.values())
    if name == "replace" and len(args) == 1:
        vals = dict(x.values)
        for k in kwargs:
            if k not in vals:
                raise ConvertError(f"replace(): {x.cls.name} has no field {k!r} (a TypeError in Python)")
        vals.update(kwargs)
        return x.cls.construct([], vals, ev)
    raise ConvertError(f"dataclasses.{name}() with these arguments is not evaluated")


def entry_defaults(need: list, env: dict, ev):
    """(class name, {parameter: value}) when exactly one @dataclass configuration class visible in
    `env` (the file's own or imported from a module it reads) has a field with a default for each
    name in `need` (an entry point's parameters that have no default and no call site in the
    file): `C()`, built by its generated __init__ (so __post_init__ runs), is the default
    configuration the runner's keyword arguments come from (docs/corpus-conversion.md, "Default
    configuration": a dataclass default).  None when no class or more than one fits."""
    import kernel_env
    if not need:
        return None
    seen, fits = set(), []
    for v in env.values():
        if isinstance(v, DataclassDef) and id(v) not in seen:
            seen.add(id(v))
            d = v.defaults(ev)
            if all(n in d and not isinstance(d[n], kernel_env.Unresolved) for n in need):
                fits.append(v)
    if len(fits) != 1:
        return None
    try:
        inst = fits[0].construct([], {}, ev)
    except (ConvertError, kernel_env.UnresolvedError, kernel_env.CodeRaises):
        return None
    return fits[0].name, {n: inst.values[n] for n in need}

