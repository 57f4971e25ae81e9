#!/usr/bin/env bash
# The test command (README, CI's .ci/run): the whole ctest suite (unit, property, CLI tests,
# fuzz-input replays), twice:
#   1. ./build       RelWithDebInfo, the build the main job uses;
#   2. ./build-asan  AddressSanitizer + UndefinedBehaviorSanitizer (-DTIRX_SANITIZE=ON, preset
#                    `sanitize`): the same suite again. A sanitizer report aborts the test that
#                    made it (-fno-sanitize-recover, halt_on_error, abort_on_error; leaks too),
#                    so it fails the run. The options live in CMakePresets.json (test preset
#                    `sanitize`); tests/sanitize/lsan.supp lists the leaks that are Z3's, not ours.
# The sanitized build is -O0 -g1 (line tables only): cold on 2 cores it builds in about the time
# of the normal build, where the usual -O2 -g would take three times as long and push CI past its
# 15 minutes. docs/testing.md has the measured times.
#
# Usage: scripts/test.sh [--no-sanitize]     (--no-sanitize: step 1 only, a quick local run)
set -euo pipefail
cd "$(dirname "$0")/.."
sanitize=1
case "${1:-}" in
  "") ;;
  --no-sanitize) sanitize=0 ;;
  *) echo "usage: scripts/test.sh [--no-sanitize]" >&2; exit 2 ;;
esac
jobs="$(nproc)"

start=$SECONDS
scripts/install-deps.sh --test  # chromium, for the picture test (tests/render/run_browser_test.py)
scripts/build.sh
ctest --test-dir build --output-on-failure -j"$jobs"
echo "test.sh: normal build and tests: $((SECONDS - start)) s"
[ "$sanitize" = 1 ] || exit 0

start=$SECONDS
# Same ccache settings as scripts/build.sh, so fresh clones reuse earlier sanitized builds too.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
cmake --preset sanitize >/dev/null
cmake --build --preset sanitize -j"$jobs"
ctest --preset sanitize -j"$jobs"
echo "test.sh: sanitized (ASan + UBSan) build and tests: $((SECONDS - start)) s"
