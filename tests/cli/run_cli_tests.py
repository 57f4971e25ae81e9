#!/usr/bin/env python3
"""End-to-end tests of the tirx-verify binary, driven by data.

Each file under tests/cli/cases/ is a JSON list of cases:
  {"name": "...", "args": ["apply", "S[8:4@laneid]", "3", "--json"],
   "exit": 0,                              # expected exit code
   "stdout_json": {...},                   # optional: stdout parses as JSON and contains this
   "stdout_contains": ["..."],             # optional substrings of stdout
   "stderr_contains": ["..."],             # optional substrings of stderr
   "stdout_lacks": ["..."]}                # optional substrings stdout must not contain
"stdout_json" matches recursively: every key of an expected object must be present with a
matching value; lists must have the same length and match element by element, except lists of
objects with an "id" (check results), where each expected entry is found by its id (in order) and
entries the case does not name are ignored. "{ROOT}" in an
argument is replaced by the repository root. A new bug report becomes a test by adding a case.

Long inputs are generated rather than written out: an argument may be a list of pieces,
concatenated, each a string or {"repeat": STR, "times": N}:
  ["S[", {"repeat": "(", "times": 1000}, "8", {"repeat": ")", "times": 1000}, ":1]"]
and a case may carry
  "files": {"chain.json": <a string or such a list>}
which are written to a fresh directory whose path replaces "{TMP}" in the arguments (for
inputs past the kernel's 128 KB limit on one argument, read from a model file).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def matches(expected, actual, path="$"):
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return f"{path}: expected an object, got {json.dumps(actual)[:200]}"
        for k, v in expected.items():
            if k not in actual:
                return f"{path}.{k}: missing"
            err = matches(v, actual[k], f"{path}.{k}")
            if err:
                return err
        return None
    if (isinstance(expected, list) and expected and all(isinstance(e, dict) and "id" in e for e in expected)
            and isinstance(actual, list) and all(isinstance(a, dict) and "id" in a for a in actual)):
        # A list of results keyed by "id" (check results): match each expected entry by id, in
        # order, ignoring entries the case does not mention (new checks must not break cases).
        by_id = {a["id"]: a for a in actual}
        order = [a["id"] for a in actual]
        last = -1
        for e in expected:
            if e["id"] not in by_id:
                return f"{path}: no entry with id {e['id']!r} (have {order})"
            if order.index(e["id"]) < last:
                return f"{path}: entry {e['id']!r} out of order"
            last = order.index(e["id"])
            err = matches(e, by_id[e["id"]], f"{path}[id={e['id']}]")
            if err:
                return err
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{path}: expected a list of {len(expected)}, got {json.dumps(actual)[:200]}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            err = matches(e, a, f"{path}[{i}]")
            if err:
                return err
        return None
    if expected != actual:
        return f"{path}: expected {json.dumps(expected)}, got {json.dumps(actual)[:200]}"
    return None


def expand(value):
    """A string, or a list of strings and {"repeat", "times"} pieces, spelled out."""
    if isinstance(value, str):
        return value
    return "".join(p if isinstance(p, str) else p["repeat"] * p["times"] for p in value)


def run_case(binary, root, case):
    with tempfile.TemporaryDirectory(prefix="tirx-cli-") as tmp:
        for name, text in case.get("files", {}).items():
            with open(os.path.join(tmp, name), "w") as f:
                f.write(expand(text))
        return run_case_in(binary, root, case, tmp)


def run_case_in(binary, root, case, tmp):
    args = [expand(a).replace("{ROOT}", root).replace("{TMP}", tmp) for a in case["args"]]
    env = dict(os.environ, TIRX_VERIFY_ROOT=root)
    try:
        p = subprocess.run([binary] + args, capture_output=True, text=True, timeout=120, env=env, cwd=root)
    except subprocess.TimeoutExpired:
        return ["no answer within 120 s (a hang is a failure, never an answer)"]
    problems = []
    if p.returncode != case.get("exit", 0):
        problems.append(f"exit code {p.returncode}, expected {case.get('exit', 0)}")
    if "stdout_json" in case:
        try:
            err = matches(case["stdout_json"], json.loads(p.stdout))
            if err:
                problems.append(err)
        except json.JSONDecodeError as e:
            problems.append(f"stdout is not JSON ({e}): {p.stdout[:300]}")
    for s in case.get("stdout_contains", []):
        if s not in p.stdout:
            problems.append(f"stdout lacks {s!r}")
    for s in case.get("stdout_lacks", []):
        if s in p.stdout:
            problems.append(f"stdout has {s!r}")
    for s in case.get("stderr_contains", []):
        if s not in p.stderr:
            problems.append(f"stderr lacks {s!r}")
    if problems:
        problems.append(f"stdout: {p.stdout[:600]}\nstderr: {p.stderr[:600]}")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("-k", default="", help="only cases whose name contains this")
    a = ap.parse_args()
    passed = failed = 0
    for fn in sorted(os.listdir(a.cases)):
        if not fn.endswith(".json"):
            continue
        with open(os.path.join(a.cases, fn)) as f:
            cases = json.load(f)
        for case in cases:
            name = f"{fn}::{case['name']}"
            if a.k not in name:
                continue
            problems = run_case(a.bin, a.root, case)
            if problems:
                failed += 1
                print(f"FAIL {name}\n  " + "\n  ".join(problems))
            else:
                passed += 1
                print(f"ok   {name}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
