#!/usr/bin/env python3
"""docs/testing.md states how many ctest tests the suite has and how many build steps a full
build takes; this test keeps those numbers true.

Counted from the build directory ctest runs in: `ctest -N` ("Total Tests: N") and
`ninja -t commands all` (one line per build step). docs/testing.md must say "(N tests)" and
"the same N tests" in its table of passes and "all S steps" for the full build, with the
numbers of this build. A mismatch names the number to write.
"""
import argparse
import re
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--doc", required=True)
    a = ap.parse_args()
    out = subprocess.run(["ctest", "--test-dir", a.build, "-N"], capture_output=True, text=True).stdout
    tests = int(re.search(r"Total Tests: (\d+)", out).group(1))
    steps = len(subprocess.run(["ninja", "-C", a.build, "-t", "commands", "all"], capture_output=True,
                               text=True).stdout.splitlines())
    doc = open(a.doc).read()
    errors = []
    claimed = [int(x) for x in re.findall(r"\((\d+) tests\)", doc)] + [int(x) for x in re.findall(r"the same (\d+) tests", doc)]
    if not claimed:
        errors.append("docs/testing.md states no test count '(N tests)'")
    errors += [f"docs/testing.md says {c} tests; the suite has {tests}" for c in claimed if c != tests]
    claimed_steps = [int(x) for x in re.findall(r"all (\d+) steps", doc)]
    if not claimed_steps:
        errors.append("docs/testing.md states no build step count 'all N steps'")
    errors += [f"docs/testing.md says {c} build steps; the build has {steps}" for c in claimed_steps if c != steps]
    for e in errors:
        print("FAIL", e)
    print(f"tests {tests}, build steps {steps}: {'ok' if not errors else 'docs/testing.md is stale'}")
    sys.exit(1 if errors else 0)


if __name__ == "__main__":
    main()
