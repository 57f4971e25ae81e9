#!/usr/bin/env bash
# Fuzzing campaign: builds the libFuzzer targets (tests/fuzz) with clang, ASan and UBSan into
# build-fuzz/, then runs each target for SECONDS (default 600), one after the other, in a
# single process. The seed corpus comes from the repository (tests/fuzz/make_corpus.py) plus
# every earlier finding (tests/fuzz/regressions); new coverage is kept in build-fuzz/corpus/,
# crashing/hanging/leaking inputs land in build-fuzz/findings/<target>/. Copy a finding into
# tests/fuzz/regressions/<target>/ once it is fixed: ctest then replays it forever. Paths are
# absolute because fuzz_cli runs each input in a scratch directory.
# Usage: scripts/fuzz.sh [SECONDS] [notation|model|cli ...]      (docs/fuzzing.md)
# FUZZ_TIMEOUT (default 25): seconds one input may take before it counts as a hang; the default
# leaves room for a machine whose two cores are shared with builds (10 s gave a false hang).
set -euo pipefail
cd "$(dirname "$0")/.."
secs="${1:-600}"
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(notation model cli)
timeout="${FUZZ_TIMEOUT:-25}"
scripts/install-deps.sh --fuzz
cmake -S . -B build-fuzz -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DTIRX_BUILD_FUZZ=ON -DTIRX_BUILD_TESTS=OFF >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")
python3 tests/fuzz/make_corpus.py build-fuzz/seeds
status=0
for t in "${targets[@]}"; do
  # fuzz_cli's limits: see "Memory limits" in docs/fuzzing.md (ASan's stack depot, which keeps
  # every distinct allocation stack, grows past 2 GB over thousands of commands in one process
  # with 30-frame stacks; one allocation past 1 GB is a budget nobody enforced).
  case "$t" in notation) max_len=1024 rss=2048 malloc=2048 asan= ;; model) max_len=8192 rss=2048 malloc=2048 asan= ;;
    cli) max_len=4096 rss=4096 malloc=1024 asan=:malloc_context_size=8 ;; *) echo "unknown target $t" >&2; exit 2 ;; esac
  mkdir -p "build-fuzz/corpus/$t" "build-fuzz/findings/$t"
  echo "== fuzz_$t for ${secs}s"
  ASAN_OPTIONS="detect_leaks=1:abort_on_error=1$asan" UBSAN_OPTIONS=print_stacktrace=1 \
    LSAN_OPTIONS="suppressions=$PWD/tests/sanitize/lsan.supp" \
    "./build-fuzz/tests/fuzz/fuzz_$t" "$PWD/build-fuzz/corpus/$t" "$PWD/build-fuzz/seeds/$t" "$PWD/tests/fuzz/regressions/$t" \
    -dict="tests/fuzz/$t.dict" -max_total_time="$secs" -max_len="$max_len" -timeout="$timeout" -rss_limit_mb="$rss" -malloc_limit_mb="$malloc" \
    -artifact_prefix="$PWD/build-fuzz/findings/$t/" -print_final_stats=1 >"build-fuzz/fuzz_$t.log" 2>&1 || status=1
  grep -E "stat::number_of_executed_units|stat::average_exec_per_sec|stat::new_units_added|stat::peak_rss_mb|^==[0-9]+==ERROR|SUMMARY|FUZZ_CHECK|deadly signal|Test unit written" \
    "build-fuzz/fuzz_$t.log" || true
  echo "   findings: $(ls "build-fuzz/findings/$t" | wc -l) file(s) in build-fuzz/findings/$t"
done
exit $status
