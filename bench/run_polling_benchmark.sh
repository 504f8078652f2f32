#!/bin/sh
# Polling compaction (docs/performance.md records its figures).
#
#   bench/run_polling_benchmark.sh [BUILD_DIR] [RUNS]
#
# Traces tests/programs/polling on 2 ranks RUNS times with the default --poll-gap (1us) and with
# --poll-gap 0 (every call recorded), alternating: rank 1 polls with MPI_Test for 50 ms, then with
# MPI_Iprobe for 50 ms. Prints, per setting, the calls the program made, the events and bytes
# the tracer recorded, the OTF2 archive's size and the time the command took (writing OTF2
# included); medians of the runs.
set -eu
. "$(dirname "$0")/common.sh"

BUILD=${1:-build}
RUNS=${2:-5}
DATA=${CW_BENCH_DATA:-$BUILD/bench-data}
PROGRAM=$BUILD/tests/programs/polling
MPIRUN="$(launcher mpirun) -np 2"
mkdir -p "$DATA"
[ -x "$PROGRAM" ] || { echo "build $PROGRAM first (make build)" >&2; exit 1; }

# run GAP: one traced run; appends "calls events raw_MB otf2_MB seconds" to $DATA/polling-GAP.txt
run() {
  dir=$DATA/polling-trace
  start=$(date +%s.%N)
  out=$("$BUILD/bin/causeway" trace --poll-gap "$1" -o "$dir" -- $MPIRUN "$PROGRAM" 2>"$DATA/polling.err")
  end=$(date +%s.%N)
  calls=$(echo "$out" | sed -n 's/tests=\([0-9]*\) iprobes=\([0-9]*\)/\1 \2/p' | awk '{print $1 + $2}')
  events=$(sed -n 's/.* ranks, \([0-9]*\) events, \([0-9.]*\) MB recorded.*/\1 \2/p' "$DATA/polling.err")
  otf2=$(du -sb "$dir/traces" "$dir/traces.def" "$dir/traces.otf2" | awk '{s += $1} END {print s / 1e6}')
  echo "$calls $events $otf2 $(echo "$end - $start" | bc)" >> "$DATA/polling-$1.txt"
}

: > "$DATA/polling-1us.txt"; : > "$DATA/polling-0.txt"
i=0
while [ "$i" -lt "$RUNS" ]; do
  run 1us
  run 0
  i=$((i + 1))
done
for gap in 1us 0; do
  f=$DATA/polling-$gap.txt
  awk -v gap="$gap" -v calls="$(cut -d' ' -f1 "$f" | median)" -v events="$(cut -d' ' -f2 "$f" | median)" \
      -v raw="$(cut -d' ' -f3 "$f" | median)" -v otf2="$(cut -d' ' -f4 "$f" | median)" \
      -v secs="$(cut -d' ' -f5 "$f" | median)" 'BEGIN {
    printf "--poll-gap %-4s %9d calls polled  %9d events  %8.2f MB raw  %8.2f MB OTF2  %6.2f s\n",
           gap, calls, events, raw, otf2, secs }'
done
echo "(medians of $RUNS alternating runs; rank 1 polls 50 ms with MPI_Test, then 50 ms with MPI_Iprobe)"
