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
# advice phase as `--timings` reports it, and the peak memory of (b) and (d).
set -eu
. "$(dirname "$0")/common.sh"

BUILD=${1:-build}
RUNS=${2:-3}
DATA=${CW_BENCH_DATA:-$BUILD/bench-data}
TRACE=$(stencil_trace "$BUILD" "$DATA")
THREADS=$(nproc)


run() {  # run NAME ARGS...: appends wall seconds to NAME.txt and peak KiB to NAME-mem.txt
  name=$1
  shift
  /usr/bin/time -f "%e %M" -o "$DATA/time.txt" \
    "$BUILD/bin/causeway" analyze -q --timings --threads "$THREADS" "$@" "$TRACE" \
    -o "$DATA/report-$name" > /dev/null 2> "$DATA/timings-$name.txt"
  awk '{print $1}' "$DATA/time.txt" >> "$DATA/$name.txt"
  awk '{print $2}' "$DATA/time.txt" >> "$DATA/$name-mem.txt"
  awk '$1 == "advice" {print $2}' "$DATA/timings-$name.txt" >> "$DATA/$name-phase.txt"
}

for n in b d e; do : > "$DATA/$n.txt"; : > "$DATA/$n-mem.txt"; : > "$DATA/$n-phase.txt"; done
i=0
while [ "$i" -lt "$RUNS" ]; do
  run b --no-advice
  run d --predictions 0
  run e
  i=$((i + 1))
done

B=$(fastest < "$DATA/b.txt"); BM=$(median < "$DATA/b.txt")
D=$(fastest < "$DATA/d.txt"); DM=$(median < "$DATA/d.txt")
E=$(fastest < "$DATA/e.txt"); EM=$(median < "$DATA/e.txt")
P=$(fastest < "$DATA/d-phase.txt"); PM=$(median < "$DATA/d-phase.txt")
BMEM=$(median < "$DATA/b-mem.txt"); DMEM=$(median < "$DATA/d-mem.txt")
FINDINGS=$(grep -c '"pattern"' "$DATA/report-e/report.json" || true)
awk -v b="$B" -v bm="$BM" -v d="$D" -v dm="$DM" -v e="$E" -v em="$EM" -v p="$P" -v pm="$PM" \
    -v bmem="$BMEM" -v dmem="$DMEM" -v t="$THREADS" -v r="$RUNS" -v f="$FINDINGS" 'BEGIN {
  printf "20M-event trace, 64 locations; %d threads; fastest (median) of %d runs\n", t, r
  printf "  analyze --no-advice              %6.2f s (%6.2f s)  %6.0f MiB\n", b, bm, bmem / 1024
  printf "  analyze --predictions 0          %6.2f s (%6.2f s)  %6.0f MiB\n", d, dm, dmem / 1024
  printf "    advice phase (--timings)       %6.3f s (%6.3f s)\n", p, pm
  printf "  analyze (advice and predictions) %6.2f s (%6.2f s)\n", e, em
  printf "  advice adds %.1f %% (median %.1f %%); the savings replays %.2f s (median %.2f s)\n",
         100 * (d / b - 1), 100 * (dm / bm - 1), e - d, em - dm
  printf "  findings in report.json: %d\n", f
}'
