#!/bin/sh
# The tracer's cost per OpenMP event (docs/performance.md records its figures).
#
#   bench/run_omp_tracer_benchmark.sh [BUILD_DIR] [RUNS] [CALLS]
#
# Runs omp-microbench (one rank, a team of 2 threads; GCC built it) RUNS times in three ways,
# one after the other in each round so that machine noise hits all alike: on GCC's runtime as
# built, on LLVM's runtime (libomp) as `causeway trace` runs it but without causeway, and traced.
# The master enters an empty critical section CALLS times, uncontended (6 recorded events), then
# the team passes CALLS / 10 barriers (2 events per thread). Prints the time per construct of each and the tracer's cost per
# recorded event (traced against libomp untraced); the fastest run is the primary figure (noise
# only adds time), medians beside.
set -eu
. "$(dirname "$0")/common.sh"

BUILD=${1:-build}
RUNS=${2:-5}
CALLS=${3:-200000}
DATA=${CW_BENCH_DATA:-$BUILD/bench-data}
PROGRAM=$BUILD/bench/omp-microbench
MPIRUN="$(launcher mpirun) -np 1"
LIBOMP=$(ls /usr/lib/llvm-*/lib/libomp.so.5 | head -1)
# Idle threads sleep at once rather than spin for 200 ms, in every runtime alike: the team's
# two threads share the 2 cores with the launcher.
export OMP_WAIT_POLICY=passive
mkdir -p "$DATA"

for f in gomp libomp traced; do : > "$DATA/omp_${f}_critical.txt"; : > "$DATA/omp_${f}_barrier.txt"; done
record() { # NAME OUTPUT
  awk '/per critical section/ {print $1}' "$2" >> "$DATA/omp_$1_critical.txt"
  awk '/per barrier/ {print $1}' "$2" >> "$DATA/omp_$1_barrier.txt"
}
i=0
while [ "$i" -lt "$RUNS" ]; do
  $MPIRUN "$PROGRAM" "$CALLS" 2 > "$DATA/omp_gomp.out"
  $MPIRUN -x LD_PRELOAD="$LIBOMP" "$PROGRAM" "$CALLS" 2 > "$DATA/omp_libomp.out"
  "$BUILD/bin/causeway" trace -o "$DATA/omp-trace" --callpaths none -- \
    $MPIRUN "$PROGRAM" "$CALLS" 2 > "$DATA/omp_traced.out"
  record gomp "$DATA/omp_gomp.out"
  record libomp "$DATA/omp_libomp.out"
  record traced "$DATA/omp_traced.out"
  i=$((i + 1))
done
for f in gomp libomp traced; do
  for c in critical barrier; do
    eval "F_${f}_$c=\$(fastest < \"$DATA/omp_${f}_$c.txt\")"
    eval "M_${f}_$c=\$(median < \"$DATA/omp_${f}_$c.txt\")"
  done
done
awk -v n="$CALLS" -v r="$RUNS" \
  -v gc="$F_gomp_critical" -v gcm="$M_gomp_critical" -v gb="$F_gomp_barrier" -v gbm="$M_gomp_barrier" \
  -v lc="$F_libomp_critical" -v lcm="$M_libomp_critical" -v lb="$F_libomp_barrier" -v lbm="$M_libomp_barrier" \
  -v tc="$F_traced_critical" -v tcm="$M_traced_critical" -v tb="$F_traced_barrier" -v tbm="$M_traced_barrier" 'BEGIN {
  printf "%d critical sections (the master) and %d barriers (2 threads); fastest (median) of %d runs, ns each\n", n, n / 10, r
  printf "  critical section  libgomp %8.1f (%.1f), libomp %8.1f (%.1f), traced %8.1f (%.1f)\n", gc, gcm, lc, lcm, tc, tcm
  printf "  barrier           libgomp %8.1f (%.1f), libomp %8.1f (%.1f), traced %8.1f (%.1f)\n", gb, gbm, lb, lbm, tb, tbm
  printf "cost per recorded event: critical section (6 events) %.1f ns (median %.1f); barrier (2 events) %.1f ns (median %.1f)\n", (tc - lc) / 6, (tcm - lcm) / 6, (tb - lb) / 2, (tbm - lbm) / 2
}'
