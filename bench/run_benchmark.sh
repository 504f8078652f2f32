#!/bin/sh
# The reading-and-analysis benchmark (docs/performance.md records its figures).
#
#   bench/run_benchmark.sh [BUILD_DIR] [RUNS]
#
# Generates (once) a synthetic stencil trace of 64 ranks and 20 million events, then runs, in
# alternation so that machine noise hits all of them alike, RUNS times each:
#   (a1) minimal-reader with 1 thread: decodes every event through the OTF2 C API, nothing else;
#   (aN) minimal-reader with all hardware threads;
#   (b)  causeway analyze with all hardware threads: read, match, wait states, delay analysis,
#        critical path, reports (--no-advice: the bottleneck analysis, on by default, has its
#        own benchmark, run_advice_benchmark.sh);
#   (c)  the same with --wait-states-only (no delay or critical-path analysis),
# and prints events per second, the ratios (b)/(a), the throughput of (b) relative to (c), and
# the peak memory of (b) and (c) in bytes per event.
# The machine is shared and noisy, and noise only ever adds time: the fastest of the runs is
# the primary figure; the medians are printed beside them.
set -eu
. "$(dirname "$0")/common.sh"

BUILD=${1:-build}
RUNS=${2:-7}
DATA=${CW_BENCH_DATA:-$BUILD/bench-data}
TRACE=$(stencil_trace "$BUILD" "$DATA")
THREADS=$(nproc)

EVENTS=$("$BUILD/bin/causeway" info --json "$TRACE" | sed -n 's/^ "events": \([0-9]*\),$/\1/p')


: > "$DATA/a1.txt"; : > "$DATA/aN.txt"; : > "$DATA/b.txt"; : > "$DATA/mem.txt"
: > "$DATA/c.txt"; : > "$DATA/cmem.txt"
i=0
while [ "$i" -lt "$RUNS" ]; do
  "$BUILD/bin/minimal-reader" "$TRACE/traces.otf2" 1 | awk '{print $2}' >> "$DATA/a1.txt"
  "$BUILD/bin/minimal-reader" "$TRACE/traces.otf2" "$THREADS" | awk '{print $2}' >> "$DATA/aN.txt"
  /usr/bin/time -f "%e %M" -o "$DATA/time.txt" \
    "$BUILD/bin/causeway" analyze -q --no-advice --threads "$THREADS" "$TRACE" -o "$DATA/report" \
    > /dev/null
  awk '{print $1}' "$DATA/time.txt" >> "$DATA/b.txt"
  awk '{print $2}' "$DATA/time.txt" >> "$DATA/mem.txt"
  /usr/bin/time -f "%e %M" -o "$DATA/time.txt" \
    "$BUILD/bin/causeway" analyze -q --threads "$THREADS" --wait-states-only "$TRACE" \
    -o "$DATA/report-ws" > /dev/null
  awk '{print $1}' "$DATA/time.txt" >> "$DATA/c.txt"
  awk '{print $2}' "$DATA/time.txt" >> "$DATA/cmem.txt"
  i=$((i + 1))
done

A1=$(fastest < "$DATA/a1.txt"); A1M=$(median < "$DATA/a1.txt")
AN=$(fastest < "$DATA/aN.txt"); ANM=$(median < "$DATA/aN.txt")
B=$(fastest < "$DATA/b.txt"); BM=$(median < "$DATA/b.txt")
C=$(fastest < "$DATA/c.txt"); CM=$(median < "$DATA/c.txt")
MEM_KB=$(median < "$DATA/mem.txt"); CMEM_KB=$(median < "$DATA/cmem.txt")
awk -v e="$EVENTS" -v a1="$A1" -v an="$AN" -v b="$B" -v a1m="$A1M" -v anm="$ANM" -v bm="$BM" \
    -v c="$C" -v cm="$CM" -v kb="$MEM_KB" -v ckb="$CMEM_KB" -v t="$THREADS" -v r="$RUNS" 'BEGIN {
  printf "trace: %d events, 64 locations; %d threads; fastest (median) of %d runs\n", e, t, r
  printf "(a1) minimal OTF2 reader, 1 thread   %6.3f s (%6.3f)  %11.0f events/s\n", a1, a1m, e / a1
  printf "(aN) minimal OTF2 reader, %d threads  %6.3f s (%6.3f)  %11.0f events/s\n", t, an, anm, e / an
  printf "(b)  causeway analyze, %d threads     %6.3f s (%6.3f)  %11.0f events/s\n", t, b, bm, e / b
  printf "(c)  ... --wait-states-only          %6.3f s (%6.3f)  %11.0f events/s\n", c, cm, e / c
  printf "(b)/(a1) = %.2f (medians %.2f)   (b)/(aN) = %.2f (medians %.2f)\n", b / a1, bm / a1m, b / an, bm / anm
  printf "throughput of (b) relative to (c): %.0f%% (medians %.0f%%)\n", 100 * c / b, 100 * cm / bm
  printf "peak memory: (b) %.0f MB = %.1f bytes per event, (c) %.0f MB = %.1f bytes per event\n", kb / 1024, kb * 1024 / e, ckb / 1024, ckb * 1024 / e
}'
