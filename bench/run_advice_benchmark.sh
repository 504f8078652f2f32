#!/bin/sh
# What the automatic bottleneck analysis adds to `causeway analyze` (docs/performance.md).
#
#   bench/run_advice_benchmark.sh [BUILD_DIR] [RUNS]
#
# On the synthetic stencil trace of 64 ranks and 20 million events (run_benchmark.sh's), runs in
# alternation, RUNS times each, with all hardware threads:
#   (b) causeway analyze --no-advice;
#   (d) causeway analyze --predictions 0: detection, cause analysis, the global and frequency
#       analyses;
#   (e) causeway analyze (the default): the same and the what-if replays that predict the
#       savings of the top findings (5 at most, and the unchanged replay),
# and prints the fastest and median wall-clock times, (d)/(b), the replays' time (e) - (d), the
# advice phase as `--timings` reports it, the peak memory of (b) and (d), and the medians of the
# ratios (e)/(b) and (d)/(b) within a round, in wall clock and CPU time (user and system).
#
# Times on the shared machine vary from run to run by more than the 10 % the target allows, so
# when valgrind is installed it also counts the instructions (callgrind, one thread) of (b), (d)
# and (e) on a trace of the same program a tenth the size: a figure no other work on the machine
# changes. (Instructions are not time: the reading's cache misses make the part of (b) that the
# bottleneck analysis does not repeat slower per instruction.)
# With CW_BENCH_INSTRUCTIONS_20M=1 it counts those of (b) and (e) on the 20M trace as well.
set -eu
. "$(dirname "$0")/common.sh"

BUILD=${1:-build}
RUNS=${2:-3}
DATA=${CW_BENCH_DATA:-$BUILD/bench-data}
TRACE=$(stencil_trace "$BUILD" "$DATA")
THREADS=$(nproc)


# run NAME ARGS...: appends wall seconds to NAME.txt, peak KiB to NAME-mem.txt and CPU seconds
# (user and system) to NAME-cpu.txt
run() {
  name=$1
  shift
  /usr/bin/time -f "%e %M %U %S" -o "$DATA/time.txt" \
    "$BUILD/bin/causeway" analyze -q --timings --threads "$THREADS" "$@" "$TRACE" \
    -o "$DATA/report-$name" > /dev/null 2> "$DATA/timings-$name.txt"
  awk '{print $1}' "$DATA/time.txt" >> "$DATA/$name.txt"
  awk '{print $2}' "$DATA/time.txt" >> "$DATA/$name-mem.txt"
  awk '{print $3 + $4}' "$DATA/time.txt" >> "$DATA/$name-cpu.txt"
  awk '$1 == "advice" {print $2}' "$DATA/timings-$name.txt" >> "$DATA/$name-phase.txt"
}

for n in b d e; do
  for f in "$n" "$n-mem" "$n-phase" "$n-cpu"; do : > "$DATA/$f.txt"; done
done
i=0
while [ "$i" -lt "$RUNS" ]; do
  run b --no-advice
  run d --predictions 0
  run e
  i=$((i + 1))
done

# The ratios of the runs of one round, which ran back to back: the machine's load from other
# work changes less within a round than between rounds.
ratio() {  # ratio A B: the median over the rounds of A/B
  paste "$1" "$2" | awk '{print $1 / $2}' | median
}
RW=$(ratio "$DATA/e.txt" "$DATA/b.txt"); RDW=$(ratio "$DATA/d.txt" "$DATA/b.txt")
RC=$(ratio "$DATA/e-cpu.txt" "$DATA/b-cpu.txt"); RDC=$(ratio "$DATA/d-cpu.txt" "$DATA/b-cpu.txt")
BC=$(median < "$DATA/b-cpu.txt"); EC=$(median < "$DATA/e-cpu.txt")
B=$(fastest < "$DATA/b.txt"); BM=$(median < "$DATA/b.txt")
D=$(fastest < "$DATA/d.txt"); DM=$(median < "$DATA/d.txt")
E=$(fastest < "$DATA/e.txt"); EM=$(median < "$DATA/e.txt")
P=$(fastest < "$DATA/d-phase.txt"); PM=$(median < "$DATA/d-phase.txt")
BMEM=$(median < "$DATA/b-mem.txt"); DMEM=$(median < "$DATA/d-mem.txt")
FINDINGS=$(grep -c '"pattern"' "$DATA/report-e/report.json" || true)
awk -v b="$B" -v bm="$BM" -v d="$D" -v dm="$DM" -v e="$E" -v em="$EM" -v p="$P" -v pm="$PM" \
    -v bmem="$BMEM" -v dmem="$DMEM" -v t="$THREADS" -v r="$RUNS" -v f="$FINDINGS" \
    -v rw="$RW" -v rc="$RC" -v rdw="$RDW" -v rdc="$RDC" -v bc="$BC" -v ec="$EC" 'BEGIN {
  printf "20M-event trace, 64 locations; %d threads; fastest (median) of %d runs\n", t, r
  printf "  analyze --no-advice              %6.2f s (%6.2f s)  %6.0f MiB\n", b, bm, bmem / 1024
  printf "  analyze --predictions 0          %6.2f s (%6.2f s)  %6.0f MiB\n", d, dm, dmem / 1024
  printf "    advice phase (--timings)       %6.3f s (%6.3f s)\n", p, pm
  printf "  analyze (advice and predictions) %6.2f s (%6.2f s)\n", e, em
  printf "  advice adds %.1f %% (median %.1f %%); the savings replays %.2f s (median %.2f s)\n",
         100 * (d / b - 1), 100 * (dm / bm - 1), e - d, em - dm
  printf "  findings in report.json: %d\n", f
  printf "  per round (median): the default / --no-advice %.3f wall, %.3f CPU (%.2f s / %.2f s)\n",
         rw, rc, ec, bc
  printf "                      --predictions 0 / --no-advice %.3f wall, %.3f CPU\n", rdw, rdc
}'

if command -v valgrind > /dev/null; then
  small=$DATA/stencil-64x2M
  if [ ! -f "$small/traces.otf2" ]; then
    "$BUILD/bin/causeway-gen" --ranks 64 --events 2000000 --seed 1 -o "$small" > /dev/null
  fi
  # instructions TRACE NAME ARGS...: instructions of `causeway analyze` on one thread, its
  # report in report-callgrind-NAME
  instructions() {
    trace=$1
    name=$2
    shift 2
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$BUILD/bin/causeway" analyze -q \
      --threads 1 "$@" "$trace" -o "$DATA/report-callgrind-$name" 2>&1 > /dev/null |
      awk '/refs:/ {gsub(",", "", $NF); print $NF}'
  }
  IB=$(instructions "$small/traces.otf2" b --no-advice)
  ID=$(instructions "$small/traces.otf2" d --predictions 0)
  IE=$(instructions "$small/traces.otf2" e)
  awk -v b="$IB" -v d="$ID" -v e="$IE" 'BEGIN {
    printf "  instructions, 2M events, 1 thread: --no-advice %.0f M, --predictions 0 %+.1f %%,", b / 1e6, 100 * (d / b - 1)
    printf " the default %+.1f %%\n", 100 * (e / b - 1)
  }'
  # The target's own trace, on request (CW_BENCH_INSTRUCTIONS_20M=1): about 5 minutes, the two
  # runs side by side. Its share differs from the small trace's, whose reading has a larger
  # part that does not grow with the events (docs/performance.md).
  if [ "${CW_BENCH_INSTRUCTIONS_20M:-0}" = 1 ]; then
    instructions "$TRACE" b20 --no-advice > "$DATA/instructions-b20.txt" &
    IE20=$(instructions "$TRACE" e20)
    wait
    awk -v b="$(cat "$DATA/instructions-b20.txt")" -v e="$IE20" 'BEGIN {
      printf "  instructions, 20M events, 1 thread: --no-advice %.0f M, the default %+.1f %%\n", b / 1e6, 100 * (e / b - 1)
    }'
  fi
fi
