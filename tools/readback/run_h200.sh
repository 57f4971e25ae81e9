#!/usr/bin/env bash
# Run every H200 (sm_90a) readback campaign and pack the raw results.
#
#   tools/readback/run_h200.sh OUTDIR
#
# Needs: python3, nvcc (CUDA 12.3+; sm_90a), an sm_90 GPU, ncu (Nsight Compute) for
# the bank campaign.  Writes OUTDIR/raw_sm90.tar.gz (program output, ncu CSV, build
# logs, SASS, manifests, device info) and prints a short summary.  Turn the raw pack
# into golden files with:
#   python3 tools/readback/collect.py --raw OUTDIR/raw_sm90.tar.gz --out tests/golden/hw
set -u
OUT=${1:?usage: run_h200.sh OUTDIR}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
HERE=$(cd "$(dirname "$0")" && pwd)
W=$(mktemp -d)
cd "$W" || exit 1
T0=$(date +%s)
NCU=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu /usr/local/cuda/bin/ncu 2>/dev/null | head -1)

python3 "$HERE/readback_gen.py" --target sm90 --out "$W/raw" > /dev/null || exit 1
cd raw
NVCC="nvcc -O2 -std=c++17 -gencode arch=compute_90a,code=sm_90a"
for p in tma_tile banks frag wgmma; do
  $NVCC "$p.cu" -o "$p" -lcuda > "build_$p.log" 2>&1 &
done
wait
for p in tma_tile banks frag wgmma; do
  [ -x "$p" ] || { echo "build of $p failed:"; cat "build_$p.log"; }
done
echo "build done after $(( $(date +%s) - T0 )) s"

{
  echo "{"
  echo "\"nvidia_smi\": \"$(nvidia-smi --query-gpu=name,driver_version,compute_cap,clocks.sm,clocks.max.sm --format=csv,noheader | head -1)\","
  echo "\"nvcc\": \"$(nvcc --version | tail -2 | tr '\n' ' ' | sed 's/"/ /g')\","
  echo "\"ncu\": \"$("$NCU" --version 2>/dev/null | tail -1 | sed 's/"/ /g')\","
  echo "\"date\": \"$(date -u +%Y-%m-%dT%H:%M:%SZ)\","
  echo "\"host_kernel\": \"$(uname -r)\""
  echo "}"
} > device.json
cat device.json

# campaign 1: TMA.  Risky cases (possible faults) each run in their own process.
[ -x tma_tile ] && {
  ./tma_tile safe > raw_tma.jsonl 2> tma.err; echo "tma safe rc=$?"
  for id in $(./tma_tile list-risky); do
    timeout 30 ./tma_tile case "$id" >> raw_tma.jsonl 2>> tma.err
    rc=$?
    [ $rc -ne 0 ] && echo "{\"id\":$id,\"process_rc\":$rc}" >> raw_tma.jsonl
  done
  echo "tma: $(wc -l < raw_tma.jsonl) lines after $(( $(date +%s) - T0 )) s"
}
# campaign 3a: ldmatrix / stmatrix / mma.sync
[ -x frag ] && { ./frag > raw_frag.jsonl 2> frag.err; echo "frag rc=$? lines=$(wc -l < raw_frag.jsonl)"; }
# campaigns 3b + 4: wgmma
[ -x wgmma ] && { ./wgmma wgmma_images.bin > raw_wgmma.jsonl 2> wgmma.err; echo "wgmma rc=$? lines=$(wc -l < raw_wgmma.jsonl)"; }
rm -f wgmma_images.bin
# campaign 2: bank conflicts under Nsight Compute
M=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
M=$M,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum
M=$M,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum
[ -x banks ] && {
  "$NCU" --clock-control none --csv --print-units base --metrics "$M" ./banks > raw_banks_ncu.csv 2> banks_ncu.err
  rc=$?
  if [ $rc -ne 0 ] || ! grep -q wavefronts raw_banks_ncu.csv; then
    echo "ncu with instruction counters failed (rc=$rc); retrying with the four bank metrics"
    M4=$(echo "$M" | cut -d, -f1-4)
    "$NCU" --clock-control none --csv --print-units base --metrics "$M4" ./banks > raw_banks_ncu.csv 2>> banks_ncu.err
  fi
  echo "banks: $(grep -c wavefronts raw_banks_ncu.csv) wavefront rows after $(( $(date +%s) - T0 )) s"
}
for p in banks frag wgmma; do [ -x $p ] && cuobjdump --dump-sass $p > sass_$p.txt 2>&1; done
rm -f tma_tile banks frag wgmma
cd "$W"
tar czf "$OUT/raw_sm90.tar.gz" raw
ls -la "$OUT"
echo "total $(( $(date +%s) - T0 )) s"
