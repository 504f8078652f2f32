#!/bin/sh
# What `causeway tag` costs and how big its graphs are (docs/performance.md).
#
#   bench/run_tag_benchmark.sh [BUILD_DIR] [RUNS]
#
# On the synthetic stencil trace of 64 ranks and 20 million events (run_benchmark.sh's), runs in
# alternation, RUNS times each, with all hardware threads:
#   (c) causeway analyze --wait-states-only: reading, matching, the wait-state analysis;
#   (t) causeway tag: reading, matching, the task activity graphs, the application graph and
#       its classes, and their files,
# and prints the fastest and median wall-clock times, (t)/(c), the peak memory of both, and the
# size of what tag wrote: tag.json, the nodes and edges per process, the classes.
set -eu
. "$(dirname "$0")/common.sh"

BUILD=${1:-build}
RUNS=${2:-3}
DATA=${CW_BENCH_DATA:-$BUILD/bench-data}
TRACE=$(stencil_trace "$BUILD" "$DATA")
THREADS=$(nproc)


run() {  # run NAME SUBCOMMAND ARGS...: appends wall seconds to NAME.txt, peak KiB to NAME-mem.txt
  name=$1
  shift
  /usr/bin/time -f "%e %M" -o "$DATA/time.txt" "$BUILD/bin/causeway" "$@" -q --threads "$THREADS" \
    "$TRACE" -o "$DATA/out-$name" > /dev/null
  awk '{print $1}' "$DATA/time.txt" >> "$DATA/$name.txt"
  awk '{print $2}' "$DATA/time.txt" >> "$DATA/$name-mem.txt"
}

for n in c t; do : > "$DATA/$n.txt"; : > "$DATA/$n-mem.txt"; done
i=0
while [ "$i" -lt "$RUNS" ]; do
  run c analyze --wait-states-only
  run t tag
  i=$((i + 1))
done

C=$(fastest < "$DATA/c.txt"); CM=$(median < "$DATA/c.txt")
T=$(fastest < "$DATA/t.txt"); TM=$(median < "$DATA/t.txt")
CMEM=$(median < "$DATA/c-mem.txt"); TMEM=$(median < "$DATA/t-mem.txt")
JSON=$(wc -c < "$DATA/out-t/tag.json")
SIZES=$(/usr/bin/python3 -c "
import json
t = json.load(open('$DATA/out-t/tag.json'))
p = t['processes']
print(len(p), sum(len(x['nodes']) for x in p) / len(p), sum(len(x['edges']) for x in p) / len(p),
      len(t['clusters']), len(t['ptag_edges']))")
awk -v c="$C" -v cm="$CM" -v t="$T" -v tm="$TM" -v cmem="$CMEM" -v tmem="$TMEM" -v j="$JSON" \
    -v s="$SIZES" -v n="$THREADS" -v r="$RUNS" 'BEGIN {
  split(s, z, " ")
  printf "20M-event trace, 64 locations; %d threads; fastest (median) of %d runs\n", n, r
  printf "  analyze --wait-states-only  %6.2f s (%6.2f s)  %6.0f MiB\n", c, cm, cmem / 1024
  printf "  tag                         %6.2f s (%6.2f s)  %6.0f MiB\n", t, tm, tmem / 1024
  printf "  tag / analyze               %6.2f   (%6.2f)\n", t / c, tm / cm
  printf "  tag.json %d bytes; %d processes, %.1f nodes and %.1f edges each; %d classes, %d inter-process edges\n", j, z[1], z[2], z[3], z[4], z[5]
}'
