#!/usr/bin/env bash
# The main job: build, then check every buffer layout of the bundled real-kernel corpus
# (models/kernels/) and print the report. Extra arguments go to `tirx-verify run`
# (e.g. --json, --verbose). Exit code: 0 verified, 1 findings, 2 input errors, 3 undecided.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh >&2
exec ./build/tirx-verify run models/kernels "$@"
