#!/usr/bin/env python3
"""Extraction tests: small TIRx-style kernels (written here) through `tirx-verify extract`.

    python3 tests/extract/run_extract_tests.py --verify build/tirx-verify

Each case runs the CLI on a kernel file and checks the exit code, the written model against
the expected model (exactly), named fields, or a message; every written model must also load
in `tirx-verify run` (exit 0 or 1, never 2).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(verify, args, env=None):
    e = dict(os.environ)
    e.update({k: v.replace("{HERE}", HERE) for k, v in (env or {}).items()})
    return subprocess.run([verify, "extract", *args], capture_output=True, text=True, cwd=HERE, env=e)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--verify", required=True)
    a = ap.parse_args()
    verify = os.path.abspath(a.verify)
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    failed = 0
    with tempfile.TemporaryDirectory() as td:
        for i, c in enumerate(cases):
            out = os.path.join(td, f"m{i}.json")
            args = list(c["args"])
            if c.get("write", True):
                args += ["-o", out]
            r = run(verify, args, c.get("env"))
            problems = []
            if r.returncode != c["exit"]:
                problems.append(f"exit {r.returncode}, expected {c['exit']}; stderr: {r.stderr[-400:]}")
            for s in c.get("stderr_contains", []):
                if s not in r.stderr:
                    problems.append(f"stderr lacks {s!r}: {r.stderr[-400:]}")
            if "stdout_json" in c:
                try:
                    doc = json.loads(r.stdout)
                    for k, v in c["stdout_json"].items():
                        cur = doc
                        for part in k.split("."):
                            cur = cur[part]
                        if cur != v:
                            problems.append(f"stdout {k} = {cur!r}, expected {v!r}")
                except (ValueError, KeyError, TypeError) as e:
                    problems.append(f"stdout is not the expected JSON document ({e}): {r.stdout[:300]}")
            if os.path.exists(out):
                model = json.load(open(out))
                if "expected" in c:
                    want = json.load(open(os.path.join(HERE, c["expected"])))
                    if model != want:
                        problems.append(f"model differs from {c['expected']}")
                for path, v in c.get("fields", {}).items():
                    cur = model
                    try:
                        for part in path.split("."):
                            cur = cur[int(part)] if isinstance(cur, list) else cur[part]
                    except (KeyError, IndexError, ValueError):
                        cur = "<missing>"
                    if cur != v:
                        problems.append(f"{path} = {cur!r}, expected {v!r}")
                if "unresolved_names" in c:
                    names = sorted(u.get("name", "") for u in model["extraction"]["unresolved"])
                    if names != sorted(c["unresolved_names"]):
                        problems.append(f"unresolved names {names}, expected {sorted(c['unresolved_names'])}")
                lr = subprocess.run([verify, "run", out], capture_output=True, text=True)
                if lr.returncode not in (0, 1):
                    problems.append(f"tirx-verify run exit {lr.returncode}: {lr.stderr[-400:]}")
                if "sarif" in c:  # the finding's SARIF location is the kernel file's line
                    want = c["sarif"]
                    sr = subprocess.run([verify, "run", out, "--format", "sarif"], capture_output=True, text=True)
                    results = [r for r in json.loads(sr.stdout)["runs"][0]["results"] if r["ruleId"] == want["check"]]
                    if not results:
                        problems.append(f"no SARIF result for {want['check']}")
                    else:
                        phys = results[0]["locations"][0]["physicalLocation"]
                        rel = results[0].get("relatedLocations", [{}])[0].get("physicalLocation", {})
                        if phys["artifactLocation"]["uri"] != want["uri"] or phys["region"]["startLine"] != want["line"]:
                            problems.append(f"SARIF location {phys}, expected {want['uri']}:{want['line']}")
                        if not rel.get("artifactLocation", {}).get("uri", "").endswith(os.path.basename(out)):
                            problems.append(f"SARIF related location {rel} is not the model file")
                os.remove(out)
            elif c.get("write", True) and c["exit"] != 2:
                problems.append("no model written")
            status = "ok" if not problems else "FAIL"
            print(f"{status}: {c['name']}")
            for p in problems:
                print(f"    {p}")
            failed += bool(problems)
    print(f"{len(cases) - failed}/{len(cases)} extraction cases passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
