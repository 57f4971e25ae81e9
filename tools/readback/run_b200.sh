#!/usr/bin/env bash
# Run the Blackwell (sm_100a) tcgen05 readback campaign and pack the raw results.
#
#   tools/readback/run_b200.sh OUTDIR
#
# Needs: python3, nvcc (CUDA 12.8+ for sm_100a), a compute capability 10.0 GPU (B200/GB200).
# NOT RUN by the authors (no Blackwell GPU was available). Writes OUTDIR/raw_sm100.tar.gz;
# turn it into golden data with
#   python3 tools/readback/collect.py --raw OUTDIR/raw_sm100.tar.gz --out tests/golden/hw --prefix b200
set -u
OUT=${1:?usage: run_b200.sh OUTDIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d)
cd "$W" || exit 1
python3 "$HERE/readback_gen.py" --target sm100 --out "$W/raw" > /dev/null || exit 1
cd raw
nvcc -O2 -std=c++17 -gencode arch=compute_100a,code=sm_100a tcgen05_probe.cu -o tcgen05_probe > build.log 2>&1 \
  || { cat build.log; exit 1; }
{
  echo "{"
  echo "\"nvidia_smi\": \"$(nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm --format=csv,noheader | head -1)\","
  echo "\"nvcc\": \"$(nvcc --version | tail -2 | tr '\n' ' ' | sed 's/"/ /g')\","
  echo "\"date\": \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\""
  echo "}"
} > device.json
cat device.json
./tcgen05_probe > raw_tcgen05.jsonl 2> tcgen05.err
echo "tcgen05_probe rc=$? records=$(wc -l < raw_tcgen05.jsonl)"
cuobjdump --dump-sass tcgen05_probe > sass_tcgen05.txt 2>&1
rm -f tcgen05_probe
cd "$W"
tar czf "$OUT/raw_sm100.tar.gz" raw
ls -la "$OUT"
