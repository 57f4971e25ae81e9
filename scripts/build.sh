#!/usr/bin/env bash
# Installs missing Debian packages, then configures and builds tirx-verify into ./build.
# Usage: scripts/build.sh [--cli-only] [extra cmake -D options...]
#   --cli-only   build the tirx-verify binary and the libraries it needs, not the test programs
#                (what the main job needs; the test command builds everything)
set -euo pipefail
cd "$(dirname "$0")/.."
target=()
if [ "${1:-}" = "--cli-only" ]; then
  target=(--target tirx-verify)
  shift
fi
scripts/install-deps.sh
# ccache keys on relative paths under the checkout, so fresh clones reuse earlier builds.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
# The Python module and its tests use Debian's interpreter, whose pytest and headers
# install-deps.sh installs (a python3 earlier on PATH, e.g. pyenv's, has neither).
py=()
[ -x /usr/bin/python3 ] && py=(-DPython3_EXECUTABLE=/usr/bin/python3)
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "${py[@]}" "$@" >/dev/null
cmake --build build -j"$(nproc)" "${target[@]}"
