#!/bin/sh
# The what-if replay benchmark (docs/performance.md records its figures).
#
#   bench/run_whatif_benchmark.sh [BUILD_DIR] [RUNS]
#
# Replays the synthetic stencil trace of bench/run_benchmark.sh (64 ranks, 20 million events,
# generated once) RUNS times under an ideal network and prints the replay's events per second
# (fastest and median run: the machine is shared and noisy) and the peak memory of the whole
# command.
set -eu

BUILD=${1:-build}
RUNS=${2:-5}
DATA=${CW_BENCH_DATA:-$BUILD/bench-data}
TRACE=$DATA/stencil-64x20M

mkdir -p "$DATA"
if [ ! -f "$TRACE/traces.otf2" ]; then
  echo "generating $TRACE (64 ranks, 20 million events) ..."
  "$BUILD/bin/causeway-gen" --ranks 64 --events 20000000 --seed 1 -o "$TRACE" > /dev/null
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
fastest=$(sort -n "$DATA/whatif.txt" | head -1)
median=$(sort -n "$DATA/whatif.txt" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')
rss=$(sort -n "$DATA/whatif-mem.txt" | tail -1)
awk -v e="$EVENTS" -v f="$fastest" -v m="$median" -v r="$rss" 'BEGIN {
  printf "events                 %d\n", e
  printf "replay, fastest run    %.3f s  %.2f M events/s\n", f, e / f / 1e6
  printf "replay, median run     %.3f s  %.2f M events/s\n", m, e / m / 1e6
  printf "peak memory            %.0f MiB  %.1f bytes/event (the trace is read into memory)\n", r / 1024, r * 1024 / e
}'
