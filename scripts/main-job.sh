#!/usr/bin/env bash
# The main job: build the tirx-verify binary (not the test programs), then check every buffer
# layout and every op of the bundled real-kernel corpus (models/kernels/) and print the report.
# The corpus's accepted findings (models/baseline.json, each with its triage judgement) are
# printed as known; the job fails only on a new one. Extra arguments go to `tirx-verify run`
# (e.g. --format sarif -o report.sarif, --verbose).
# Exit code: 0 nothing new, 1 a new finding, 2 input errors, 3 undecided.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh --cli-only >&2
start=$(date +%s%N)
status=0
./build/tirx-verify run models/kernels --baseline models/baseline.json "$@" || status=$?
ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "main-job: checked models/kernels in ${ms} ms" >&2
exit $status
