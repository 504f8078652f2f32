#!/bin/sh
# The tracer's cost per recorded event (docs/performance.md records its figures).
#
#   bench/run_tracer_benchmark.sh [BUILD_DIR] [RUNS] [CALLS]
#
# Runs tracer-microbench on 2 ranks RUNS times without and with `causeway trace` (alternating,
# so that machine noise hits both alike): each rank calls MPI_Test on MPI_REQUEST_NULL CALLS
# times, which the tracer records as an Enter and a Leave. Prints the time per call of each, the
# difference per recorded event, and the same with a 64 KiB buffer (a flush every 1638 events).
# The fastest run is the primary figure (noise only adds time); medians beside.
set -eu
. "$(dirname "$0")/common.sh"

BUILD=${1:-build}
RUNS=${2:-5}
CALLS=${3:-2000000}
DATA=${CW_BENCH_DATA:-$BUILD/bench-data}
PROGRAM=$BUILD/bench/tracer-microbench
MPIRUN="$(launcher mpirun) -np 2"
mkdir -p "$DATA"


: > "$DATA/plain.txt"; : > "$DATA/traced.txt"; : > "$DATA/small.txt"
i=0
while [ "$i" -lt "$RUNS" ]; do
  $MPIRUN "$PROGRAM" "$CALLS" | awk '/ns per call/ {print $1}' >> "$DATA/plain.txt"
  "$BUILD/bin/causeway" trace -o "$DATA/tracer-trace" -- $MPIRUN "$PROGRAM" "$CALLS" \
    | awk '/ns per call/ {print $1}' >> "$DATA/traced.txt"
  "$BUILD/bin/causeway" trace --buffer 64K -o "$DATA/tracer-trace" -- $MPIRUN "$PROGRAM" "$CALLS" \
    | awk '/ns per call/ {print $1}' >> "$DATA/small.txt"
  i=$((i + 1))
done
P=$(fastest < "$DATA/plain.txt"); PM=$(median < "$DATA/plain.txt")
T=$(fastest < "$DATA/traced.txt"); TM=$(median < "$DATA/traced.txt")
S=$(fastest < "$DATA/small.txt"); SM=$(median < "$DATA/small.txt")
awk -v p="$P" -v pm="$PM" -v t="$T" -v tm="$TM" -v s="$S" -v sm="$SM" -v c="$CALLS" -v r="$RUNS" 'BEGIN {
  printf "MPI_Test(MPI_REQUEST_NULL) x %d per rank, 2 ranks; fastest (median) of %d runs\n", c, r
  printf "  without tracing            %8.2f ns per call (%.2f)\n", p, pm
  printf "  causeway trace (1M buffer) %8.2f ns per call (%.2f)\n", t, tm
  printf "  causeway trace --buffer 64K%8.2f ns per call (%.2f)\n", s, sm
  printf "cost per recorded event (2 per call): %.1f ns (median %.1f); with flushes every 1638 events: %.1f ns (median %.1f)\n", (t - p) / 2, (tm - pm) / 2, (s - p) / 2, (sm - pm) / 2
}'
