#!/usr/bin/env bash
# Installs the Debian packages tirx-verify needs to build and test.
# Safe to run repeatedly; only installs what is missing. Run as root (as CI does).
# --fuzz: also clang and libFuzzer (scripts/fuzz.sh; CI replays fuzz inputs with gcc instead) and patchelf
# (scripts/fuzz_bundle.sh).
# --test: also chromium, which the picture test (tests/render/run_browser_test.py) drives headless to turn
# SVGs and the HTML report into PNGs (scripts/test.sh passes it; the main job does not need it).
set -euo pipefail
pkgs=(build-essential cmake ninja-build ccache pkg-config
      libz3-dev libboost-graph-dev librapidcheck-dev nlohmann-json3-dev
      libcli11-dev libfmt-dev libpugixml-dev libgtest-dev libbenchmark-dev python3 python3-jsonschema
      python3-dev pybind11-dev python3-pytest)  # the Python module (python/) and its tests
if [ "${1:-}" = "--fuzz" ]; then pkgs+=(clang libclang-rt-14-dev patchelf); fi
if [ "${1:-}" = "--test" ]; then pkgs+=(chromium); fi
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}"
  SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi
