"""Verification entry points: check, equivalent, load_kernel, check_kernel."""

import json
import os
import re

from . import _core
from ._cli import run_cli_json
from .errors import _input_error
from .layout import Layout, as_layout
from .report import Report

_DEFAULT_TIME_LIMIT = 60.0  # seconds, the CLI's default (--time-limit)
_RANGE = re.compile(r"^-?\d+\.\.-?\d+(:\d+)?$")


def _is_range(v):
    return isinstance(v, range) or (isinstance(v, str) and _RANGE.match(v)) or (isinstance(v, tuple) and len(v) in (2, 3))


def _range_text(v):
    if isinstance(v, range):
        if len(v) == 0:
            raise _input_error("cli.usage", f"empty parameter range {v!r}")
        return f"{v.start}..{v[-1]}:{v.step}"
    if isinstance(v, tuple):  # (lo, hi) or (lo, hi, step): inclusive, as --param LO..HI[:STEP]
        return f"{v[0]}..{v[1]}" + (f":{v[2]}" if len(v) == 3 else "")
    return v


def _text_of(layout):
    if isinstance(layout, str):
        return layout
    if isinstance(layout, Layout):
        return layout.builder()
    return str(as_layout(layout)) if not hasattr(layout, "to_iters") else as_layout(layout).builder()


def check(layout, shape=None, dtype=None, scope=None, alloc_cols=None, access=None, engine="auto", params=None,
          time_limit=None, *, alloc_elems=None, access_bytes=0, row_imm=None, cross_check=False,
          allow_broadcast=False, target="sm_100a", memory_limit_mb=None, z3_timeout_ms=20000) -> Report:
    """Run every registered check on one layout (what ``tirx-verify check`` does) and return a Report.

    layout     a layout, S[...] spec, notation text, or an object whose str() is notation (a TVM layout)
    shape      logical buffer shape (tuple of ints), elements
    dtype      TVM dtype name ("float16", "float32", "float8_e4m3fn", ...)
    scope      "shared", "shared.dyn", "global", "tmem", "local" (None: unknown)
    alloc_cols TMEM allocation in 32-bit columns (must be one tcgen05.alloc accepts)
    alloc_elems memory allocation on m, elements
    access     the register fragment layout of the threads that read/write the buffer (tmem.partition,
               tmem.datapath, smem.bank-conflicts); access_bytes: bytes per thread per instruction
    engine     "auto", "enum", "gf2" or "z3"; cross_check runs every applicable engine
    params     {name: int} binds names in notation text; {name: range(...) | (lo, hi[, step]) | "lo..hi:step"}
               asks for a proof for every binding (as --param; runs the command line in-process)
    time_limit seconds for the whole call (default 60); memory_limit_mb (default min(4096, RAM/2))
    Raises InputError for bad input; a failed check is a Report with ok False (raise_for_failures()).
    Ctrl-C interrupts a long proof (KeyboardInterrupt). The GIL is released while checks run.
    """
    params = dict(params or {})
    time_limit = _DEFAULT_TIME_LIMIT if time_limit is None else float(time_limit)
    memory = memory_limit_mb if memory_limit_mb is not None else _core.default_memory_mb()
    if any(_is_range(v) for v in params.values()):
        return _check_ranged(layout, shape, dtype, scope, alloc_cols, access, engine, params, time_limit,
                             alloc_elems, access_bytes, row_imm, cross_check, allow_broadcast, target, memory,
                             z3_timeout_ms)
    lay = as_layout(layout, params)
    acc = as_layout(access, params) if access is not None else None
    text = layout if isinstance(layout, str) else lay.builder()
    checks = _core.check(lay._h, text, list(shape) if shape is not None else None, dtype or "", scope or "unknown",
                         alloc_cols, alloc_elems, acc._h if acc else None, acc.builder() if acc else "", access_bytes,
                         row_imm, None, "", engine, cross_check, allow_broadcast, target, time_limit, memory,
                         z3_timeout_ms)
    return Report(text, lay.builder(), checks)


def _check_ranged(layout, shape, dtype, scope, alloc_cols, access, engine, params, time_limit, alloc_elems,
                  access_bytes, row_imm, cross_check, allow_broadcast, target, memory, z3_timeout_ms):
    text = _text_of(layout)
    args = ["check", text, "--json", "--engine", engine, "--target", target, "--time-limit", repr(time_limit),
            "--memory-limit", str(memory), "--z3-timeout-ms", str(z3_timeout_ms)]
    for k, v in params.items():
        args += ["--param", f"{k}={_range_text(v) if _is_range(v) else v}"]
    if shape is not None:
        args += ["--shape", ",".join(str(int(x)) for x in shape)]
    if dtype:
        args += ["--dtype", dtype]
    if scope:
        args += ["--scope", scope]
    if alloc_cols is not None:
        args += ["--alloc-cols", str(alloc_cols)]
    if alloc_elems is not None:
        args += ["--alloc-elems", str(alloc_elems)]
    if access is not None:
        args += ["--access", _text_of(access)]
    if access_bytes:
        args += ["--access-bytes", str(access_bytes)]
    if row_imm is not None:
        args += ["--row-imm", str(row_imm)]
    if cross_check:
        args.append("--cross-check")
    if allow_broadcast:
        args.append("--allow-broadcast")
    _, doc = run_cli_json(args, accept=(0, 1, 3))
    return Report(doc.get("layout", text), doc.get("resolved", text), doc["checks"])


def equivalent(a, b, shape=None, params=None, engine="auto", time_limit=None, cross_check=False) -> Report:
    """Whether two layouts are the same map (layout.equivalent): a Report holding that one check,
    ``ok`` True when they are; the witness names the first element whose images differ. Ranges in
    ``params`` ask for every binding (as ``equiv --param``)."""
    params = dict(params or {})
    time_limit = _DEFAULT_TIME_LIMIT if time_limit is None else float(time_limit)
    if any(_is_range(v) for v in params.values()):
        ta, tb = _text_of(a), _text_of(b)
        args = ["equiv", ta, tb, "--json", "--engine", engine, "--time-limit", repr(time_limit)]
        for k, v in params.items():
            args += ["--param", f"{k}={_range_text(v) if _is_range(v) else v}"]
        if shape is not None:
            args += ["--shape", ",".join(str(int(x)) for x in shape)]
        if cross_check:
            args.append("--cross-check")
        _, doc = run_cli_json(args, accept=(0, 1, 3))
        checks = doc.get("checks") or ([doc["result"]] if "result" in doc else [])
        return Report(ta, doc.get("resolved", ta), [c for c in checks if c.get("id") == "layout.equivalent"])
    la, lb = as_layout(a, params), as_layout(b, params)
    text = a if isinstance(a, str) else la.builder()
    checks = _core.check(la._h, text, list(shape) if shape is not None else None, "", "unknown", None, None, None,
                         "", 0, None, lb._h, b if isinstance(b, str) else lb.builder(), engine, cross_check, False,
                         "sm_100a", time_limit, _core.default_memory_mb(), 20000, "layout.equivalent")
    return Report(text, la.builder(), checks)


class KernelModel:
    """A kernel model (docs/model-format.md) that loaded cleanly: ``kernel``, ``buffers``, ``ops`` counts,
    ``text`` (the JSON) and ``origin`` (its file, for messages)."""

    def __init__(self, text, origin):
        summary = _core.validate_model(text, origin)
        self.text, self.origin = text, origin
        self.kernel, self.buffers, self.ops = summary["kernel"], summary["buffers"], summary["ops"]

    def __repr__(self):
        return f"KernelModel({self.kernel!r}, buffers={self.buffers}, ops={self.ops})"


def load_kernel(path_or_dict) -> KernelModel:
    """Load a kernel model from a path or a dict (as json.load gives it). InputError (with the JSON
    path and line:column) when it does not conform."""
    if isinstance(path_or_dict, KernelModel):
        return path_or_dict
    if isinstance(path_or_dict, dict):
        return KernelModel(json.dumps(path_or_dict, indent=1), "<dict>")
    path = os.fspath(path_or_dict)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise _input_error("model.file", f"cannot read {path}: {e.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise _input_error("model.file", f"{path} is not UTF-8 (byte {e.start})") from None
    return KernelModel(text, path)


class KernelReport:
    """The report of one kernel: ``data`` is the same document as ``tirx-verify run --format json``
    (docs/report-format.md); ``findings`` its items that are not passes; ``ok`` True when no
    error-severity finding or undecided item is left."""

    def __init__(self, data):
        self.data = data

    @property
    def summary(self) -> dict:
        return self.data.get("summary", {})

    @property
    def findings(self) -> list:
        """Every failed or undecided result: the kernel checks' findings as the report has them, and
        the buffer checks' results as {"kernel", "subject", "subject_kind": "buffer", "check", ...}."""
        out = []
        for k in self.data.get("kernels", []):
            for b in k.get("buffers", []):
                for c in b.get("checks", []):
                    if c.get("status") in ("fail", "undecided"):
                        out.append(dict(c, kernel=k.get("kernel"), subject=b.get("name"), subject_kind="buffer",
                                        check=c.get("id")))
            for f in k.get("findings", []):
                if f.get("status") in ("fail", "undecided"):
                    out.append(dict(f, kernel=k.get("kernel")))
        return out

    @property
    def ok(self) -> bool:
        return self.data.get("summary", {}).get("exit_code", 1) == 0

    def to_json(self) -> dict:
        return self.data

    def __repr__(self):
        return f"KernelReport(ok={self.ok}, findings={len(self.findings)})"


def check_kernel(model, time_limit=None, memory_limit_mb=None) -> KernelReport:
    """Every buffer and kernel check of a model (a path, dict or KernelModel), as ``tirx-verify run``."""
    m = load_kernel(model)
    time_limit = _DEFAULT_TIME_LIMIT if time_limit is None else float(time_limit)
    memory = memory_limit_mb if memory_limit_mb is not None else _core.default_memory_mb()
    return KernelReport(_core.check_kernel(m.text, m.origin, time_limit, memory))
