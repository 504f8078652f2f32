#!/bin/sh
# The what-if replay benchmark (docs/performance.md records its figures).
#
#   bench/run_whatif_benchmark.sh [BUILD_DIR] [RUNS]
#
# `causeway whatif` streams the trace (it never reads it whole), so its memory must not grow
# with the trace length at a fixed rank count. The benchmark replays synthetic stencil traces of
# 64 ranks with 10, 20 and 40 million events (generated once; the 20-million one is the
# foundation benchmark's) under an ideal network, RUNS times each, and prints per trace the
# replay's events per second (fastest and median run: the machine is shared and noisy) and the
# peak memory of the whole command.
set -eu
. "$(dirname "$0")/common.sh"

BUILD=${1:-build}
RUNS=${2:-3}
DATA=${CW_BENCH_DATA:-$BUILD/bench-data}
mkdir -p "$DATA"

printf "%-8s %12s %14s %14s %12s\n" trace events "fastest M/s" "median M/s" "peak MiB"
for millions in 10 20 40; do
  TRACE=$DATA/stencil-64x${millions}M
  if [ ! -f "$TRACE/traces.otf2" ]; then
    "$BUILD/bin/causeway-gen" --ranks 64 --events "${millions}000000" --seed 1 -o "$TRACE" \
      > /dev/null
  fi
  EVENTS=$("$BUILD/bin/causeway" info --json "$TRACE" | sed -n 's/^ "events": \([0-9]*\),$/\1/p')
  : > "$DATA/whatif.txt"; : > "$DATA/whatif-mem.txt"
  i=0
  while [ "$i" -lt "$RUNS" ]; do
    /usr/bin/time -f "%M" -o "$DATA/whatif-rss.txt" "$BUILD/bin/causeway" whatif "$TRACE" -q \
      --network ideal --timings -o "$DATA/whatif-report" 2> "$DATA/whatif-timings.txt" > /dev/null
    awk '/^replay/ {print $2}' "$DATA/whatif-timings.txt" >> "$DATA/whatif.txt"
    cat "$DATA/whatif-rss.txt" >> "$DATA/whatif-mem.txt"
    i=$((i + 1))
  done
  fastest=$(fastest < "$DATA/whatif.txt")
  median=$(median < "$DATA/whatif.txt")
  rss=$(sort -n "$DATA/whatif-mem.txt" | tail -1)
  awk -v n="${millions}M" -v e="$EVENTS" -v f="$fastest" -v m="$median" -v r="$rss" 'BEGIN {
    printf "%-8s %12d %14.2f %14.2f %12.0f\n", n, e, e / f / 1e6, e / m / 1e6, r / 1024
  }'
done
