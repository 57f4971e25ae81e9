#!/usr/bin/env python3
"""Convert the real-kernel layout corpus into tirx-verify model files (models/kernels/*.json).

Input
  ../shared/corpus/kernel_layouts.jsonl     421 records, one distinct layout each, extracted from
                                            the public TIRx-kernels repositories (fields: the
                                            corpus README).
  tools/corpus/overrides.json               hand-researched parameter values of each kernel's
                                            default configuration (every value with its origin in
                                            the kernel sources) and per-record mappings.
Output
  models/kernels/<kernel>.json              one model per kernel stem; format: docs/model-format.md

How a record becomes a buffer (docs/corpus-conversion.md tells the whole story)
  1. Source text: the override's "source" if given, else the record's folded form "resolved",
     else its raw "layout_src" (alloc_cast_frag: the allocation of the fragment it casts).
  2. corpus_notation.Translator parses it as Python and prints the layout in project notation,
     evaluating every integer with the kernel's parameter table, so `layout` is concrete.  The
     record's raw `layout_src`, translated with names kept, is `layout_symbolic` (only when the
     record had unresolved symbols).
  3. Shape, dtype and scope come from the record (evaluated with the same table) or the override.

Self-checks (the run fails, listing every offending record, when one does not hold)
  * every layout string is non-empty and concrete: no identifier outside the notation's
    keywords, factory names and axis names (quoted strings aside);
  * the logical size of every layout whose size is computable (S[...] shards, factories,
    tile/unpack/broadcast chains) equals the product of the buffer's shape;
  * every one of the corpus records is converted exactly once, buffer names are unique in a model,
    every scope is one of shared.dyn | shared | tmem | local | global, every shape is positive.

Usage
  python3 tools/corpus/convert_corpus.py                 write models/kernels/
  python3 tools/corpus/convert_corpus.py --check         exit 1 if a committed model is stale
  options: --corpus PATH --overrides PATH --out DIR
Deterministic: the same inputs give byte-identical files.  Python 3 standard library only.
"""
from __future__ import annotations

import argparse
import ast
import json
import math
import sys
from pathlib import Path

from corpus_notation import (DTYPE_ALIASES, DTYPE_BITS, SWIZZLE_BY_NAME, SWIZZLE_NAMES, ConvertError,
                             DType, Swizzle, Translator, check_concrete, dotted, make_dtype,
                             parse_expr, strip_builder)

REPO_ROOT = Path(__file__).resolve().parents[2]
DEFAULT_CORPUS = REPO_ROOT.parent / "shared" / "corpus" / "kernel_layouts.jsonl"  # ../shared
DEFAULT_OVERRIDES = REPO_ROOT / "tools" / "corpus" / "overrides.json"
DEFAULT_OUT = REPO_ROOT / "models" / "kernels"
SCOPES = ("shared.dyn", "shared", "tmem", "local", "global")

# Short tags that make repeated buffer names unique ("A_smem/alloc_mma").
TAGS = {
    "implicit:kern_smem_alloc_swizzle": "kern_smem", "implicit:alloc_tcgen05_mma_AB": "mma_AB",
    "implicit:alloc_mma": "alloc_mma", "implicit:tmem_pool.alloc(default)": "tmem_pool",
    "implicit:alloc_tcgen05_ldst_frag": "ldst_frag", "implicit:alloc_cast_frag": "cast_frag",
    "implicit:wg_reg_tile": "wg_reg_tile", "implicit:alloc_sf": "alloc_sf",
    "implicit:alloc_tcgen05_mma_D": "mma_D", "implicit:alloc_tcgen05_mma_A": "mma_A",
    "implicit:alloc_mma_D": "alloc_mma_D", "implicit:alloc_mma_A": "alloc_mma_A",
}


# ---------------------------------------------------------------------------------------------
# Parameter tables
# ---------------------------------------------------------------------------------------------


def decode_value(v):
    """JSON value of an override parameter -> evaluator value."""
    if isinstance(v, str):
        if v.startswith("SwizzleMode."):
            return Swizzle(SWIZZLE_BY_NAME[v.split(".", 1)[1]])
        if v in DTYPE_BITS or v in DTYPE_ALIASES:
            return make_dtype(v)
    if isinstance(v, list):
        return tuple(v)
    return v


def encode_value(v):
    """Evaluator value -> JSON value written to a model."""
    if isinstance(v, Swizzle):
        return f"SwizzleMode.{SWIZZLE_NAMES[v.mode]}"
    if isinstance(v, DType):
        return str(v)
    if isinstance(v, tuple):
        return [encode_value(x) for x in v]
    return v


def build_env(kernel_params: dict, local: dict | None) -> dict:
    """Evaluate a parameter table: plain values, or expressions over other parameters.

    Record-local parameters replace kernel parameters of the same name.  Expressions are
    evaluated in dependency order (repeated passes until nothing changes).
    """
    specs = dict(kernel_params)
    specs.update(local or {})
    env, pending = {}, []
    for name, spec in specs.items():
        if "value" in spec:
            env[name] = decode_value(spec["value"])
        elif "expr" in spec:
            pending.append(name)
        else:
            raise ConvertError(f"param {name}: needs 'value' or 'expr'")
    while pending:
        done, last_error = [], None
        for name in pending:
            try:
                env[name] = Translator(env, symbolic=False).value(parse_expr(specs[name]["expr"]))
                done.append(name)
            except ConvertError as err:
                last_error = err
        if not done:
            raise ConvertError(f"param {pending[0]}: {last_error}")
        pending = [n for n in pending if n not in done]
    return env


def expr_dependencies(specs: dict, names: set) -> set:
    """`names` plus every parameter their expressions refer to, transitively."""
    out, todo = set(), list(names)
    while todo:
        name = todo.pop()
        if name in out or name not in specs:
            continue
        out.add(name)
        if "expr" in specs[name]:
            for node in ast.walk(parse_expr(specs[name]["expr"])):
                if isinstance(node, (ast.Name, ast.Attribute)):
                    d = dotted(node)
                    if d is not None and strip_builder(d) in specs:
                        todo.append(strip_builder(d))
    return out


# ---------------------------------------------------------------------------------------------
# One record
# ---------------------------------------------------------------------------------------------


def clean_dtype_field(text):
    """'bfloat16 (inherited)' / 'float32(default)' -> the dtype expression; None if absent."""
    if text is None:
        return None
    text = text.replace("(inherited)", "").replace("(default)", "").strip()
    return text or None


def cast_source(rec) -> str:
    """alloc_cast_frag copies the layout of the fragment it casts: that fragment's allocation."""
    for origin in (rec.get("symbols") or {}).values():
        expr = origin.partition(": ")[2]
        if "alloc_tcgen05_ldst_frag" in expr or "wg_reg_tile" in expr:
            return expr
    raise ConvertError("alloc_cast_frag: the cast fragment's allocation is not in the symbols")


def record_kind(rec, ov) -> str:
    if rec["constructor"].startswith("implicit:"):
        return "implied"
    return "unbound" if ov.get("unbound") else "explicit"


def convert_record(rec, kernel_params: dict, ov: dict) -> dict:
    env = build_env(kernel_params, ov.get("params"))
    used = set()

    # dtype
    if "dtype" in ov:
        dtype = make_dtype(ov["dtype"])
    else:
        dfield = clean_dtype_field(rec["dtype"])
        if dfield is None:
            raise ConvertError("the record has no dtype; an override is needed")
        tr = Translator(env, symbolic=False)
        dtype = tr.dtype_value(parse_expr(dfield))
        used |= tr.used

    # concrete layout
    if "source" in ov:
        src = ov["source"]
    elif rec["constructor"] == "implicit:alloc_cast_frag":
        src = cast_source(rec)
    else:
        src = rec.get("resolved") or rec["layout_src"]
    conc = Translator(env, symbolic=False)
    lay = conc.layout(parse_expr(src))
    layout = lay.as_layout()
    check_concrete(layout)
    used |= conc.used

    # symbolic layout: the kernel's own spelling, when names were substituted (symbols whose
    # origin is a plain import, e.g. Kern or TileLayout, are module names, not parameters)
    symbolic = None
    sym_src = ov.get("symbolic_source")
    real_symbols = [k for k, v in (rec.get("symbols") or {}).items() if v != "import"]
    if sym_src is None and real_symbols and "source" not in ov:
        sym_src = cast_source(rec) if rec["constructor"] == "implicit:alloc_cast_frag" else rec["layout_src"]
    if sym_src is not None:
        try:
            text = Translator(env, symbolic=True).layout(parse_expr(sym_src)).as_layout()
        except ConvertError as err:
            raise ConvertError(f"symbolic form: {err}") from None
        if text != layout:
            symbolic = text

    # shape
    shape_tr = Translator(env, symbolic=False)
    if "shape" in ov:
        shape = ov["shape"]
        if isinstance(shape, str):
            shape = list(shape_tr.value(parse_expr(shape)))
    else:
        if rec["shape"] is None:
            raise ConvertError("the record has no shape; an override is needed")
        v = shape_tr.value(parse_expr(rec["shape"]))
        shape = list(v) if isinstance(v, (tuple, list)) else [v]
    used |= shape_tr.used
    if not shape or not all(isinstance(x, int) and not isinstance(x, bool) and x > 0 for x in shape):
        raise ConvertError(f"shape {shape} is not a list of positive integers")

    scope = ov.get("scope", rec["scope"])
    if scope not in SCOPES:
        raise ConvertError(f"scope {scope!r} is not one of {SCOPES}; an override is needed")
    if lay.size is not None and lay.size != math.prod(shape):
        raise ConvertError(f"layout size {lay.size} != shape product {math.prod(shape)} "
                           f"(shape {shape}, layout {layout})")
    return {"layout": layout, "layout_symbolic": symbolic, "shape": shape, "dtype": str(dtype),
            "scope": scope, "used": used}


# ---------------------------------------------------------------------------------------------
# One kernel
# ---------------------------------------------------------------------------------------------


def unique_names(recs, rec_ov) -> list:
    """Buffer names, unique in the kernel: a repeated name gets its constructor tag, then /2..."""
    base = [rec_ov.get(str(r["_line"]), {}).get("name", r["buffer"]) for r in recs]
    counts = {n: base.count(n) for n in base}
    names, taken = [], set()
    for rec, n in zip(recs, base):
        if counts[n] > 1:
            tag = TAGS.get(rec["constructor"], rec["constructor"].split(":")[-1].split(".")[-1])
            n = f"{n}/{tag}"
        cand, k = n, 2
        while cand in taken:
            cand, k = f"{n}/{k}", k + 1
        taken.add(cand)
        names.append(cand)
    return names


def param_entries(specs: dict, env: dict, names: set, suffix: str = "") -> tuple[dict, dict]:
    """(integer params, other params) for the model: {name: {value, origin}}."""
    ints, others = {}, {}
    for name in sorted(names):
        value = encode_value(env[name])
        entry = {"value": value, "origin": specs[name]["origin"]}
        if isinstance(value, int) and not isinstance(value, bool):
            ints[name + suffix] = entry
        else:
            others[name + suffix] = entry
    return ints, others


def convert_kernel(kname: str, recs: list, kcfg: dict, rec_ov: dict, errors: list) -> dict:
    specs = kcfg.get("params", {})
    names = unique_names(recs, rec_ov)
    buffers, used_kernel_params = [], set()
    params, other_params = {}, {}
    for rec, name in zip(recs, names):
        line = rec["_line"]
        ov = rec_ov.get(str(line), {})
        if ov.get("buffer") not in (None, rec["buffer"]):
            errors.append(f"line {line}: override is for buffer {ov['buffer']!r}, "
                          f"the record's buffer is {rec['buffer']!r}")
            continue
        try:
            out = convert_record(rec, specs, ov)
        except (ConvertError, KeyError, TypeError, ValueError, ZeroDivisionError, AttributeError) as err:
            errors.append(f"line {line} ({kname}/{rec['buffer']}): {err}")
            continue
        local = ov.get("params") or {}
        used_kernel_params |= {p for p in out["used"] if p in specs and p not in local}
        if local:
            lspecs = dict(specs, **local)
            lenv = build_env(specs, local)
            ints, others = param_entries(lspecs, lenv, set(local), suffix=f"@{line}")
            params.update(ints)
            other_params.update(others)
        buf = {"name": name, "scope": out["scope"], "shape": out["shape"], "dtype": out["dtype"],
               "layout": out["layout"]}
        if out["layout_symbolic"]:
            buf["layout_symbolic"] = out["layout_symbolic"]
        alloc_cols = ov.get("alloc_cols", kcfg.get("alloc_cols"))
        if out["scope"] == "tmem" and alloc_cols is not None:
            buf["alloc_cols"] = alloc_cols
        buf["corpus"] = {
            "line": line,
            "buffer": rec["buffer"],
            "constructor": rec["constructor"],
            "kind": record_kind(rec, ov),
            "layout_src": rec["layout_src"],
            "count": rec["count"],
            "n_files": len(rec["files"]),
            "files": rec["files"],
        }
        notes = [ov["notes"]] if ov.get("notes") else []
        if local:
            notes.append("record-specific values: " + ", ".join(
                f"{k}={encode_value(build_env(specs, local)[k])}" for k in sorted(local)))
        resolved_with = sorted(p for p in out["used"] if p in specs or p in local)
        if resolved_with:
            notes.append("uses params " + ", ".join(resolved_with))
        if notes:
            buf["notes"] = "; ".join(notes)
        buffers.append(buf)
    env = build_env(specs, None)
    ints, others = param_entries(specs, env, expr_dependencies(specs, used_kernel_params))
    params.update(ints)
    other_params.update(others)
    model = {
        "kernel": kname,
        "target": kcfg.get("target", "sm_100a"),
        "source": {"repos": sorted({x for r in recs for x in r["repos"]}),
                   "files": sorted({f for r in recs for f in r["files"]})},
        "params": dict(sorted(params.items())),
    }
    if other_params:
        model["other_params"] = dict(sorted(other_params.items()))
    model["buffers"] = buffers
    model["ops"] = []
    return model


# ---------------------------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------------------------


def to_json(obj, indent: int = 0) -> str:
    """json.dumps(indent=2), except that a list of scalars stays on one line (shapes, files)."""
    pad, inner = " " * indent, " " * (indent + 2)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {to_json(v, indent + 2)}"
                 for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list):
        if all(not isinstance(x, (dict, list)) for x in obj):
            return json.dumps(obj, ensure_ascii=False)
        return "[\n" + ",\n".join(inner + to_json(x, indent + 2) for x in obj) + "\n" + pad + "]"
    return json.dumps(obj, ensure_ascii=False)


def load_records(path: Path) -> list:
    records = []
    with open(path, encoding="utf-8") as fh:
        for i, raw in enumerate(fh):
            if raw.strip():
                rec = json.loads(raw)
                rec["_line"] = i
                records.append(rec)
    return records


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Convert the TIRx kernel layout corpus to model files.")
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--overrides", type=Path, default=DEFAULT_OVERRIDES)
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    ap.add_argument("--check", action="store_true",
                    help="write nothing; exit 1 if a model under --out differs from what would be written")
    args = ap.parse_args(argv)

    records = load_records(args.corpus)
    overrides = json.loads(args.overrides.read_text(encoding="utf-8"))
    kernels_cfg, rec_ov = overrides.get("kernels", {}), overrides.get("records", {})
    by_kernel: dict[str, list] = {}
    for rec in records:
        by_kernel.setdefault(rec["kernel"], []).append(rec)

    errors: list[str] = []
    models = {k: convert_kernel(k, by_kernel[k], kernels_cfg.get(k, {}), rec_ov, errors)
              for k in sorted(by_kernel)}
    converted = sorted(b["corpus"]["line"] for m in models.values() for b in m["buffers"])
    if converted != sorted(r["_line"] for r in records):
        errors.append(f"{len(records) - len(converted)} record(s) not converted")
    stale_overrides = sorted(set(rec_ov) - {str(r["_line"]) for r in records}, key=int)
    if stale_overrides:
        errors.append(f"overrides for records that do not exist: {stale_overrides}")
    if errors:
        for e in errors:
            print("error:", e, file=sys.stderr)
        return 1

    n_buf = sum(len(m["buffers"]) for m in models.values())
    texts = {k: to_json(m) + "\n" for k, m in models.items()}
    if args.check:
        stale = [k for k, t in texts.items()
                 if not (args.out / f"{k}.json").exists()
                 or (args.out / f"{k}.json").read_text(encoding="utf-8") != t]
        extra = sorted(p.stem for p in args.out.glob("*.json") if p.stem not in texts)
        if stale or extra:
            print(f"out of date: {stale}; not produced by the corpus: {extra}", file=sys.stderr)
            return 1
        print(f"up to date: {len(models)} models, {n_buf} buffers")
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for k, t in texts.items():
        (args.out / f"{k}.json").write_text(t, encoding="utf-8")
    print(f"wrote {len(models)} models, {n_buf} buffers ({len(records)} corpus records) to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
