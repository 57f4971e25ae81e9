#!/usr/bin/env bash
# ctest install_consumer: `cmake --install` the build tree into a temporary prefix, then configure,
# build and run tests/install/consumer against it with find_package(tirx_verify); with the Python
# module, also import the installed package from the prefix. Usage: run_consumer.sh BUILD_DIR SRC_DIR
set -euo pipefail
build=$1 src=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
test -x "$tmp/prefix/bin/tirx-verify"
# The installed CLI finds its targets under the prefix even away from the source tree.
(cd "$tmp" && TIRX_VERIFY_ROOT= "$tmp/prefix/bin/tirx-verify" sim swizzle --mode 128B --byte-offset 400 --json) | grep -q '"address": *416'
cmake -S "$src/tests/install/consumer" -B "$tmp/consumer" -G Ninja -DCMAKE_PREFIX_PATH="$tmp/prefix" \
      -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/consumer" >/dev/null
"$tmp/consumer/consumer"
pydir=$(find "$tmp/prefix" -name _core*.so -path '*tirx_verify*' -printf '%h\n' | head -1)
if [ -n "$pydir" ]; then
  PYTHONPATH=$(dirname "$pydir") "${PYTHON:-python3}" -c \
    "import tirx_verify as tv; assert tv.check('S[(4,4):(2,1)]', scope='shared')['layout.injective'].status == 'fail'; print('ok   installed Python package')"
fi
