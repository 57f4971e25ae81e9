#!/usr/bin/env bash
# The main job: build the tirx-verify binary (not the test programs), then check every buffer
# layout and every op of the bundled real-kernel corpus (models/kernels/) and print the report.
# Extra arguments go to `tirx-verify run` (e.g. --json, --verbose).
# Exit code: 0 verified, 1 findings, 2 input errors, 3 undecided.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh --cli-only >&2
start=$(date +%s%N)
status=0
./build/tirx-verify run models/kernels "$@" || status=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "main-job: checked models/kernels in ${ms} ms" >&2
exit $status
