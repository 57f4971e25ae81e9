#!/usr/bin/env bash
# Packs the three libFuzzer targets (built by scripts/fuzz.sh into build-fuzz/) with everything
# they need into one folder that runs on another x86-64 Linux machine with none of clang,
# libFuzzer, Z3, Boost or fmt installed: the binaries (debug info stripped), every shared
# library ldd lists (glibc and its loader included), the seed corpora, the regression inputs,
# the dictionaries, the LSan suppressions, models/targets (TIRX_VERIFY_ROOT) and
# tests/fuzz/farm.sh, which runs the campaign there (docs/fuzzing.md, "A campaign on a
# many-core machine").
# The binaries' loader is set to BUNDLE_AT/lib/ld-linux-x86-64.so.2 (patchelf), so libFuzzer's
# child processes and restarts start with the bundled glibc too; copy the folder to BUNDLE_AT
# on the far machine before running it.
# Usage: scripts/fuzz_bundle.sh DEST [BUNDLE_AT]     (BUNDLE_AT default /tmp/fuzzbundle)
set -euo pipefail
cd "$(dirname "$0")/.."
dest="${1:?usage: scripts/fuzz_bundle.sh DEST [BUNDLE_AT]}"
at="${2:-/tmp/fuzzbundle}"
command -v patchelf >/dev/null || { echo "patchelf is needed (apt-get install patchelf)" >&2; exit 2; }
rm -rf "$dest"
mkdir -p "$dest/lib" "$dest/seeds" "$dest/regressions" "$dest/root/models"
for t in notation model cli; do
  b="build-fuzz/tests/fuzz/fuzz_$t"
  [ -x "$b" ] || { echo "$b missing: run scripts/fuzz.sh 1 first" >&2; exit 2; }
  cp "$b" "$dest/fuzz_$t"
  strip --strip-debug "$dest/fuzz_$t"
  ldd "$b" | awk '/=> \// {print $3} /^[[:space:]]*\/.*ld-linux/ {print $1}' | while read -r lib; do
    cp -L "$lib" "$dest/lib/"
  done
  patchelf --set-interpreter "$at/lib/ld-linux-x86-64.so.2" "$dest/fuzz_$t"
  cp -r "build-fuzz/seeds/$t" "$dest/seeds/$t"
  cp -r "tests/fuzz/regressions/$t" "$dest/regressions/$t"
  cp "tests/fuzz/$t.dict" "$dest/$t.dict"
done
cp tests/sanitize/lsan.supp tests/fuzz/farm.sh "$dest/"
cp -r models/targets "$dest/root/models/targets"
du -sh "$dest"
