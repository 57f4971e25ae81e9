#!/usr/bin/env python3
"""Builds the seed corpora of the libFuzzer targets from the repository's own inputs.

  notation/  every layout string of models/kernels/*.json and of the CLI test cases
             (tests/cli/cases/*.json: the first argument after check/apply/print/equiv), plus
             the hand-written seeds in tests/fuzz/seeds/notation
  model/     one small model per buffer of models/kernels/*.json (with the model's target and
             params, "ops": []), plus tests/fuzz/seeds/model
  cli/       the argument vector of every CLI test case (tests/cli/cases/*.json) that the
             fuzz_cli harness runs (no {ROOT}/{TMP} path, no absolute path), its arguments
             joined by NUL bytes and raw {0xNN} bytes put back, plus tests/fuzz/seeds/cli

Usage: tests/fuzz/make_corpus.py OUT_DIR   (creates OUT_DIR/notation, OUT_DIR/model, OUT_DIR/cli)
Files are named by the SHA-1 of their content, so rerunning adds nothing twice.
"""
import glob
import hashlib
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def put(directory, data, ext):
    blob = data.encode() if isinstance(data, str) else data
    name = hashlib.sha1(blob).hexdigest() + ext
    with open(os.path.join(directory, name), "wb") as f:
        f.write(blob)


def spell(value):
    if isinstance(value, str):
        return value
    return "".join(p if isinstance(p, str) else p["repeat"] * p["times"] for p in value)


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    out = sys.argv[1]
    notation, model, cli = os.path.join(out, "notation"), os.path.join(out, "model"), os.path.join(out, "cli")
    os.makedirs(notation, exist_ok=True)
    os.makedirs(model, exist_ok=True)
    os.makedirs(cli, exist_ok=True)
    layouts = set()
    for path in sorted(glob.glob(os.path.join(ROOT, "models/kernels/*.json"))):
        with open(path) as f:
            m = json.load(f)
        for b in m.get("buffers", []):
            layouts.add(b["layout"])
            small = {"kernel": m["kernel"], "target": m.get("target", "sm_100a"), "params": m.get("params", {}),
                     "buffers": [{k: v for k, v in b.items() if k != "corpus"}], "ops": []}
            put(model, json.dumps(small), ".json")
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/cli/cases/*.json"))):
        with open(path) as f:
            cases = json.load(f)
        for c in cases:
            # An argument may be generated: a list of strings and {"repeat": STR, "times": N}
            # pieces, spelled out as tests/cli/run_cli_tests.py does.
            args = [spell(a) for a in c.get("args", [])]
            if len(args) >= 2 and args[0] in ("check", "apply", "print", "equiv"):
                layouts.add(args[1])
            if any("{ROOT}" in a or "{TMP}" in a or a.startswith("/") for a in args) or sum(map(len, args)) > 4000:
                continue
            raw = [re.sub(rb"\{0x([0-9a-fA-F]{2})\}", lambda m: bytes([int(m.group(1), 16)]), a.encode()) for a in args]
            put(cli, b"\0".join(raw), ".args")
    for text in sorted(layouts):
        put(notation, text, ".txt")
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/fuzz/seeds/notation/*"))):
        with open(path, "rb") as f:
            put(notation, f.read(), ".txt")
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/fuzz/seeds/model/*"))):
        with open(path, "rb") as f:
            put(model, f.read(), ".json")
    for path in sorted(glob.glob(os.path.join(ROOT, "tests/fuzz/seeds/cli/*"))):
        with open(path, "rb") as f:
            put(cli, f.read(), ".args")
    print(f"{len(os.listdir(notation))} notation seeds, {len(os.listdir(model))} model seeds, "
          f"{len(os.listdir(cli))} cli seeds in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
