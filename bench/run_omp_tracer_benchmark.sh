#!/bin/sh
# The tracer's cost per OpenMP event (docs/performance.md records its figures).
#
#   bench/run_omp_tracer_benchmark.sh [BUILD_DIR] [RUNS] [CALLS]
#
# Runs omp-microbench (one rank, a team of 2 threads; GCC built it) RUNS times in four ways,
# one after the other in each round so that machine noise hits all alike: on GCC's runtime as
# built, on LLVM's runtime (libomp) as `causeway trace` runs it but without causeway, traced
# with `--callpaths none`, and traced with `--callpaths calls` (a stack walk at each fork).
# The master enters an empty critical section CALLS times, uncontended (6 recorded events), the
# team passes CALLS / 10 barriers (2 events per thread), then the master forks CALLS / 10 empty
# parallel regions (14 events each). Prints the time per construct of each, the tracer's cost
# per recorded event (traced against libomp untraced) and the fork's walk (walked against
# traced); the fastest run is the primary figure (noise only adds time), medians beside.
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

VARIANTS="gomp libomp traced walked"
CONSTRUCTS="critical barrier region"
for f in $VARIANTS; do for c in $CONSTRUCTS; do : > "$DATA/omp_${f}_$c.txt"; done; done
record() { # NAME OUTPUT
  awk '/per critical section/ {print $1}' "$2" >> "$DATA/omp_$1_critical.txt"
  awk '/per barrier/ {print $1}' "$2" >> "$DATA/omp_$1_barrier.txt"
  awk '/per parallel region/ {print $1}' "$2" >> "$DATA/omp_$1_region.txt"
}
i=0
while [ "$i" -lt "$RUNS" ]; do
  $MPIRUN "$PROGRAM" "$CALLS" 2 > "$DATA/omp_gomp.out"
  $MPIRUN -x LD_PRELOAD="$LIBOMP" "$PROGRAM" "$CALLS" 2 > "$DATA/omp_libomp.out"
  "$BUILD/bin/causeway" trace -o "$DATA/omp-trace" --callpaths none -- \
    $MPIRUN "$PROGRAM" "$CALLS" 2 > "$DATA/omp_traced.out"
  "$BUILD/bin/causeway" trace -o "$DATA/omp-trace" --callpaths calls -- \
    $MPIRUN "$PROGRAM" "$CALLS" 2 > "$DATA/omp_walked.out"
  for f in $VARIANTS; do record "$f" "$DATA/omp_$f.out"; done
  i=$((i + 1))
done
for f in $VARIANTS; do
  for c in $CONSTRUCTS; do
    eval "F_${f}_$c=\$(fastest < \"$DATA/omp_${f}_$c.txt\")"
    eval "M_${f}_$c=\$(median < \"$DATA/omp_${f}_$c.txt\")"
  done
done
row() { # LABEL CONSTRUCT
  eval "printf '  %-17s libgomp %8.1f (%.1f), libomp %8.1f (%.1f), traced %8.1f (%.1f), walked %8.1f (%.1f)\n' \
    \"$1\" \"\$F_gomp_$2\" \"\$M_gomp_$2\" \"\$F_libomp_$2\" \"\$M_libomp_$2\" \
    \"\$F_traced_$2\" \"\$M_traced_$2\" \"\$F_walked_$2\" \"\$M_walked_$2\""
}
printf '%d critical sections (the master), %d barriers and %d parallel regions (2 threads); fastest (median) of %d runs, ns each\n' \
  "$CALLS" $((CALLS / 10)) $((CALLS / 10)) "$RUNS"
row "critical section" critical
row "barrier" barrier
row "parallel region" region
awk -v tc="$F_traced_critical" -v tcm="$M_traced_critical" -v lc="$F_libomp_critical" -v lcm="$M_libomp_critical" \
  -v tb="$F_traced_barrier" -v tbm="$M_traced_barrier" -v lb="$F_libomp_barrier" -v lbm="$M_libomp_barrier" \
  -v tr="$F_traced_region" -v trm="$M_traced_region" -v lr="$F_libomp_region" -v lrm="$M_libomp_region" \
  -v wr="$F_walked_region" -v wrm="$M_walked_region" 'BEGIN {
  printf "cost per recorded event: critical section (6 events) %.1f ns (median %.1f); barrier (2 events) %.1f ns (median %.1f); parallel region (14 events) %.1f ns (median %.1f)\n", (tc - lc) / 6, (tcm - lcm) / 6, (tb - lb) / 2, (tbm - lbm) / 2, (tr - lr) / 14, (trm - lrm) / 14
  printf "the fork'"'"'s stack walk (--callpaths calls against none): %.1f ns per parallel region (median %.1f)\n", wr - tr, wrm - trm
}'
