#!/usr/bin/env python3
"""Every model the project ships or tests with conforms to docs/model-format.schema.json, and the
schema refuses what the loader refuses (a few representative bad models).

Checked: models/kernels/*.json, tests/kernel/*.json, the extraction tests' expected models
(tests/extract/*.expected.json, what `tirx-verify extract` writes), and each tests/kernel/cases/*.json model after
its patch (cases whose model is meant to be refused by the loader set "schema_valid": false).
Uses python3-jsonschema (Debian; scripts/install-deps.sh). Prints "N valid, M failed".
"""
import argparse
import glob
import json
import os
import sys

import jsonschema

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run_kernel_tests import apply_patch  # noqa: E402

BAD = {
    "unknown buffer key": {"format": 2, "kernel": "k", "buffers": [
        {"name": "b", "scope": "shared", "shape": [8], "dtype": "float16", "layout": "S[8:1]", "access": "x"}]},
    "format 2 without shape": {"format": 2, "kernel": "k", "buffers": [
        {"name": "b", "scope": "shared", "dtype": "float16", "layout": "S[8:1]"}]},
    "unknown op kind": {"format": 2, "kernel": "k", "buffers": [], "ops": [{"name": "x", "kind": "tma_load"}]},
    "tma box past 256": {"format": 2, "kernel": "k", "buffers": [], "ops": [
        {"name": "x", "kind": "tma.load", "tensor_map": {"dtype": "float16", "dims": [64], "box": [512],
                                                          "swizzle": "none"},
         "coords": [0], "global": "A", "smem": "S"}]},
    "unknown key in a tcgen05.ld": {"format": 2, "kernel": "k", "buffers": [], "ops": [
        {"name": "x", "kind": "tcgen05.ld", "shape": "32x32b", "num": 1, "warps": [0], "taddr": {"lane": 0, "col": 0},
         "tmem": "T", "regs": "R", "row": 16}]},
    "format 2 key in a format 1 buffer": {"kernel": "k", "buffers": [
        {"name": "b", "scope": "shared", "layout": "S[8:1]", "placement": {"offset_bytes": 0}}]},
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    schema = json.load(open(os.path.join(a.root, "docs/model-format.schema.json")))
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    docs = []
    for f in sorted(glob.glob(os.path.join(a.root, "models/kernels/*.json")) +
                    glob.glob(os.path.join(a.root, "tests/kernel/*.json")) +
                    glob.glob(os.path.join(a.root, "tests/extract/*.expected.json"))):
        docs.append((os.path.relpath(f, a.root), json.load(open(f)), True))
    for f in sorted(glob.glob(os.path.join(a.root, "tests/kernel/cases/*.json"))):
        case = json.load(open(f))
        model = case["inline"] if "inline" in case else json.load(open(os.path.join(a.root, case["model"])))
        docs.append((os.path.relpath(f, a.root), apply_patch(model, case.get("patch", [])),
                     case.get("schema_valid", True)))
    for name, doc in BAD.items():
        docs.append((f"(bad) {name}", doc, False))
    valid = failed = 0
    for name, doc, want in docs:
        errors = sorted(v.iter_errors(doc), key=lambda e: list(e.absolute_path))
        if bool(errors) == want:
            failed += 1
            if want:
                print(f"FAIL {name}: {errors[0].message[:300]} at {'/'.join(map(str, errors[0].absolute_path))}")
            else:
                print(f"FAIL {name}: the schema accepts it, the loader refuses it")
        else:
            valid += 1
    print(f"{valid} valid, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
