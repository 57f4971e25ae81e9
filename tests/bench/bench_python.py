"""Benchmark of the Python module (docs/performance.md "Python module"): not a test.

    PYTHONPATH=build/python /usr/bin/python3 tests/bench/bench_python.py [--bin build/tirx-verify]

1. check() of the 128x32 TMEM D layout in-process (median of 2000 calls after 200 warm-up calls),
   side by side with the same check through the CLI process (median of 50 runs);
2. 10,000 layouts of TVM-test sizes (the test_layout.py shapes: up to 8 iters, up to 4096
   elements, thread and memory axes) checked in one process: total wall time;
3. the parts of one in-process call: the C++ checks alone (_core.check on a parsed handle)
   vs the whole tv.check() (argument handling, Report objects).
"""

import argparse
import os
import random
import statistics
import subprocess
import sys
import time

import tirx_verify as tv
from tirx_verify import _core

D_ARGS = dict(shape=(128, 32), dtype="float32", scope="tmem", alloc_cols=32)


def median_us(fn, n, warm=200):
    for _ in range(warm):
        fn()
    xs = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        xs.append(time.perf_counter() - t)
    return statistics.median(xs) * 1e6


def tvm_test_layouts(n, seed=1):
    rng = random.Random(seed)
    axes = ["m", "m", "m", "laneid", "warpid"]
    out = []
    while len(out) < n:
        k = rng.randint(1, 6)
        ext = [rng.choice([1, 2, 2, 4, 4, 8]) for _ in range(k)]
        strides = []
        for e in ext:
            a = rng.choice(axes)
            s = rng.choice([1, 2, 4, 8, 16, 32, 64])
            strides.append(f"{s}@{a}" if a != "m" else str(s))
        out.append(f"S[({','.join(map(str, ext))}):({','.join(strides)})]")
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="build/tirx-verify")
    a = ap.parse_args()
    D = tv.tmem_datapath_layout("D", 128, 32)
    inproc = median_us(lambda: tv.check(D, **D_ARGS), 2000)
    h = D._h
    core_only = median_us(lambda: _core.check(h, "", [128, 32], "float32", "tmem", 32, None, None, "", 0, None, None, "",
                                              "auto", False, False, "sm_100a", 60.0, 4096, 20000), 2000)
    cli = None
    if os.path.exists(a.bin):
        argv = [a.bin, "check", "tmem_datapath_layout(\"D\", 128, 32)", "--scope", "tmem", "--shape", "128,32",
                "--dtype", "float32", "--alloc-cols", "32", "--json"]
        cli = median_us(lambda: subprocess.run(argv, capture_output=True), 50, warm=5)
    layouts = tvm_test_layouts(10000)
    parsed = [tv.parse(t) for t in layouts]
    t = time.perf_counter()
    for lay in parsed:
        tv.check(lay, scope="shared")
    many = time.perf_counter() - t
    t = time.perf_counter()
    for text in layouts:
        tv.check(text, scope="shared")
    many_text = time.perf_counter() - t
    print(f"check(128x32 TMEM D) in-process      median {inproc:8.1f} us   (C++ checks alone {core_only:.1f} us)")
    if cli is not None:
        print(f"same check through the CLI process   median {cli:8.1f} us   ({cli / inproc:.0f}x)")
    print(f"10,000 TVM-test-size layouts checked  {many:8.3f} s   (parsed beforehand); {many_text:.3f} s from text")
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} CPUs")


if __name__ == "__main__":
    main()
