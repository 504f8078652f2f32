#!/bin/sh
# The report benchmark (docs/performance.md records its figures).
#
#   bench/run_report_benchmark.sh [BUILD_DIR] [RUNS]
#
# Analyses the synthetic stencil trace of bench/run_benchmark.sh (64 ranks, 20 million events,
# generated once) RUNS times with `causeway analyze --timings` and prints, for the fastest run,
# the time of the analysis and of writing the report (summary.txt, report.json, report.cubex,
# report.html), their ratio, and the size of each file. The target: the report takes under 10 %
# of the analysis time and report.html stays under 5 MB.
set -eu
. "$(dirname "$0")/common.sh"

BUILD=${1:-build}
RUNS=${2:-3}
DATA=${CW_BENCH_DATA:-$BUILD/bench-data}
TRACE=$(stencil_trace "$BUILD" "$DATA")


: > "$DATA/report-times.txt"
i=0
while [ "$i" -lt "$RUNS" ]; do
  "$BUILD/bin/causeway" analyze "$TRACE" -q --no-advice --timings -o "$DATA/report-bench" \
    2> "$DATA/report-timings.txt" > /dev/null
  # The analysis proper: matching, the analyses and the ideal-network replay that finishes
  # after them (POP), as --timings prints them.
  # The report: building its model and event views ("report") and writing the files ("write").
  awk '/^match / {a += $2} /^analysis / {a += $2} /^ideal replay / {a += $3}
       /^report / {r += $2} /^write / {r += $2} END {print a, r}' "$DATA/report-timings.txt" \
    >> "$DATA/report-times.txt"
  i=$((i + 1))
done
sort -n -k2 "$DATA/report-times.txt" | head -1 | awk '{
  printf "analysis (match, analyses, ideal replay)  %.3f s\n", $1
  printf "report (model, views, all four files)      %.3f s  (%.1f %% of the analysis)\n", $2, 100 * $2 / $1
}'
for f in summary.txt report.json report.cubex report.html; do
  printf "%-12s %10d bytes\n" "$f" "$(stat -c %s "$DATA/report-bench/$f")"
done
