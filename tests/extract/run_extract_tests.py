#!/usr/bin/env python3
"""Extraction tests: small TIRx-style kernels (written here) through `tirx-verify extract`.

    python3 tests/extract/run_extract_tests.py --verify build/tirx-verify

Each case runs the CLI on a kernel file and checks the exit code, the written model against
the expected model (exactly), named fields, or a message; every written model must also load
in `tirx-verify run` (exit 0 or 1, never 2). A case with "signal": "TERM" (or INT, HUP, KILL)
sends tirx-verify that signal once its (fake) python child runs, and fails when the child
outlives it. A case with "needs_memory_limit": true is skipped for an address-sanitizer binary,
which sets no memory limit on its child.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


def run(verify, args, env=None, signal_case=None, td=None):
    e = dict(os.environ)
    e.update({k: v.replace("{HERE}", HERE) for k, v in (env or {}).items()})
    if signal_case is None:
        return subprocess.run([verify, "extract", *args], capture_output=True, text=True, cwd=HERE, env=e)
    return run_signalled(verify, args, e, signal_case, td)


def run_signalled(verify, args, env, sig_name, td):
    """Run extract with a fake python that records its pid, send tirx-verify SIG<sig_name> once
    the child runs, and require that the child is gone afterwards (passed on, or killed by
    PR_SET_PDEATHSIG when tirx-verify itself is killed)."""
    import signal
    import time
    pidfile = os.path.join(td, f"child-{sig_name}.pid")
    env = dict(env, TIRX_TEST_PIDFILE=pidfile)
    p = subprocess.Popen([verify, "extract", *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         cwd=HERE, env=env)
    deadline = time.monotonic() + 20
    while not os.path.exists(pidfile) and time.monotonic() < deadline and p.poll() is None:
        time.sleep(0.02)
    child = int(open(pidfile).read()) if os.path.exists(pidfile) else None
    p.send_signal(getattr(signal, "SIG" + sig_name))
    out, err = p.communicate(timeout=30)
    alive = False
    if child is not None:  # the child must not outlive the signal (a zombie counts as gone)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline:
            try:
                with open(f"/proc/{child}/stat") as fh:
                    alive = fh.read().rsplit(")", 1)[1].split()[0] != "Z"
            except OSError:
                alive = False
            if not alive:
                break
            time.sleep(0.05)
    if child is None:
        err += "\n(the fake python never started)"
    elif alive:
        err += f"\nORPHAN: the child {child} still runs after SIG{sig_name}"
        os.kill(child, signal.SIGKILL)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def check_case(i: int, c: dict, verify: str, td: str) -> list:
    """Run case i; the problems found (empty: it passed)."""
    out = os.path.join(td, f"m{i}.json")
    args = list(c["args"])
    if c.get("write", True):
        args += ["-o", out]
    r = run(verify, args, c.get("env"), c.get("signal"), td)
    if "ORPHAN" in r.stderr or "never started" in r.stderr:
        return [r.stderr[-300:]]
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
        if "run_exit" in c and lr.returncode != c["run_exit"]:
            problems.append(f"tirx-verify run exit {lr.returncode}, expected {c['run_exit']}")
        for s in c.get("run_contains", []):  # the checks' verdict on the extracted model
            if s not in lr.stdout:
                problems.append(f"tirx-verify run output lacks {s!r}")
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
    return problems


def sanitized_subset(cases: list) -> tuple[list, int]:
    """The cases the sanitized build runs: what it adds over the normal pass is the C++ side under
    ASan/UBSan -- the extract wrapper (arguments, spawning, limits, signals, output) and `run` on
    each written model -- while the Python extraction is the same program in both passes.  So a case
    that differs from an earlier kept case of the same kernel file only by `--param` values, with the
    same expected exit code, is left to the normal pass (every case still runs there); every case
    with another option, a signal, an expected model file or a different exit is kept.
    Returns (kept cases, number left out)."""
    kept, seen, left = [], set(), 0
    for c in cases:
        args = c["args"]
        only_params = bool(args) and all(a == "--param" or (i > 0 and args[i - 1] == "--param")
                                         for i, a in enumerate(args[1:], 1))
        key = (args[0] if args else "", c["exit"])
        if only_params and len(args) > 1 and key in seen and not c.get("signal") and "expected" not in c:
            left += 1
            continue
        seen.add(key)
        kept.append(c)
    return kept, left


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--verify", required=True)
    a = ap.parse_args()
    verify = os.path.abspath(a.verify)
    cases = json.load(open(os.path.join(HERE, "cases.json")))
    with open(verify, "rb") as f:
        sanitized = b"__asan_init" in f.read()
    if sanitized:  # no RLIMIT_AS on the child there (cmd_extract.cpp): the memory-limit cases cannot hold
        skipped = [c["name"] for c in cases if c.get("needs_memory_limit")]
        cases = [c for c in cases if not c.get("needs_memory_limit")]
        print(f"skipped under the address sanitizer (no child memory limit): {len(skipped)} case(s)")
        cases, variants = sanitized_subset(cases)
        print(f"under the address sanitizer: {len(cases)} case(s) run, {variants} --param variant(s) of a kernel "
              "file already run with the same exit code left to the normal build's pass (see sanitized_subset)")
    failed = 0
    with tempfile.TemporaryDirectory() as td:
        # Cases are independent (each writes its own m<i>.json), so they run on every core; the
        # signal cases, which watch their child by a pid file, run one at a time after them.
        alone = [i for i, c in enumerate(cases) if c.get("signal")]
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
            futures = {i: pool.submit(check_case, i, c, verify, td) for i, c in enumerate(cases) if i not in alone}
            results = {i: f.result() for i, f in futures.items()}
        for i in alone:
            results[i] = check_case(i, cases[i], verify, td)
        failures = []  # repeated after the summary: a CI log keeps only the tail of a long run
        for i, c in enumerate(cases):
            problems = results[i]
            print(f"{'ok' if not problems else 'FAIL'}: {c['name']}")
            for p in problems:
                print(f"    {p}")
            if problems:
                failures.append("FAIL: " + c["name"] + "".join(f"\n    {p}"[:2000] for p in problems))
            failed += bool(problems)
    print(f"{len(cases) - failed}/{len(cases)} extraction cases passed")
    if failures:
        print("failed cases (again, as above):\n" + "\n".join(failures))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
