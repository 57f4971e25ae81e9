#!/usr/bin/env python3
"""Names with internal linkage must be unique within a target, because of unity builds.

    python3 tests/docs/check_unity_names.py --root .

The build compiles each target's sources in unity batches (TIRX_UNITY_BUILD, CMakeLists.txt): several
.cpp files become one translation unit. Two files that both define a helper of the same name in an
anonymous namespace (or `static`) then meet in one scope: the same signature is a compile error, but
different signatures are overloads, and a call in one file can silently pick the other file's helper
(it happened: lower_tma.cpp's `refuse` and lower_gemm.cpp's). Batches shift whenever a file is added,
so the rule is checked over the whole target, not per batch: every name declared at namespace scope
with internal linkage (inside `namespace {`, `static` at namespace scope, or a namespace-scope
`const`/`constexpr` variable) is defined by one file of its target only. Files the build compiles on their own (SKIP_UNITY_BUILD_INCLUSION in
tests/CMakeLists.txt) are exempt. A macro is the same hazard across files: one that a unity-built
file `#define`s and does not `#undef` before its end is defined in every file after it in the
batch, so it is reported too. Exit 1 and one line per clash; exit 0 when there is none.

Not checked: a namespace-scope `using namespace X;` also reaches the files after it in a batch
(several unit tests have `using namespace tirx::test;`); only a clash it causes at compile time is
caught, by the compiler.
"""
from __future__ import annotations

import argparse
import collections
import glob
import os
import re
import sys

IDENT = re.compile(r"[A-Za-z_]\w*")
KEYWORDS = {"const", "constexpr", "static", "inline", "struct", "class", "enum", "union", "using",
            "template", "typename", "unsigned", "signed", "long", "short", "int", "char", "bool",
            "void", "double", "float", "auto", "noexcept", "operator", "std", "extern", "thread_local"}

# Customization points found by argument-dependent lookup, overloaded by parameter type on purpose.
OVERLOAD_POINTS = {"showValue"}  # RapidCheck's printer of a generated value


def strip(text: str) -> str:
    """The source with comments, string and character literals (raw strings too) and preprocessor
    lines blanked out, newlines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        elif c == "R" and text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            k = text.find("(", i + 2)
            delim = text[i + 2:k]
            j = text.find(")" + delim + '"', k)
            seg = text[i:j + len(delim) + 2]
            out.append('""' + "\n" * seg.count("\n"))
            i = j + len(delim) + 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append('""')
            i = j + 1
        elif c == "#" and (i == 0 or text[i - 1] == "\n" or text[:i].rsplit("\n", 1)[-1].strip() == ""):
            j = i
            while True:  # a directive continues over backslash-newlines
                k = text.find("\n", j)
                if k < 0 or text[k - 1] != "\\":
                    break
                j = k + 1
            i = n if k < 0 else k
        else:
            out.append(c)
            i += 1
    return "".join(out)


def internal_names(path: str) -> set[tuple[str, str]]:
    """(named-namespace path, name) of every declaration with internal linkage at namespace scope."""
    text = strip(open(path, encoding="utf-8").read())
    stack = []  # entries: ("ns", name or "") or ("block", "")
    chunk, names, paren = [], set(), 0

    def at_namespace():
        return not stack or stack[-1][0] == "ns"

    def finish():
        s = " ".join("".join(chunk).split())
        chunk.clear()
        if not s or not at_namespace():
            return
        anon = any(k == "ns" and not v for k, v in stack)
        bare = re.sub(r"\[\[[^\]]*\]\]\s*", "", s)  # attributes first: [[maybe_unused]] static ...
        static = re.match(r"(template\s*<[^>]*>\s*)?(?:(?:constexpr|inline)\s+)*static\b", bare)
        # a const or constexpr variable at namespace scope has internal linkage too (not inline/extern)
        const_var = (re.match(r"(?:constexpr|const)\b", bare) and not re.search(r"\b(?:inline|extern)\b", bare)
                     and "(" not in re.split(r"[={]", bare, 1)[0])
        if not (anon or static or const_var):
            return
        ns = "::".join(v for k, v in stack if k == "ns" and v)
        name = declared_name(s)
        if name:
            names.add((ns, name))

    i = 0
    while i < len(text):
        c = text[i]
        if c == "(":
            paren += 1
        elif c == ")":
            paren -= 1
        if paren == 0 and c == "{":
            head = " ".join("".join(chunk).split())
            m = re.search(r"\bnamespace\s*([\w:]*)\s*$", head)
            if m and at_namespace():
                chunk.clear()
                stack.append(("ns", m.group(1)))
            else:
                # a body: function, class, initializer; the head is the declaration
                stack.append(("block", head))
            i += 1
            continue
        if paren == 0 and c == "}":
            kind, head = stack.pop() if stack else ("ns", "x")
            if kind == "block" and at_namespace():
                chunk.append(" ")
                # `struct X { ... };` / `T f(...) { ... }`: the head is complete now unless a
                # declarator follows (`} x;`, `= {...};` ends at the `;`)
                rest = text[i + 1:i + 40].lstrip()
                if not rest.startswith((";", ",", ")")) and not re.match(r"\w", rest):
                    finish()
            elif kind == "ns":
                chunk.clear()
            i += 1
            continue
        if paren == 0 and c == ";" and at_namespace():
            finish()
            i += 1
            continue
        if at_namespace():
            chunk.append(c)
        i += 1
    return names


DIRECTIVE = re.compile(r"^[ \t]*#[ \t]*(define|undef)[ \t]+(\w+)", re.M)


def leaked_macros(path: str) -> list[str]:
    """Macros the file defines and has not undefined again at its end (in order of definition)."""
    live: dict[str, None] = {}
    for kind, name in DIRECTIVE.findall(open(path, encoding="utf-8").read()):
        if kind == "define":
            live[name] = None
        else:
            live.pop(name, None)
    return list(live)


def declared_name(decl: str) -> str | None:
    decl = re.sub(r"\[\[[^\]]*\]\]", " ", decl)
    decl = re.sub(r"^template\s*<.*?>\s*(?=[A-Za-z\[])", "", decl)
    if re.match(r"using\b", decl) and not re.match(r"using\s+\w+\s*=", decl):
        return None  # `using namespace X;`, `using X::f;`: the same entity may be named in many files
    if re.match(r"(TEST|TEST_F|TEST_P|TYPED_TEST|RC_GTEST_PROP|RC_GTEST_FIXTURE_PROP|INSTANTIATE_TEST_SUITE_P)\s*\(", decl):
        return None  # gtest / RapidCheck macros: each expands to uniquely named classes
    m = re.match(r"using\s+(\w+)\s*=", decl)
    if m:
        return m.group(1)
    m = re.match(r"(?:(?:static|inline|constexpr)\s+)*(?:struct|class|union|enum(?:\s+class)?)\s+(\w+)", decl)
    if m:
        return m.group(1)
    if "(" in decl.split("=", 1)[0]:
        head = decl.split("(", 1)[0]
        if re.search(r"\boperator\b", head):
            return None
        ids = [t for t in IDENT.findall(head)]
        return ids[-1] if ids and ids[-1] not in KEYWORDS else None
    head = re.split(r"[={]", decl, 1)[0]
    ids = [t for t in IDENT.findall(re.sub(r"<[^<>]*>", " ", head))]
    return ids[-1] if ids and ids[-1] not in KEYWORDS else None


def skipped(root: str) -> set[str]:
    """Files tests/CMakeLists.txt compiles outside the unity batches."""
    text = open(os.path.join(root, "tests", "CMakeLists.txt"), encoding="utf-8").read()
    out = set()
    for m in re.finditer(r"set_source_files_properties\((.*?)PROPERTIES\s+SKIP_UNITY_BUILD_INCLUSION", text, re.S):
        out.update(os.path.normpath(os.path.join(root, "tests", f)) for f in m.group(1).split())
    return out


def targets(root: str) -> dict[str, list[str]]:
    g = lambda pat: sorted(glob.glob(os.path.join(root, pat), recursive=True))
    out = {f"tirx_{m}": g(f"src/{m}/**/*.cpp") for m in
           ("layout", "hw", "prove", "kernel", "report", "render", "props")}
    out["tirx_cli"] = g("tools/tirx-verify/*.cpp")
    out["property_tests"] = g("tests/property/*.cpp")
    for f in g("tests/unit/*.cpp"):
        out.setdefault("unit_" + os.path.basename(f).split("_")[0], []).append(f)
    out["tirx_verify_core"] = g("python/src/*.cpp")
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
    root = os.path.normpath(ap.parse_args().root)
    skip = skipped(root)
    clashes = 0
    for target, files in targets(root).items():
        where = collections.defaultdict(list)
        for f in files:
            if os.path.normpath(f) in skip:
                continue
            for ns, name in internal_names(f):
                where[(ns, name)].append(os.path.relpath(f, root))
            for macro in leaked_macros(f):
                clashes += 1
                print(f"{target}: {os.path.relpath(f, root)} defines the macro {macro} and does not #undef it at "
                      f"its end: in a unity batch it stays defined in the files after it (add #undef {macro})")
        for (ns, name), fs in sorted(where.items()):
            if len(fs) > 1 and name not in OVERLOAD_POINTS:
                clashes += 1
                print(f"{target}: '{(ns + '::' if ns else '') + name}' has internal linkage in {len(fs)} files "
                      f"of one target ({', '.join(fs)}): rename all but one (unity builds put them in one scope)")
    if clashes:
        return 1
    print(f"unity names: no internal-linkage name is defined twice within a target and no macro outlives its file "
          f"({sum(len(v) for v in targets(root).values()) - len(skip)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
