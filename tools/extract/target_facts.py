"""Facts of the extraction's target machine that a kernel's host code reads at run time.

A kernel's geometry can depend on the GPU it runs on: flashkda_decode_t5_gram picks its value
split from the SM count (`tirx_kernels.runner.hardware_num_sms()` when the configuration's
`sm_count` is None).  That number is not in the source; it is a fact of the target.  The
extraction has a target (`--target`, the model's `target`: models/targets/NAME.json); when that
file names an SM count (`device.sm_count`), the call evaluates to it and the binding is recorded
in `extraction.instance.bindings` (like the "CTA 0 on its first tile" convention), so nothing is
fixed silently.  `--param hardware_num_sms=N` overrides it; a target without an SM count leaves
the call unresolved, naming the target.

Recognised calls (the function as imported, not by its name alone):
    hardware_num_sms()   from tirx_kernels.runner: "the compile-profile SM count"; with nothing
                         configured it answers the CUDA device's multi_processor_count, else its
                         default 148 (mlc-ai/TIRx-kernels 51a6c01 tirx_kernels/runner.py:320-334)
"""

from __future__ import annotations

import json
import os
import re

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
TARGET_FUNCS = {("tirx_kernels.runner", "hardware_num_sms"): "sm_count"}

_cache: dict = {}


def target_file(name: str) -> str | None:
    """models/targets/NAME.json under the repository root, or None for a name that is not a
    plain identifier or a file that does not exist."""
    if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9_]{1,64}", name):
        return None
    path = os.path.join(ROOT, "models", "targets", name + ".json")
    return path if os.path.isfile(path) else None


def device_fact(target: str, fact: str) -> tuple[int | None, str]:
    """(value, where) of `device.FACT` in the target file; (None, why) when it has none."""
    key = (target, fact)
    if key not in _cache:
        path = target_file(target)
        if path is None:
            _cache[key] = (None, f"no target description models/targets/{target}.json")
        else:
            try:
                with open(path, encoding="utf-8") as fh:
                    doc = json.load(fh)
            except (OSError, ValueError) as e:
                _cache[key] = (None, f"models/targets/{target}.json is not readable JSON ({e})")
            else:
                dev = doc.get("device") if isinstance(doc, dict) else None
                v = dev.get(fact) if isinstance(dev, dict) else None
                if isinstance(v, int) and not isinstance(v, bool) and v > 0:
                    _cache[key] = (v, f"target {target}: {dev.get('name', 'device')}, device.{fact} = {v}")
                else:
                    _cache[key] = (None, f"the target {target} names no device.{fact}")
    return _cache[key]


def target_call(imported, args: list, overrides: dict, target: str):
    """For a call of an imported function that TARGET_FUNCS names: ("value", v, note) or
    ("unresolved", why); None when the function is not one of them (an ordinary import)."""
    fact = TARGET_FUNCS.get((imported.module, imported.name))
    if fact is None or args:
        return None
    if imported.name in overrides:
        v = overrides[imported.name]
        if not isinstance(v, int) or isinstance(v, bool) or v <= 0:
            return ("unresolved", f"--param {imported.name}={v!r} is not a positive integer")
        return ("value", v, f"{imported.name}() = {v} (--param)")
    v, where = device_fact(target, fact)
    if v is None:
        return ("unresolved", f"a fact of the GPU the kernel runs on ({fact}); {where}")
    return ("value", v, f"{imported.name}() = {v} ({where})")
