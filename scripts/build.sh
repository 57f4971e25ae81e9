#!/usr/bin/env bash
# Installs missing Debian packages, then configures and builds tirx-verify into ./build.
# Usage: scripts/build.sh [extra cmake -D options...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
# ccache keys on relative paths under the checkout, so fresh clones reuse earlier builds.
export CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo "$@" >/dev/null
cmake --build build -j"$(nproc)"
