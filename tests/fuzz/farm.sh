#!/usr/bin/env bash
# Runs the three libFuzzer targets side by side on a many-core machine, from the folder
# scripts/fuzz_bundle.sh made (copied to the path its binaries' loader names, default
# /tmp/fuzzbundle). Each worker is its own libFuzzer process with the options of
# scripts/fuzz.sh; the workers of one target share its corpus folder (libFuzzer reloads it),
# and a worker that stops early (a finding) starts again with the time left, so every core
# fuzzes until the deadline. Afterwards: one line of final stats per worker run, a summary per
# target (executions, exec/s, new units, peak RSS, findings) and every finding.
# Usage: farm.sh BUNDLE WORK SECONDS N_NOTATION N_MODEL N_CLI
#   WORK/<target>/corpus      new units (plus BUNDLE/corpus/<target>, from an earlier run, read)
#   WORK/<target>/log-W-R.txt worker W's run R;  WORK/findings/<target>/  crash-/timeout-/leak-/oom-*
#   WORK/summary.txt
# FUZZ_TIMEOUT (default 25) as in scripts/fuzz.sh.
set -uo pipefail
B="$1"; W="$2"; secs="$3"; shift 3
declare -A workers=([notation]="$1" [model]="$2" [cli]="$3")
timeout="${FUZZ_TIMEOUT:-25}"
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1
export LSAN_OPTIONS="suppressions=$B/lsan.supp"
export TIRX_VERIFY_ROOT="$B/root"
deadline=$(( $(date +%s) + secs ))
worker() {  # target index max_len rss_limit_mb malloc_limit_mb extra_asan_options
  local t="$1" i="$2" max_len="$3" rss="$4" malloc="$5" asan="$6" r=0 left quick=0 rc t0
  local corpora=("$W/$t/corpus" "$B/seeds/$t" "$B/regressions/$t")
  [ -d "$B/corpus/$t" ] && corpora+=("$B/corpus/$t")
  while left=$(( deadline - $(date +%s) )); [ "$left" -ge 15 ]; do
    t0=$(date +%s)
    # The bundled libraries for the fuzzer alone: the machine's own tools need its own glibc.
    (cd "$W/$t/w$i" && LD_LIBRARY_PATH="$B/lib" ASAN_OPTIONS="$ASAN_OPTIONS$asan" "$B/fuzz_$t" "${corpora[@]}" -dict="$B/$t.dict" -max_total_time="$left" -max_len="$max_len" \
       -timeout="$timeout" -rss_limit_mb="$rss" -malloc_limit_mb="$malloc" -artifact_prefix="$W/findings/$t/" -print_final_stats=1 \
       >"$W/$t/log-$i-$r.txt" 2>&1)
    rc=$?
    echo "$t worker $i run $r: exit $rc after $(( $(date +%s) - t0 )) s" >>"$W/$t/runs.txt"
    r=$((r + 1))
    # A binary that cannot start (or dies at once) three times in a row: give up on this worker.
    if [ $(( $(date +%s) - t0 )) -lt 5 ]; then quick=$((quick + 1)); else quick=0; fi
    [ "$quick" -ge 3 ] && { echo "$t worker $i: gave up after 3 quick exits" >>"$W/$t/runs.txt"; break; }
  done
}
for t in notation model cli; do
  # As scripts/fuzz.sh (docs/fuzzing.md, "Memory limits"): fuzz_cli keeps 8-frame allocation
  # stacks, so that ASan's stack depot does not outgrow the RSS limit; one allocation past 1 GB
  # is still a finding.
  case "$t" in notation) max_len=1024 rss=2048 malloc=2048 asan= ;; model) max_len=8192 rss=2048 malloc=2048 asan= ;;
    cli) max_len=4096 rss=4096 malloc=1024 asan=:malloc_context_size=8 ;; esac
  mkdir -p "$W/$t/corpus" "$W/findings/$t"
  for ((i = 0; i < ${workers[$t]}; i++)); do
    mkdir -p "$W/$t/w$i"
    worker "$t" "$i" "$max_len" "$rss" "$malloc" "$asan" &
  done
done
wait
{
  echo "farm: ${secs} s, workers notation ${workers[notation]} model ${workers[model]} cli ${workers[cli]}, $(nproc) cores"
  total=0
  for t in notation model cli; do
    [ "${workers[$t]}" -gt 0 ] || continue
    stat() { cat "$W/$t"/log-*.txt | awk -v k="stat::$1:" '$1 == k {print $2}'; }
    execs=$(stat number_of_executed_units | awk '{s += $1} END {print s + 0}')
    rates=$(stat average_exec_per_sec | sort -n | tr '\n' ' ')
    newu=$(stat new_units_added | awk '{s += $1} END {print s + 0}')
    rss=$(stat peak_rss_mb | sort -n | tail -1)
    total=$((total + execs))
    echo "$t: executions $execs; exec/s per worker run: $rates; new units (sum over workers) $newu;" \
         "corpus files $(ls "$W/$t/corpus" | wc -l); peak RSS ${rss:-?} MB; worker runs $(wc -l <"$W/$t/runs.txt");" \
         "findings $(ls "$W/findings/$t" | wc -l)"
  done
  echo "total executions: $total"
} | tee "$W/summary.txt"
