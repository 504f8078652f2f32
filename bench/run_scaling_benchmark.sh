#!/bin/sh
# `causeway analyze` as an MPI job of K = 1, 2, 4 ranks (docs/performance.md, "Analysis as an MPI
# job"): per K the wall time of the whole command, the slowest rank's time per phase, the bytes
# the ranks exchanged in each phase as a share of the trace's files, and every rank's peak memory
# (K = 1 is one process: its peak comes from /usr/bin/time). ANALYZE_FLAGS adds options
# (ANALYZE_FLAGS=--wait-states-only for the wait-state analysis alone). The ranks are not bound
# to cores: mpirun would bind each of one or two ranks to a single core, where the first rank's
# analysis and its ideal-network replay thread take turns.
#
#   bench/run_scaling_benchmark.sh [BUILD_DIR] [TRACE] [THREADS] [RANK COUNTS]
#
# TRACE defaults to the 64-rank, 10M-event stencil trace (generated if missing); the issue's
# figures use 256 ranks and 100M events:
#   build/bin/causeway-gen --ranks 256 --events 100000000 --seed 1 -o build/bench-data/stencil-256x100M
set -eu
. "$(dirname "$0")/common.sh"
build=${1:-build}
trace=${2:-$build/bench-data/stencil-64x10M}
threads=${3:-1}
ranks=${4:-"1 2 4"}
# Without the bottleneck analysis unless ANALYZE_FLAGS says otherwise (run_advice_benchmark.sh
# measures it): the recorded figures are of the other analyses.
flags=${ANALYZE_FLAGS:---no-advice}
if [ ! -e "$trace/traces.otf2" ] && [ ! -f "$trace" ]; then
  "$build/bin/causeway-gen" --ranks 64 --events 10000000 --seed 1 -o "$trace"
fi
out=$(mktemp -d)
for k in $ranks; do
  echo "== K = $k, $threads thread(s) per rank"
  /usr/bin/time -f "whole command: %e s wall, largest process %M KiB" \
    $(launcher mpirun) --bind-to none -np "$k" \
    "$build/bin/causeway" analyze -q $flags --timings --threads "$threads" \
    "$trace" -o "$out/np$k" 2>&1 | grep -v '^$\|^Report written'
  if [ "$k" -gt 1 ]; then
    cmp -s "$out/np1/report.json" "$out/np$k/report.json" && echo "report.json identical to K = 1" \
      || echo "report.json DIFFERS from K = 1"
  fi
done
rm -rf "$out"
