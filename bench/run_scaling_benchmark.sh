#!/bin/sh
# The distributed phases of an MPI analysis job for K = 1, 2, 4 ranks (docs/performance.md,
# "Analysis as an MPI job").
#
#   bench/run_scaling_benchmark.sh [BUILD_DIR] [TRACE] [THREADS]
#
# TRACE defaults to the 64-rank, 10M-event stencil trace (generated if missing).
set -eu
build=${1:-build}
trace=${2:-$build/bench-data/stencil-64x10M}
threads=${3:-1}
if [ ! -e "$trace/traces.otf2" ] && [ ! -f "$trace" ]; then
  "$build/bin/causeway-gen" --ranks 64 --events 10000000 --seed 1 -o "$trace"
fi
for k in 1 2 4; do
  mpirun --allow-run-as-root --oversubscribe -np "$k" "$build/bench/distributed-phases" "$trace" "$threads"
done
