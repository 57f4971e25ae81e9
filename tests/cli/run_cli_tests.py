#!/usr/bin/env python3
"""End-to-end tests of the tirx-verify binary, driven by data.

Each file under tests/cli/cases/ is a JSON list of cases:
  {"name": "...", "args": ["apply", "S[8:4@laneid]", "3", "--json"],
   "exit": 0,                              # expected exit code
   "id": "cli.usage",                      # the check id the run must report (see below)
   "stdout_json": {...},                   # optional: stdout parses as JSON and contains this
   "stdout_contains": ["..."],             # optional substrings of stdout
   "stderr_contains": ["..."],             # optional substrings of stderr
   "stdout_lacks": ["..."]}                # optional substrings stdout must not contain
"stdout_json" matches recursively: every key of an expected object must be present with a
matching value; lists must have the same length and match element by element, except lists of
objects with an "id" (check results), where each expected entry is found by its id (in order) and
entries the case does not name are ignored.

"pending": "why" marks a known defect whose fix is someone else's and has not landed: the case
still runs; failing is reported as "pending" (not a failure), passing is a failure ("remove
pending"), so the mark cannot outlive the fix.

"id": in text mode stderr holds "error[ID]" or stdout a result line "fail|undecided ... ID"; under
--json some object of stdout has "id": ID and is an error (no status) or a failing/undecided
result. Every case of a hostile*.json file that expects a non-zero exit must name its id.

Arguments: "{ROOT}" is the repository root, "{TMP}" a scratch directory holding the fixtures
that cannot be committed (FIFOs, symlink loops, empty and deep directories, a file past the size
cap, file names that are not UTF-8; see make_fixtures), and "{0xNN}" the raw byte NN, so a case
can pass bytes that are not UTF-8.

Long inputs are generated rather than written out: an argument may be a list of pieces,
concatenated, each a string or {"repeat": STR, "times": N}:
  ["S[", {"repeat": "(", "times": 1000}, "8", {"repeat": ")", "times": 1000}, ":1]"]
and a case may carry
  "files": {"chain.json": <a string or such a list>}
which are written to a directory of the case's own; "{TMP}" in its arguments is then that
directory instead of the fixtures' (for inputs past the kernel's 128 KB limit on one argument,
read from a model file).

Every run is checked for what no input may cause, whatever the case expects:
  * with --json among the options (before any "--"), stdout is exactly one JSON document (or
    empty, when -o FILE took the report);
  * no signal (crash, abort), no sanitizer report, no exit code 4 (internal error) unless the
    case expects it;
  * a timeout (--timeout, default 120 s) and a memory limit (--memory-mb, default 2048): the
    address space limit (RLIMIT_AS) in a normal build, ASan's hard_rss_limit_mb in a sanitized
    one (ASan reserves terabytes of address space, so RLIMIT_AS cannot apply there).
Cases run in parallel (--jobs, default: the number of CPUs). Prints one line per case,
"N passed, M failed" and the slowest and largest runs; exits non-zero on any failure.
A new bug report becomes a test by adding a case.
"""
import argparse
import concurrent.futures
import fnmatch
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time


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


def json_has_id(doc, check_id):
    """Some object in doc names check_id as an error or as a failing/undecided result."""
    stack = [doc]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if x.get("id") == check_id and x.get("status", "fail") in ("fail", "undecided"):
                return True
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
    return False


def text_has_id(stdout, stderr, check_id):
    if f"error[{check_id}]" in stderr:
        return True
    return re.search(r"\b(fail|undecided)\s+" + re.escape(check_id) + r"\b", stdout) is not None


# --- fixtures ---------------------------------------------------------------------------------

TINY_MODEL = {"kernel": "tiny", "target": "sm_100a",
              "buffers": [{"name": "a", "scope": "shared.dyn", "shape": [8], "dtype": "float16",
                           "layout": "S[8:1]"}],
              "ops": []}


def make_fixtures(tmp):
    """What a case may name under {TMP}: things git cannot hold or that would be too large."""
    def write(path, text):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(text.encode() if isinstance(text, str) else text)

    model = json.dumps(TINY_MODEL)
    write(f"{tmp}/valid.json", model)
    os.mkfifo(f"{tmp}/fifo.json")                                  # never opened by a correct reader
    os.makedirs(f"{tmp}/fifo_dir")
    os.mkfifo(f"{tmp}/fifo_dir/model.json")                         # a FIFO met in a directory walk
    os.makedirs(f"{tmp}/loop")
    os.symlink("b.json", f"{tmp}/loop/a.json")                      # two links that point at each other
    os.symlink("a.json", f"{tmp}/loop/b.json")
    os.symlink("self.json", f"{tmp}/self.json")                     # a link to itself
    write(f"{tmp}/dirloop/model.json", model)                       # a directory cycle
    os.makedirs(f"{tmp}/dirloop/sub")
    os.symlink("..", f"{tmp}/dirloop/sub/up")
    os.makedirs(f"{tmp}/dangling")
    os.symlink("nowhere.json", f"{tmp}/dangling/x.json")            # a link to nothing
    write(f"{tmp}/dangling_ok/model.json", model)                   # a dangling link that is no model
    os.symlink("nowhere", f"{tmp}/dangling_ok/notes")
    os.makedirs(f"{tmp}/empty")
    write(f"{tmp}/nojson/readme.txt", "no models here\n")
    write(f"{tmp}/nojson/model.JSON", model)                        # the extension is .json exactly
    with open(f"{tmp}/big.json", "wb") as f:                        # one byte past the 16 MiB cap, sparse
        f.truncate((16 << 20) + 1)
    with open(f"{tmp}/dense.json", "w") as f:                       # 2 MiB of small values (memory per byte)
        f.write('{"kernel": "k", "buffers": [], "x": [' + ",".join(["0"] * (1 << 20)) + "]}")
    with open(f"{tmp}/big_target.json", "wb") as f:                 # one byte past the 1 MiB target cap
        f.truncate((1 << 20) + 1)
    write(f"{tmp}/deep_array.json", "[" * 100000 + "]" * 100000)    # nesting far past any sane model
    write(f"{tmp}/deep_object.json", '{"a":' * 50000 + "1" + "}" * 50000)
    os.makedirs(f"{tmp}/badname".encode())
    write(f"{tmp}/badname/".encode() + b"\xff.json", model)         # a file name that is not UTF-8
    write(f"{tmp}/".encode() + b"bad\xfename.json", model)
    write(f"{tmp}/dir.json/inner.json", model)                      # a directory named *.json
    deep = f"{tmp}/deep"
    for i in range(70):                                             # past the 64-level walk limit
        deep += f"/d{i}"
    write(f"{deep}/model.json", model)
    # A chain of directories, each with two links to the next: 2^30 paths, 31 directories.
    for i in range(31):
        os.makedirs(f"{tmp}/dag/d{i}")
    for i in range(30):
        os.symlink(f"../d{i + 1}", f"{tmp}/dag/d{i}/l1")
        os.symlink(f"../d{i + 1}", f"{tmp}/dag/d{i}/l2")
    write(f"{tmp}/dag/d30/model.json", model)
    write(f"{tmp}/two/a.json", model)
    write(f"{tmp}/two/b.json", json.dumps(dict(TINY_MODEL, kernel="tiny_b")))
    os.makedirs(f"{tmp}/a_dir")
    write(f"{tmp}/target_dir/x", "")
    os.symlink(f"{tmp}/valid.json", f"{tmp}/link_to_valid.json")   # a good link is followed


# --- running one case -----------------------------------------------------------------------

BYTE = re.compile(r"\{0x([0-9a-fA-F]{2})\}")


def spell(value):
    """A string, or a list of strings and {"repeat", "times"} pieces, spelled out."""
    if isinstance(value, str):
        return value
    return "".join(p if isinstance(p, str) else p["repeat"] * p["times"] for p in value)


def expand(arg, root, tmp):
    s = spell(arg).replace("{ROOT}", root).replace("{TMP}", tmp)
    out = b""
    pos = 0
    for m in BYTE.finditer(s):
        out += s[pos:m.start()].encode() + bytes([int(m.group(1), 16)])
        pos = m.end()
    return out + s[pos:].encode()


SANITIZER_REPORT = re.compile(rb"ERROR: (AddressSanitizer|LeakSanitizer)|runtime error:|hard rss limit")


class Runner:
    def __init__(self, binary, root, tmp, timeout, memory_mb, sanitized):
        self.binary, self.root, self.tmp = binary, root, tmp
        self.timeout, self.memory_mb, self.sanitized = timeout * (4 if sanitized else 1), memory_mb, sanitized

    def run(self, argv):
        env = dict(os.environ, TIRX_VERIFY_ROOT=self.root)
        limit = self.memory_mb << 20
        if self.sanitized:
            env["ASAN_OPTIONS"] = env.get("ASAN_OPTIONS", "") + f":hard_rss_limit_mb={self.memory_mb}"
            preexec = None
        else:
            def preexec():
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
                resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        start = time.monotonic()
        p = subprocess.Popen([self.binary.encode()] + argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, env=env, cwd=self.root, preexec_fn=preexec,
                             start_new_session=True)
        chunks = {"out": [], "err": []}
        readers = [threading.Thread(target=lambda s, k: chunks[k].append(s.read()), args=(p.stdout, "out")),
                   threading.Thread(target=lambda s, k: chunks[k].append(s.read()), args=(p.stderr, "err"))]
        for t in readers:
            t.start()
        timed_out = threading.Event()

        def kill():
            timed_out.set()
            try:
                os.killpg(p.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        timer = threading.Timer(self.timeout, kill)
        timer.start()
        _, status, usage = os.wait4(p.pid, 0)  # rusage of this child alone: its peak RSS
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        for t in readers:
            t.join()
        p.stdout.close()
        p.stderr.close()
        return {"rc": p.returncode, "out": b"".join(chunks["out"]), "err": b"".join(chunks["err"]),
                "seconds": time.monotonic() - start, "rss_mb": usage.ru_maxrss / 1024,
                "timed_out": timed_out.is_set()}

    def check(self, case, strict, index):
        tmp = self.tmp
        if "files" in case:
            tmp = os.path.join(self.tmp, f"case-{index}")
            os.makedirs(tmp)
            for name, text in case["files"].items():
                with open(os.path.join(tmp, name), "w") as f:
                    f.write(spell(text))
        argv = [expand(a, self.root, tmp) for a in case["args"]]
        try:
            r = self.run(argv)
        except OSError as e:
            return [f"could not run the case: {e}"], {"seconds": 0.0, "rss_mb": 0.0}
        out = r["out"].decode("utf-8", errors="replace")
        err = r["err"].decode("utf-8", errors="replace")
        problems = []
        want = case.get("exit", 0)
        if r["timed_out"]:
            problems.append(f"HANG: no exit within {self.timeout} s (killed)")
        elif r["rc"] < 0:
            problems.append(f"CRASH: killed by signal {-r['rc']} ({signal.Signals(-r['rc']).name})")
        elif r["rc"] != want:
            problems.append(f"exit code {r['rc']}, expected {want}")
        if SANITIZER_REPORT.search(r["err"]):
            problems.append("SANITIZER report (or the memory limit) on stderr")
        if r["rc"] == 4 and want != 4:
            problems.append("internal error (exit 4)")
        doc = None
        options = argv[:argv.index(b"--")] if b"--" in argv else argv  # after "--" all are values
        to_file = any(a in (b"-o", b"--output") or a.startswith(b"--output=") for a in options)
        if (any(a == b"--json" or a.startswith(b"--json=") for a in options) and not r["timed_out"]
                and not (to_file and r["out"] == b"")):  # -o FILE: the document went to the file
            try:
                doc = json.loads(r["out"].decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError) as e:
                problems.append(f"--json: stdout is not one valid JSON document ({e})")
        if "stdout_json" in case:
            try:
                actual = doc if doc is not None else json.loads(out)
                m = matches(case["stdout_json"], actual)
                if m:
                    problems.append(m)
            except json.JSONDecodeError as e:
                problems.append(f"stdout is not JSON ({e})")
        if "id" in case:
            found = json_has_id(doc, case["id"]) if doc is not None else text_has_id(out, err, case["id"])
            if not found:
                problems.append(f"check id {case['id']!r} not reported")
        elif strict and want != 0:
            problems.append("a hostile case with a non-zero exit must name its check id")
        for s in case.get("stdout_contains", []):
            if s not in out:
                problems.append(f"stdout lacks {s!r}")
        for s in case.get("stderr_contains", []):
            if s not in err:
                problems.append(f"stderr lacks {s!r}")
        for s in case.get("stdout_lacks", []):
            if s in out:
                problems.append(f"stdout contains {s!r}")
        if problems:
            problems.append(f"stdout: {out[:600]}\nstderr: {err[:600]}")
        # Keep only what the summary needs: the runner stays small, and a forked child's peak RSS
        # (which counts the runner's pages until exec) stays the child's own.
        return problems, {"seconds": r["seconds"], "rss_mb": r["rss_mb"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--cases", required=True, help="directory of case files")
    ap.add_argument("--root", required=True)
    ap.add_argument("--files", default="*.json", help="glob of case files to run (default *.json)")
    ap.add_argument("--exclude", default="", help="glob of case files to skip")
    ap.add_argument("-k", default="", help="only cases whose name contains this")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--timeout", type=float, default=120,
                    help="seconds per case (x4 for a sanitized binary); above the default --time-limit of 60 s")
    ap.add_argument("--memory-mb", type=int, default=2048)
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    binary = os.path.abspath(a.bin)
    with open(binary, "rb") as f:
        sanitized = b"__asan_init" in f.read()
    cases = []
    for fn in sorted(os.listdir(a.cases)):
        if not fn.endswith(".json") or not fnmatch.fnmatch(fn, a.files) or (a.exclude and fnmatch.fnmatch(fn, a.exclude)):
            continue
        with open(os.path.join(a.cases, fn)) as f:
            for case in json.load(f):
                name = f"{fn}::{case['name']}"
                if a.k in name:
                    cases.append((name, case, fn.startswith("hostile")))
    names = [n for n, _, _ in cases]
    dup = {n for n in names if names.count(n) > 1}
    tmp = tempfile.mkdtemp(prefix="tirx-cli-")
    try:
        make_fixtures(tmp)
        runner = Runner(binary, root, tmp, a.timeout, a.memory_mb, sanitized)
        t0 = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            results = list(pool.map(lambda ic: runner.check(ic[1][1], ic[1][2], ic[0]), enumerate(cases)))
        wall = time.monotonic() - t0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    passed = failed = pending = 0
    failures = []  # repeated after the summary: a CI log keeps only the tail of a long run
    for (name, case, _), (problems, r) in zip(cases, results):
        if name in dup:
            problems = [f"the case name is not unique in its file"] + problems
        if "pending" in case and problems:
            pending += 1
            print(f"pend {name}\n  pending: {case['pending']}\n  " + "\n  ".join(problems[:3]))
        elif "pending" in case:
            failed += 1
            failures.append(f"FAIL {name}\n  passes now: remove \"pending\" ({case['pending']})")
            print(failures[-1])
        elif problems:
            failed += 1
            failures.append(f"FAIL {name}\n  " + "\n  ".join(problems))
            print(failures[-1])
        else:
            passed += 1
            print(f"ok   {name}  ({r['seconds']:.2f} s, {r['rss_mb']:.0f} MB)")
    runs = [(r["seconds"], r["rss_mb"], name) for (name, _, _), (_, r) in zip(cases, results)]
    if runs:
        slow, big = max(runs), max(runs, key=lambda x: x[1])
        print(f"slowest: {slow[2]} {slow[0]:.2f} s; largest: {big[2]} {big[1]:.0f} MB peak RSS")
    limit = "hard_rss_limit_mb" if sanitized else "RLIMIT_AS"
    print(f"{passed} passed, {failed} failed" + (f", {pending} pending" if pending else "") +
          f"  ({wall:.1f} s wall, {a.jobs} jobs, {limit} {a.memory_mb} MB, "
          f"timeout {runner.timeout:.0f} s)")
    if failures:
        print("failed cases (again, as above):\n" + "\n".join(f[:2000] for f in failures))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
