"""The CLI's check/equiv cases (tests/cli/cases/*.json) again, through the Python API: the same
answers (exit code <-> Report / exception), statuses and witnesses, in-process."""

import glob
import json
import os
import sys

import pytest

import tirx_verify as tv

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "tests", "cli"))
from run_cli_tests import matches, spell  # noqa: E402

VALUE_OPTS = {"--scope": "scope", "--shape": "shape", "--dtype": "dtype", "--alloc-cols": "alloc_cols",
              "--alloc-elems": "alloc_elems", "--access": "access", "--access-bytes": "access_bytes",
              "--row-imm": "row_imm", "--engine": "engine", "--target": "target", "--time-limit": "time_limit",
              "--memory-limit": "memory_limit_mb", "--z3-timeout-ms": "z3_timeout_ms"}
FLAGS = {"--cross-check": "cross_check", "--allow-broadcast": "allow_broadcast", "--json": None}


def translate(args):
    """(positional layouts, keyword arguments) for tv.check/equivalent, or None when the case uses
    something the Python call does not spell (files, --max-points, NUL bytes...)."""
    pos, kw, params = [], {}, {}
    i = 1
    while i < len(args):
        a = spell(args[i])
        if "{ROOT}" in a or "{TMP}" in a or "\\x" in a:
            return None
        if a in FLAGS:
            if FLAGS[a]:
                kw[FLAGS[a]] = True
            i += 1
        elif a in VALUE_OPTS and i + 1 < len(args):
            v = spell(args[i + 1])
            key = VALUE_OPTS[a]
            if key == "shape":
                try:
                    v = tuple(int(x) for x in v.split(","))
                except ValueError:
                    return None
            elif key in ("alloc_cols", "alloc_elems", "access_bytes", "row_imm", "memory_limit_mb", "z3_timeout_ms"):
                try:
                    v = int(v)
                except ValueError:
                    return None
            elif key == "time_limit":
                v = float(v)
            kw[key] = v
            i += 2
        elif a == "--param" and i + 1 < len(args):
            name, _, val = spell(args[i + 1]).partition("=")
            if name in params:  # given twice: a dict cannot say that
                return None
            try:
                params[name] = int(val)
            except ValueError:
                params[name] = val  # a range "lo..hi[:step]"
            i += 2
        elif a.startswith("-"):
            return None
        else:
            pos.append(a)
            i += 1
    if params:
        kw["params"] = params
    return pos, kw


def feature_cases():
    """(file name, case) for every case of the feature files (the hostile suite is the CLI's own)."""
    for f in sorted(glob.glob(os.path.join(ROOT, "tests", "cli", "cases", "*.json"))):
        if os.path.basename(f).startswith("hostile"):
            continue
        with open(f) as fh:
            for c in json.load(fh):
                yield os.path.basename(f), c


def cases():
    out = []
    for name, c in feature_cases():
        if not c["args"] or c["args"][0] not in ("check", "equiv"):
            continue
        t = translate(c["args"])
        if t is None or c["exit"] == 4:
            continue
        want_layouts = 1 if c["args"][0] == "check" else 2
        if len(t[0]) != want_layouts:
            continue
        if "alloc_elems" in t[1] and any(not isinstance(v, int) for v in t[1].get("params", {}).values()):
            continue
        out.append(pytest.param(c, t, id=f"{name}:{c['name'][:60]}"))
    return out


def exit_of(report):
    for r in report.checks:
        if r.status == "fail":
            return 2 if r.id == "layout.well-formed" else 1
    return 3 if report.undecided else 0


@pytest.mark.parametrize("case, call", cases())
def test_cli_case_through_python(case, call):
    layouts, kw = call
    cmd = case["args"][0]
    try:
        if cmd == "check":
            if "alloc_elems" in kw and isinstance(kw["alloc_elems"], str):
                pytest.skip("an --alloc-elems expression")
            report = tv.check(layouts[0], **kw)
        else:
            allowed = {k: v for k, v in kw.items() if k in ("shape", "params", "engine", "time_limit", "cross_check")}
            if len(allowed) != len(kw):
                pytest.skip("equiv options without a Python spelling")
            report = tv.equivalent(layouts[0], layouts[1], **allowed)
    except tv.InputError as e:
        assert case["exit"] == 2, f"InputError {e.check_id}: {e.message}; the CLI exits {case['exit']}"
        if case.get("id"):
            assert e.check_id == case["id"]
        return
    except tv.UndecidedError:
        assert case["exit"] == 3
        return
    got = exit_of(report)
    if cmd == "equiv":
        got = 0 if report.ok else (3 if report.undecided else 1)
    assert got == case["exit"], report.describe()
    expected = case.get("stdout_json")
    if expected and "checks" in expected and cmd == "check":
        err = matches(expected["checks"], [c.to_dict() for c in report.checks])
        assert err is None, err


def test_enough_cases_run():
    assert len(cases()) >= 80


def apply_cases():
    out = []
    for name, c in feature_cases():
        a = [spell(x) for x in c["args"]]
        if not a or a[0] != "apply" or "--json" not in a or c["exit"] not in (0, 2):
            continue
        pos, shape, flags, ok = [], None, set(), True
        i = 1
        while i < len(a):
            if a[i] == "--shape" and i + 1 < len(a):
                try:
                    shape = tuple(int(x) for x in a[i + 1].split(","))
                except ValueError:
                    ok = False
                i += 2
            elif a[i] in ("--all-replicas", "--extrapolate", "--json"):
                flags.add(a[i])
                i += 1
            elif a[i].startswith("--") or "{" in a[i]:
                ok = False
                break
            else:
                pos.append(a[i])
                i += 1
        if not ok or len(pos) < 2:
            continue
        try:
            coord = [int(x) for x in pos[1:]]
        except ValueError:
            continue
        out.append(pytest.param(c, pos[0], coord, shape, flags, id=f"{name}:{c['name'][:60]}"))
    return out


@pytest.mark.parametrize("case, layout, coord, shape, flags", apply_cases())
def test_cli_apply_case_through_python(case, layout, coord, shape, flags):
    extrapolate = "--extrapolate" in flags
    try:
        lay = tv.parse(layout)
        got = {"coord": lay.apply(*coord, shape=shape, extrapolate=extrapolate)}
        if "--all-replicas" in flags:
            got["replicas"] = lay.replicas(*coord, shape=shape, extrapolate=extrapolate)
    except tv.InputError as e:
        assert case["exit"] == 2, f"InputError {e.check_id}: {e.message}"
        want = (case.get("stdout_json") or {}).get("error", {}).get("id") or case.get("id")
        if want:
            assert e.check_id == want
        return
    assert case["exit"] == 0, f"the CLI refuses it (exit {case['exit']}), Python answered {got}"
    want = case.get("stdout_json")
    if want:
        err = matches({k: v for k, v in want.items() if k in ("coord", "replicas")}, got)
        assert err is None, err


def test_enough_apply_cases_run():
    assert len(apply_cases()) >= 20
