#!/usr/bin/env python3
"""Kernel-model cases: a model (often a real one from models/kernels with a patch that breaks or
repairs it) and the findings `tirx-verify run --json` must report for it.

Each file under tests/kernel/cases/ is one case:
  {"description": "what bug class this is, where it comes from",
   "model": "models/kernels/fp16_bf16_gemm.json",     # repository-relative, or "inline": {...}
   "patch": [{"op": "replace", "path": "/ops/0/tensor_map/swizzle", "value": "64B"}],   # RFC 6902
   "exit": 1,                                          # expected exit code of `run`
   "findings": [{"check": "kernel.tma-layout", "subject": "load_a", "status": "fail",
                 "severity": "error", "witness": {...}, "message_contains": ["..."],
                 "fix_contains": ["..."]}],
   "only_these_fail": true}                            # no other failed kernel finding allowed
The patch supports add, remove, replace, copy and test with JSON pointers ("-" appends); a
"test" step ({"op": "test", "path": "/ops/44/name", "value": "epi_ld_n0_slab1"}) fails the case
when the model no longer has that value there, so a patch by index cannot silently hit another op. "witness"
matches as a subset (every expected key present with a matching value; lists element by element).
Expected findings are matched in any order; each must match a distinct finding. A buffer-check
expectation is {"buffer": NAME, "id": CHECK, "status": ...}. A new bug report becomes a case by
adding a file. Prints "N passed, M failed" and exits non-zero on any failure.
With "only_these_fail", a failed finding that the corpus baseline (models/baseline.json) accepts
for the case's kernel — same kernel, subject, check and related, as `run --baseline` matches — is
known, not unexpected: a case about one check on a real model is not broken by another check's
triaged finding on the same model; `run` gets the same baseline, so those findings do not set the
exit code either.
"""
import argparse
import concurrent.futures
import copy
import json
import os
import subprocess
import sys
import tempfile


def pointer_parts(ptr):
    if ptr == "":
        return []
    if not ptr.startswith("/"):
        raise ValueError(f"bad JSON pointer {ptr!r}")
    return [p.replace("~1", "/").replace("~0", "~") for p in ptr[1:].split("/")]


def resolve(doc, parts):
    cur = doc
    for p in parts:
        cur = cur[int(p)] if isinstance(cur, list) else cur[p]
    return cur


def apply_patch(doc, patch):
    doc = copy.deepcopy(doc)
    for step in patch:
        op, parts = step["op"], pointer_parts(step["path"])
        parent = resolve(doc, parts[:-1]) if parts else None
        last = parts[-1] if parts else None
        if op in ("add", "replace", "copy"):
            value = copy.deepcopy(resolve(doc, pointer_parts(step["from"])) if op == "copy" else step["value"])
            if isinstance(parent, list):
                if last == "-":
                    parent.append(value)
                elif op == "replace":
                    parent[int(last)] = value
                else:
                    parent.insert(int(last), value)
            else:
                if op == "replace" and last not in parent:
                    raise KeyError(f"replace: {step['path']} does not exist")
                parent[last] = value
        elif op == "test":
            actual = resolve(doc, parts)
            if actual != step["value"]:
                raise ValueError(f"test {step['path']}: expected {step['value']!r}, the model has {actual!r}")
        elif op == "remove":
            if isinstance(parent, list):
                del parent[int(last)]
            else:
                del parent[last]
        else:
            raise ValueError(f"unsupported patch op {op!r}")
    return doc


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
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return f"{path}: expected a list of {len(expected)}, got {json.dumps(actual)[:200]}"
        for i, (e, a) in enumerate(zip(expected, actual)):
            err = matches(e, a, f"{path}[{i}]")
            if err:
                return err
        return None
    return None if expected == actual else f"{path}: expected {expected!r}, got {actual!r}"


def finding_matches(exp, f):
    for key in ("check", "subject", "subject_kind", "status", "severity"):
        if key in exp and f.get(key) != exp[key]:
            return f"{key} {f.get(key)!r} != {exp[key]!r}"
    if "witness" in exp:
        err = matches(exp["witness"], f.get("witness"), "witness")
        if err:
            return err
    for s in exp.get("message_contains", []):
        if s not in f.get("message", ""):
            return f"message lacks {s!r}: {f.get('message')!r}"
    for s in exp.get("fix_contains", []):
        if s not in f.get("fix", ""):
            return f"fix lacks {s!r}: {f.get('fix')!r}"
    return None


def baseline_keys(root):
    path = os.path.join(root, "models", "baseline.json")
    if not os.path.exists(path):
        return set()
    doc = json.load(open(path))
    return {(f["kernel"], f["subject"], f["check"], tuple(f.get("related", []))) for f in doc.get("findings", [])}


def run_case(binary, root, path, known=frozenset()):
    case = json.load(open(path))
    if "inline" in case:
        model = case["inline"]
    else:
        model = json.load(open(os.path.join(root, case["model"])))
    try:
        model = apply_patch(model, case.get("patch", []))
    except (KeyError, IndexError, ValueError) as e:
        return [f"patch does not apply: {e}"]
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as tmp:
        json.dump(model, tmp, indent=1)
        name = tmp.name
    try:
        args = [binary, "run", name, "--json"]
        baseline = os.path.join(root, "models", "baseline.json")
        if known and os.path.exists(baseline):
            args += ["--baseline", baseline]
        proc = subprocess.run(args, capture_output=True, text=True, timeout=120)
    finally:
        os.unlink(name)
    errors = []
    if proc.returncode != case.get("exit", proc.returncode):
        errors.append(f"exit {proc.returncode}, expected {case['exit']}; stderr: {proc.stderr[:400]}")
    try:
        report = json.loads(proc.stdout)
    except json.JSONDecodeError:
        return errors + [f"stdout is not JSON: {proc.stdout[:400]} {proc.stderr[:400]}"]
    if "kernels" not in report:  # an input error: {"error": {...}}
        return errors + [f"no report: {json.dumps(report.get('error', report))[:400]}"]
    kernel = report["kernels"][0]
    findings = kernel.get("findings", [])
    used = set()
    for exp in case.get("findings", []):
        if "buffer" in exp:  # a buffer (layout) check
            bufs = [b for b in kernel["buffers"] if b["name"] == exp["buffer"]]
            if not bufs:
                errors.append(f"no buffer {exp['buffer']!r}")
                continue
            res = [c for c in bufs[0]["checks"] if c["id"] == exp["id"]]
            err = matches({k: v for k, v in exp.items() if k not in ("buffer", "id")}, res[0] if res else None)
            if err:
                errors.append(f"buffer {exp['buffer']} {exp['id']}: {err}")
            continue
        why = []
        for i, f in enumerate(findings):
            if i in used:
                continue
            err = finding_matches(exp, f)
            if err is None:
                used.add(i)
                break
            if f.get("check") == exp.get("check") and f.get("subject") == exp.get("subject", f.get("subject")):
                why.append(err)
        else:
            errors.append(f"no finding matches {json.dumps(exp)[:300]}; near misses: {why[:3]}")
    if case.get("only_these_fail"):
        for i, f in enumerate(findings):
            key = (kernel.get("kernel"), f.get("subject"), f.get("check"), tuple(f.get("related", [])))
            if f["status"] == "fail" and i not in used and key not in known:
                errors.append(f"unexpected failure: {f['check']} {f['subject']}: {f['message'][:300]}")
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--cases", required=True)
    ap.add_argument("--root", required=True)
    a = ap.parse_args()
    passed = failed = 0
    known = baseline_keys(a.root)
    names = sorted(fn for fn in os.listdir(a.cases) if fn.endswith(".json"))
    # Cases are independent processes: run them on every core (the sanitized pass spends most of
    # its time here), report them in name order.
    with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        outcomes = list(pool.map(lambda fn: run_case(a.bin, a.root, os.path.join(a.cases, fn), known), names))
    for fn, errs in zip(names, outcomes):
        if errs:
            failed += 1
            print(f"FAIL {fn}")
            for e in errs:
                print(f"     {e}")
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
