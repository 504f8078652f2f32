#!/bin/sh
# The tracer's cost per recorded event, per stack walk and per sample (docs/performance.md
# records its figures).
#
#   bench/run_tracer_benchmark.sh [BUILD_DIR] [RUNS] [CALLS]
#
# Runs tracer-microbench on 2 ranks RUNS times without and with `causeway trace` (alternating,
# so that machine noise hits all alike): each rank calls MPI_Test on MPI_REQUEST_NULL CALLS
# times, which the tracer records as an Enter and a Leave. Prints the time per call of each:
#  - without call paths (--callpaths none): the cost per recorded event, also with a 64 KiB
#    buffer (a flush every 1638 events);
#  - with the stack walked at each call (the default), the calls made 20 functions deep: the
#    same path each time (the thread's previous walk reused), and alternating between two paths
#    (each walk looked up in the calling-context tree);
# and the cost of a sample: each rank computes about 2 s (SPIN million loop steps) 20 and 100
# functions deep under the default sampling; the tracer measures the time its handler and the
# writing of the samples take (the kernel's signal delivery, about a microsecond, is not in it).
# The fastest run is the primary figure (noise only adds time); medians beside.
set -eu
. "$(dirname "$0")/common.sh"

BUILD=${1:-build}
RUNS=${2:-5}
CALLS=${3:-2000000}
DATA=${CW_BENCH_DATA:-$BUILD/bench-data}
PROGRAM=$BUILD/bench/tracer-microbench
MPIRUN="$(launcher mpirun) -np 2"
CAUSEWAY="$BUILD/bin/causeway"
SPIN=1000
mkdir -p "$DATA"

# run NAME [TRACE_OPTIONS] -- PROGRAM_ARGS: one run, its figure appended to DATA/NAME.txt.
run() {
  name=$1
  shift
  options=""
  while [ "$1" != "--" ]; do options="$options $1"; shift; done
  shift
  if [ "$name" = plain ]; then
    $MPIRUN "$PROGRAM" "$@" | awk '/per call|of computation/ {print $1}' >> "$DATA/$name.txt"
  else
    # shellcheck disable=SC2086
    "$CAUSEWAY" trace $options -o "$DATA/tracer-trace" -- $MPIRUN "$PROGRAM" "$@" 2> /dev/null \
      | awk '/per call|of computation/ {print $1}' >> "$DATA/$name.txt"
  fi
}

# sample DEPTH: the tracer's own figure for a sample's cost, appended to DATA/sample_DEPTH.txt.
sample() {
  "$CAUSEWAY" trace -o "$DATA/tracer-trace" -- $MPIRUN "$PROGRAM" 1 "$1" 0 "$SPIN" 2>&1 \
    | sed -n 's/.* stack samples of the computation, \([0-9.]*\) us each.*/\1/p' \
    >> "$DATA/sample_$1.txt"
}

for f in plain none small deep walked varying sample_20 sample_100; do
  : > "$DATA/$f.txt"
done
i=0
while [ "$i" -lt "$RUNS" ]; do
  run plain -- "$CALLS"
  run none --callpaths none -- "$CALLS"
  run small --callpaths none --buffer 64K -- "$CALLS"
  run deep --callpaths none -- "$CALLS" 20 0
  run walked --callpaths calls -- "$CALLS" 20 0
  run varying --callpaths calls -- "$CALLS" 20 1
  sample 20
  sample 100
  i=$((i + 1))
done
figure() { printf '%s %s' "$(fastest < "$DATA/$1.txt")" "$(median < "$DATA/$1.txt")"; }
awk -v plain="$(figure plain)" -v none="$(figure none)" -v small="$(figure small)" \
  -v deep="$(figure deep)" -v walked="$(figure walked)" -v varying="$(figure varying)" \
  -v sample20="$(figure sample_20)" -v sample100="$(figure sample_100)" \
  -v c="$CALLS" -v r="$RUNS" -v spin="$SPIN" 'BEGIN {
  split(plain, p); split(none, n); split(small, s); split(deep, d); split(walked, w)
  split(varying, v); split(sample20, s20); split(sample100, s100)
  printf "MPI_Test(MPI_REQUEST_NULL) x %d per rank, 2 ranks; fastest (median) of %d runs\n", c, r
  printf "  without tracing                          %8.2f ns per call (%.2f)\n", p[1], p[2]
  printf "  --callpaths none                         %8.2f ns per call (%.2f)\n", n[1], n[2]
  printf "  --callpaths none --buffer 64K            %8.2f ns per call (%.2f)\n", s[1], s[2]
  printf "  --callpaths none, 20 frames deep         %8.2f ns per call (%.2f)\n", d[1], d[2]
  printf "  --callpaths calls, 20 deep, same path    %8.2f ns per call (%.2f)\n", w[1], w[2]
  printf "  --callpaths calls, 20 deep, 2 paths      %8.2f ns per call (%.2f)\n", v[1], v[2]
  printf "cost per recorded event (2 per call): %.1f ns (median %.1f); with flushes every 1638 events: %.1f ns (median %.1f)\n", (n[1] - p[1]) / 2, (n[2] - p[2]) / 2, (s[1] - p[1]) / 2, (s[2] - p[2]) / 2
  printf "stack walk per call, 20 frames: %.0f ns with the previous path reused (median %.0f), %.0f ns looked up (median %.0f)\n", w[1] - d[1], w[2] - d[2], v[1] - d[1], v[2] - d[2]
  printf "a sample of the computation (handler and writing): %.1f us 20 frames deep (median %.1f), %.1f us 100 frames deep (median %.1f)\n", s20[1], s20[2], s100[1], s100[2]
}'
