#!/usr/bin/env python3
"""Golden-output and structure tests of `tirx-verify run`'s report formats (text, json, sarif,
junit) and of baselines, on a small model set (tests/kernel/example_gemm.json, clean, and
tests/report/models/broken_tile.json: one error, one warning).

  1. Each format's output, with times normalised, equals tests/report/golden/run.<ext>
     (regenerate with --update after an intended change, and read the diff).
  2. The JSON report conforms to docs/report-format.schema.json (python3-jsonschema).
  3. The SARIF log has every property SARIF 2.1.0 requires of sarifLog, run, tool, rule,
     result and location, with values in their domains.
  4. The JUnit XML parses and its counts add up.
  5. Baseline round trip: --write-baseline, then --baseline gives exit 0 and every finding
     known; a model with one more finding gives exit 1 and only that one is new.
  6. --fail-on: warning fails a run whose only new finding is a warning; error does not.
Prints "N passed, M failed".
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import jsonschema

MODELS = ["tests/kernel/example_gemm.json", "tests/report/models/broken_tile.json"]
EXT = {"text": "txt", "json": "json", "sarif": "sarif", "junit": "xml"}


def normalise(fmt, text):
    if fmt == "text":
        return re.sub(r"checked in [0-9.]+ s", "checked in T s", text)
    if fmt == "junit":
        return re.sub(r'time="[0-9.]+"', 'time="T"', text)
    doc = json.loads(text)

    def scrub(x):
        if isinstance(x, dict):
            return {k: ("T" if k == "seconds" else scrub(v)) for k, v in x.items()}
        if isinstance(x, list):
            return [scrub(v) for v in x]
        return x
    return json.dumps(scrub(doc), indent=2, sort_keys=True) + "\n"


def run(binary, root, *args):
    p = subprocess.run([binary, "run", *MODELS, *args], capture_output=True,
                       text=True, cwd=root, timeout=120)
    return p.returncode, p.stdout, p.stderr


def run_models(binary, root, models, *args):
    p = subprocess.run([binary, "run", *models, *args], capture_output=True, text=True, cwd=root, timeout=120)
    return p.returncode, p.stdout, p.stderr


def check_sarif(log):
    """Required properties of SARIF 2.1.0 (sections 3.13, 3.14, 3.18, 3.19, 3.49, 3.27, 3.28-3.30)."""
    errs = []
    if log.get("version") != "2.1.0":
        errs.append("sarifLog.version must be \"2.1.0\"")
    if not isinstance(log.get("runs"), list):
        return errs + ["sarifLog.runs must be an array"]
    for r in log["runs"]:
        driver = r.get("tool", {}).get("driver")
        if not isinstance(driver, dict) or not isinstance(driver.get("name"), str) or not driver["name"]:
            errs.append("run.tool.driver.name is required")
            continue
        rules = driver.get("rules", [])
        ids = [x.get("id") for x in rules]
        if any(not isinstance(i, str) or not i for i in ids):
            errs.append("every rule needs an id")
        if len(set(ids)) != len(ids):
            errs.append("rule ids must be unique")
        for rule in rules:
            lvl = rule.get("defaultConfiguration", {}).get("level", "warning")
            if lvl not in ("none", "note", "warning", "error"):
                errs.append(f"rule {rule.get('id')}: bad level {lvl}")
            if "text" not in rule.get("shortDescription", {"text": ""}):
                errs.append(f"rule {rule.get('id')}: shortDescription needs text")
        for res in r.get("results", []):
            msg = res.get("message", {})
            if not isinstance(msg, dict) or not (isinstance(msg.get("text"), str) or isinstance(msg.get("id"), str)):
                errs.append("result.message needs text or id")
            if res.get("level", "warning") not in ("none", "note", "warning", "error"):
                errs.append(f"result level {res.get('level')}")
            if res.get("kind", "fail") not in ("notApplicable", "pass", "fail", "review", "open", "informational"):
                errs.append(f"result kind {res.get('kind')}")
            if "ruleIndex" in res and (res["ruleIndex"] >= len(rules) or rules[res["ruleIndex"]]["id"] != res.get("ruleId")):
                errs.append(f"result ruleIndex {res.get('ruleIndex')} does not name rule {res.get('ruleId')}")
            if "baselineState" in res and res["baselineState"] not in ("new", "unchanged", "updated", "absent"):
                errs.append(f"baselineState {res['baselineState']}")
            for loc in res.get("locations", []):
                phys = loc.get("physicalLocation")
                if phys is not None:
                    if "artifactLocation" not in phys and "address" not in phys:
                        errs.append("physicalLocation needs artifactLocation or address")
                    reg = phys.get("region")
                    if reg is not None:
                        if not any(k in reg for k in ("startLine", "charOffset", "byteOffset")):
                            errs.append("region needs startLine, charOffset or byteOffset")
                        if reg.get("startLine", 1) < 1 or reg.get("startColumn", 1) < 1:
                            errs.append("region lines and columns are 1-based")
                for ll in loc.get("logicalLocations", []):
                    if not any(k in ll for k in ("name", "fullyQualifiedName", "decoratedName", "index")):
                        errs.append("logicalLocation needs a name")
            for sup in res.get("suppressions", []):
                if sup.get("kind") not in ("inSource", "external"):
                    errs.append(f"suppression kind {sup.get('kind')}")
    return errs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--update", action="store_true")
    a = ap.parse_args()
    root = os.path.abspath(a.root)
    golden = os.path.join(root, "tests/report/golden")
    results = []  # (name, error or None)

    outputs = {}
    for fmt in EXT:
        code, out, err = run(a.bin, root, "--format", fmt)
        outputs[fmt] = out
        name = f"golden {fmt}"
        if code != 1:
            results.append((name, f"exit {code}, expected 1: {err[:300]}"))
            continue
        got = normalise(fmt, out).replace(root + "/", "")
        path = os.path.join(golden, f"run.{EXT[fmt]}")
        if a.update:
            open(path, "w").write(got)
        want = open(path).read() if os.path.exists(path) else ""
        results.append((name, None if got == want else f"differs from {os.path.relpath(path, root)} (rerun with --update and read the diff)"))

    schema = json.load(open(os.path.join(root, "docs/report-format.schema.json")))
    errs = sorted(jsonschema.Draft202012Validator(schema).iter_errors(json.loads(outputs["json"])), key=str)
    results.append(("json schema", None if not errs else f"{errs[0].message[:300]} at {list(errs[0].absolute_path)}"))

    sarif = json.loads(outputs["sarif"])
    errs = check_sarif(sarif)
    n_results = len(sarif["runs"][0]["results"])
    if n_results != 2:
        errs.append(f"{n_results} results, expected 2 (one error, one warning)")
    results.append(("sarif structure", "; ".join(errs) or None))

    try:
        x = ET.fromstring(outputs["junit"])
        suites = x.findall("testsuite")
        cases = [c for s in suites for c in s.findall("testcase")]
        fails = [c for c in cases if c.find("failure") is not None]
        err = None
        if int(x.get("tests")) != len(cases) or int(x.get("failures")) != len(fails):
            err = f"totals {x.get('tests')}/{x.get('failures')} vs {len(cases)} cases / {len(fails)} failures"
        elif [f.find("failure").get("type") for f in fails] != ["kernel.overlap"]:
            err = f"failures {[f.find('failure').get('type') for f in fails]}, expected only kernel.overlap (the warning is below --fail-on error)"
        results.append(("junit structure", err))
    except ET.ParseError as e:
        results.append(("junit structure", f"not XML: {e}"))

    with tempfile.TemporaryDirectory() as tmp:
        base = os.path.join(tmp, "baseline.json")
        code, _, err = run(a.bin, root, "--write-baseline", base)
        bl = json.load(open(base))
        ok = code == 1 and len(bl["findings"]) == 2
        code, out, _ = run(a.bin, root, "--baseline", base, "--format", "json")
        rep = json.loads(out)
        ok = ok and code == 0 and rep["summary"]["known"] == 2 and rep["summary"]["findings"]["new"]["error"] == 0
        # One more finding: a third TMEM buffer inside acc.
        model = json.load(open(os.path.join(root, MODELS[1])))
        model["buffers"].append({"name": "acc3", "scope": "tmem", "shape": [128, 32], "dtype": "float32",
                                 "layout": "S[(128,32):(1@TLane,1@TCol)]", "placement": {"col": 64}})  # inside acc2 only
        more = os.path.join(tmp, "broken_more.json")
        json.dump(model, open(more, "w"))
        code, out, _ = run_models(a.bin, root, [os.path.join(root, MODELS[0]), more], "--baseline", base, "--format", "json")
        rep = json.loads(out)
        new = [f for k in rep["kernels"] for f in k["findings"] if f["status"] == "fail" and not f.get("known")]
        ok = ok and code == 1 and len(new) == 1 and new[0]["subject"] == "acc2" and new[0]["related"] == ["acc3"] and rep["summary"]["known"] == 2
        results.append(("baseline round trip", None if ok else f"exit {code}, new {json.dumps(new)[:400]}"))
        # An entry accepts findings up to its severity: the error accepted as a warning is new.
        errs = [e for e in bl["findings"] if e["severity"] == "error"]
        for e in errs:
            e["severity"] = "warning"
        lowered = os.path.join(tmp, "lowered.json")
        json.dump(bl, open(lowered, "w"))
        code, out, _ = run(a.bin, root, "--baseline", lowered, "--format", "json")
        rep = json.loads(out)
        new = [f for k in rep["kernels"] for f in k["findings"] if f["status"] == "fail" and not f.get("known")]
        ok = bool(errs) and code == 1 and len(new) == len(errs) and rep["summary"]["baseline_unmatched"] == 0
        results.append(("baseline severity", None if ok else f"exit {code}, {len(new)} new of {len(errs)} lowered"))
        # Unknown keys and severities in a baseline are bad input, with the entry's path.
        for patch, want in ((("note2", 1), "unknown key 'note2'"), (("severity", "fatal"), "severity must be")):
            bad = json.loads(json.dumps(bl))
            bad["findings"][0][patch[0]] = patch[1]
            path = os.path.join(tmp, "bad.json")
            json.dump(bad, open(path, "w"))
            code, _, err = run(a.bin, root, "--baseline", path)
            results.append((f"baseline {patch[0]}", None if code == 2 and want in err and "$.findings[0]" in err
                            else f"exit {code}: {err[:300]}"))

    code1, _, _ = run_models(a.bin, root, [os.path.join(root, MODELS[0])], "--fail-on", "warning")
    model = json.load(open(os.path.join(root, MODELS[1])))
    model["buffers"] = [b for b in model["buffers"] if b["name"] != "acc2"]  # only the warning is left
    with tempfile.TemporaryDirectory() as tmp:
        w = os.path.join(tmp, "warning_only.json")
        json.dump(model, open(w, "w"))
        c_err, _, _ = run_models(a.bin, root, [w], "--fail-on", "error")
        c_warn, _, _ = run_models(a.bin, root, [w], "--fail-on", "warning")
    results.append(("fail-on", None if (code1, c_err, c_warn) == (0, 0, 1) else f"exits {(code1, c_err, c_warn)}, expected (0, 0, 1)"))

    # --jobs: the corpus report (every kernel, every finding, in order) is the same on 1 and 4
    # threads, and a bad file among good ones is the same error as in the serial loop.
    corpus = os.path.join(root, "models/kernels")
    baseline = os.path.join(root, "models/baseline.json")
    runs = [run_models(a.bin, root, [corpus], "--baseline", baseline, "--format", "json", "--jobs", j) for j in ("1", "4")]
    same = runs[0][0] == runs[1][0] == 0 and normalise("json", runs[0][1]) == normalise("json", runs[1][1])
    kernels = len(json.loads(runs[0][1])["kernels"]) if runs[0][0] == 0 else 0
    results.append(("jobs 1 vs 4", None if same and kernels >= 30 else
                    f"exits {runs[0][0]}/{runs[1][0]}, {kernels} kernels, reports {'equal' if same else 'differ'}"))
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in (("a.json", open(os.path.join(root, MODELS[0])).read()), ("b.json", "{"), ("c.json", "[")):
            open(os.path.join(tmp, name), "w").write(text)
        errs = [run_models(a.bin, root, [tmp], "--json", "--jobs", j) for j in ("1", "3")]
        first = [json.loads(e[1]).get("error", {}).get("message", "") for e in errs]
        ok = all(e[0] == 2 for e in errs) and first[0] == first[1] and "b.json" in first[0]
        results.append(("jobs: the first bad file", None if ok else f"exits {[e[0] for e in errs]}, messages {first}"))

    # Bad input still writes the SARIF / JUnit file with -o (exit 2); -o never overwrites an input;
    # a control character in a layout (it reaches a message) stays valid XML.
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty.json")
        open(empty, "w").write("")
        sarif_out, junit_out = os.path.join(tmp, "r.sarif"), os.path.join(tmp, "r.xml")
        c1, _, _ = run_models(a.bin, root, [empty], "--format", "sarif", "-o", sarif_out)
        c2, _, _ = run_models(a.bin, root, [empty], "--format", "junit", "-o", junit_out)
        ok, why = c1 == 2 and c2 == 2, f"exits {c1}, {c2}"
        try:
            log = json.load(open(sarif_out))
            inv = log["runs"][0]["invocations"][0]
            ok = ok and inv["executionSuccessful"] is False and \
                inv["toolExecutionNotifications"][0]["descriptor"]["id"] == "model.syntax" and log["runs"][0]["results"] == []
            err = ET.parse(junit_out).getroot().find("testsuite/testcase/error")
            ok = ok and err is not None and err.get("type") == "model.syntax"
        except (OSError, ValueError, KeyError, IndexError, ET.ParseError) as e:
            ok, why = False, f"{why}: {e}"
        results.append(("bad input still writes the report file", None if ok else why))
        victim = os.path.join(tmp, "victim.json")
        shutil.copy(os.path.join(root, MODELS[0]), victim)
        before = open(victim).read()
        c3, _, err3 = run_models(a.bin, root, [victim], "--json", "-o", victim)
        c4, _, err4 = run_models(a.bin, root, [tmp], "--write-baseline", os.path.join(tmp, "victim.json"))
        ok = c3 == 2 and c4 == 2 and "overwrite its input" in err3 and "overwrite its input" in err4 and open(victim).read() == before
        results.append(("-o / --write-baseline refuse an input", None if ok else f"exits {c3}, {c4}: {err3[:200]} {err4[:200]}"))
        model = json.load(open(os.path.join(root, MODELS[0])))
        model["buffers"][0]["layout"] = "S[8:1]\u0001"
        ctl = os.path.join(tmp, "ctl.json")
        json.dump(model, open(ctl, "w"))
        c5, out5, _ = run_models(a.bin, root, [ctl], "--format", "junit")
        try:
            errs = ET.fromstring(out5).findall(".//error")
            ok = c5 == 2 and any(e.get("type") == "layout.syntax" for e in errs) and "\x01" not in out5
        except ET.ParseError:
            ok = False
        results.append(("junit: control characters", None if ok else f"exit {c5}, not XML or no layout.syntax error"))

    failed = [(n, e) for n, e in results if e]
    for n, e in failed:
        print(f"FAIL {n}: {e}")
    print(f"{len(results) - len(failed)} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
