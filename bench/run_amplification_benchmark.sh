#!/bin/sh
# What a CPU second spent at MPI calls costs an application's wall-clock time on this machine,
# without the tracer (docs/performance.md records its figures).
#
#   [BURNS="250 1000"] bench/run_amplification_benchmark.sh [BUILD_DIR] [RUNS] [RANKS] [APP]
#
# APP as in run_application_benchmark.sh. Each round runs APP without anything preloaded and,
# for each nanosecond count in BURNS, with libcw-burn.so preloaded (bench/burn_preload.c: that
# many nanoseconds of CPU at each of the common MPI calls, counted), in alternating order. For
# each count it prints the median of the rounds' paired overheads, the CPU time the ranks spent
# burning (calls x nanoseconds), and two ratios of the added wall-clock time: to that CPU time,
# and to that CPU time spread evenly over the cores the ranks have (min(RANKS, CPUs)), which is
# 1 when every core spends its share in parallel and nobody waits for it.
#
# A count of 0 measures the preloaded library alone. A tracer's cost at each call is such CPU
# time: where the second ratio is above 1, as with more ranks than cores, where the ranks that
# wait spin on the cores they share, a tracer's overhead on the run is that many times its share
# of the CPU time.
set -eu
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/applications.sh"

BUILD=${1:-build}
RUNS=${2:-7}
RANKS=${3:-$(nproc)}
APP=${4:-qe}
BURNS=${BURNS:-250 1000}
BURN_LIBRARY=$(cd "$BUILD" && pwd)/bench/libcw-burn.so
[ -f "$BURN_LIBRARY" ] || { echo "$BURN_LIBRARY not built (MPI's C compiler wrapper missing?)" >&2; exit 1; }
CPUS=$(nproc)  # before OMP_NUM_THREADS, which nproc obeys
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export OMP_NUM_THREADS=1

application_input "$APP" "$WORK"
MPIRUN="$(launcher mpirun) -np $RANKS"
CORES=$CPUS
[ "$RANKS" -lt "$CORES" ] && CORES=$RANKS

: > "$WORK/plain.txt"
for ns in $BURNS; do : > "$WORK/burn-$ns.txt"; done
# One run of the command: plain, or with NS nanoseconds burnt at each call; its wall time is
# appended to plain.txt or burn-NS.txt, one line a round (alternating_rounds calls it).
run_once() {
  if [ "$1" = plain ]; then
    /usr/bin/time -f "%e" -o "$WORK/t" $MPIRUN $CMD > plain.out 2>&1
    cat "$WORK/t" >> "$WORK/plain.txt"
  else
    CW_BURN_NS=$1 /usr/bin/time -f "%e" -o "$WORK/t" $MPIRUN -x LD_PRELOAD="$BURN_LIBRARY" \
      -x CW_BURN_NS $CMD > "burn-$1.out" 2>&1
    cat "$WORK/t" >> "$WORK/burn-$1.txt"
  fi
}
cd "$WORK"
alternating_rounds "$RUNS" $BURNS

P=$(median < "$WORK/plain.txt")
echo "$NAME, $RANKS ranks on $CPUS CPUs; median of $RUNS rounds"
printf "  without anything preloaded  %7.2f s\n" "$P"
for ns in $BURNS; do
  CALLS=$(sed -n 's/^burn: rank [^,]*, \([0-9]*\) calls.*/\1/p' "burn-$ns.out" | awk '{s += $1} END {print s + 0}')
  [ "$CALLS" -gt 0 ] || { echo "burn-$ns: no rank reported its calls" >&2; exit 1; }
  if [ -n "$RESULT" ] && [ "$(grep -- "$RESULT" plain.out)" != "$(grep -- "$RESULT" "burn-$ns.out")" ]; then
    echo "burn-$ns: the program's result differs from the run without the library" >&2
    exit 1
  fi
  paired_overheads "$WORK/plain.txt" "$WORK/burn-$ns.txt"
  awk -v p="$P" -v t="$(median < "$WORK/burn-$ns.txt")" -v ns="$ns" -v calls="$CALLS" \
    -v paired="$PAIRED" -v lo="$LO" -v hi="$HI" -v cores="$CORES" 'BEGIN {
    cpu = calls * ns * 1e-9
    added = p * paired / 100
    printf "  %5d ns at each of %d calls %7.2f s: %+.1f %% (median of the rounds; rounds %.1f to %.1f %%)\n", ns, calls, t, paired, lo, hi
    if (cpu == 0) printf "    nothing burnt (the library alone): %.3f s added\n", added
    else printf "    %.3f CPU s burnt, %.3f s added: %.2f s of wall-clock time per CPU second, %.2f times its share of %d cores\n", cpu, added, added / cpu, added / (cpu / cores), cores
  }'
done
