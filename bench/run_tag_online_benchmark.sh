#!/bin/sh
# What recording task activity graphs online costs and how big they are (docs/performance.md).
#
#   bench/run_tag_online_benchmark.sh [BUILD_DIR] [RUNS] [LAMMPS_RANKS]
#
# 1. The cost per MPI call: tag-microbench on 2 ranks, RUNS times each without causeway, with
#    `causeway trace --tag`, and with --tag and a snapshot every 10 ms (the reader copying both
#    ranks' graphs while they run), alternating so that machine noise hits all alike:
#    MPI_Test on MPI_REQUEST_NULL (a call MPI answers at once: the stack walk and the graph's
#    update) and 8-byte ping-pong round trips (two calls and two messages with their
#    piggybacks each). The fastest run is the primary figure (noise only adds time).
# 2. The update routine alone, with and without a reader (tag-writer-bench).
# 3. LAMMPS (Debian's package, the melt example with 1250 steps) on LAMMPS_RANKS ranks (default
#    4), RUNS times without and with --tag, alternating: the overhead of the medians of the
#    command's wall time (mpirun's, as `causeway trace` reports it for --tag: the report written
#    after the run is not the program's time), and the tool's own time in each rank's MPI calls
#    as the graphs measured it (tag.json's tool_time: the largest rank's share of its run, the
#    median over the runs). The wall times of two runs differ by up to 20% on this machine; the
#    tool's own time is what the program's run grew by, measured inside the run.
# 4. Sizes: wavesend (bench/wavesend.c: broadcast, 1000 steps of a halo exchange, final
#    gather) recorded online on 4, 8, 16 and 32 ranks: a rank's graph (its compacted segment
#    and its part of tag.json), the behaviour classes, and the clustered and full graphs' files.
set -eu
. "$(dirname "$0")/common.sh"

BUILD=${1:-build}
RUNS=${2:-5}
LAMMPS_RANKS=${3:-4}
DATA=${CW_BENCH_DATA:-$BUILD/bench-data}
CAUSEWAY=$(cd "$BUILD" && pwd)/bin/causeway
MICRO=$(cd "$BUILD" && pwd)/bench/tag-microbench
WAVE=$(cd "$BUILD" && pwd)/bench/wavesend
MPIRUN="$(launcher mpirun)"
mkdir -p "$DATA"
OUT=$(cd "$DATA" && pwd)/tag-online
rm -rf "$OUT"
mkdir -p "$OUT"

per() { awk '/ns per/ {print $1}'; }

# --- 1. cost per call and per round trip
for f in plain tag read; do : > "$OUT/test-$f.txt"; : > "$OUT/pp-$f.txt"; done
i=0
while [ "$i" -lt "$RUNS" ]; do
  $MPIRUN -np 2 "$MICRO" test 1000000 | per >> "$OUT/test-plain.txt"
  "$CAUSEWAY" trace --tag -o "$OUT/run" -- $MPIRUN -np 2 "$MICRO" test 1000000 | per >> "$OUT/test-tag.txt"
  "$CAUSEWAY" trace --tag --tag-interval 10ms -o "$OUT/run" -- $MPIRUN -np 2 "$MICRO" test 1000000 \
    | per >> "$OUT/test-read.txt"
  $MPIRUN -np 2 "$MICRO" pingpong 200000 | per >> "$OUT/pp-plain.txt"
  "$CAUSEWAY" trace --tag -o "$OUT/run" -- $MPIRUN -np 2 "$MICRO" pingpong 200000 | per >> "$OUT/pp-tag.txt"
  "$CAUSEWAY" trace --tag --tag-interval 10ms -o "$OUT/run" -- $MPIRUN -np 2 "$MICRO" pingpong 200000 \
    | per >> "$OUT/pp-read.txt"
  i=$((i + 1))
done
SNAPSHOTS=$(ls "$OUT/run/tag/snapshots" | wc -l)
for what in test pp; do
  for f in plain tag read; do
    eval "${what}_${f}=$(fastest < "$OUT/$what-$f.txt")"
    eval "${what}_${f}_m=$(median < "$OUT/$what-$f.txt")"
  done
done
awk -v tp="$test_plain" -v tt="$test_tag" -v tr="$test_read" -v tpm="$test_plain_m" \
    -v ttm="$test_tag_m" -v trm="$test_read_m" -v pp="$pp_plain" -v pt="$pp_tag" -v pr="$pp_read" \
    -v ppm="$pp_plain_m" -v ptm="$pp_tag_m" -v prm="$pp_read_m" -v r="$RUNS" -v s="$SNAPSHOTS" 'BEGIN {
  printf "Online task activity graphs, 2 ranks; fastest (median) of %d runs\n", r
  printf "  MPI_Test(MPI_REQUEST_NULL)      %7.1f ns (%.1f) plain, %7.1f ns (%.1f) --tag: %.0f ns per call\n", tp, tpm, tt, ttm, tt - tp
  printf "    with a snapshot every 10 ms   %7.1f ns (%.1f): %.0f ns per call (%d snapshots in the last run)\n", tr, trm, tr - tp, s
  printf "  8-byte ping-pong round trip     %7.1f ns (%.1f) plain, %7.1f ns (%.1f) --tag: %.0f ns per message\n", pp, ppm, pt, ptm, (pt - pp) / 2
  printf "    with a snapshot every 10 ms   %7.1f ns (%.1f): %.0f ns per message\n", pr, prm, (pr - pp) / 2
}'

# --- 2. the update routine
"$BUILD/bench/tag-writer-bench" 20000000

# --- 3. LAMMPS
EXAMPLE=/usr/share/lammps/examples/melt/in.melt
if [ -x /usr/bin/lmp ] && [ -f "$EXAMPLE" ]; then
  sed 's/^run[[:space:]].*/run 1250/' "$EXAMPLE" > "$OUT/in.melt"
  : > "$OUT/lmp-plain.txt"; : > "$OUT/lmp-tag.txt"; : > "$OUT/lmp-tool.txt"
  i=0
  while [ "$i" -lt "$RUNS" ]; do
    (cd "$OUT" && /usr/bin/time -f "%e" -o "$OUT/t" $MPIRUN -np "$LAMMPS_RANKS" lmp -in in.melt -log none -screen none)
    cat "$OUT/t" >> "$OUT/lmp-plain.txt"
    (cd "$OUT" && "$CAUSEWAY" trace --tag -o "$OUT/lmp" -- \
      $MPIRUN -np "$LAMMPS_RANKS" lmp -in in.melt -log none -screen none) \
      | sed -n 's/.*the command ran \([0-9.]*\) s.*/\1/p' >> "$OUT/lmp-tag.txt"
    /usr/bin/python3 -c "
import json
t = json.load(open('$OUT/lmp/tag.json'))
print(max(p['tool_time'] / p['total_time'] for p in t['processes']))" >> "$OUT/lmp-tool.txt"
    i=$((i + 1))
  done
  CALLS=$(/usr/bin/python3 -c "
import json
t = json.load(open('$OUT/lmp/tag.json'))
print(sum(n['count'] for n in t['processes'][0]['nodes'] if n['kind'] == 'mpi'))")
  awk -v p="$(median < "$OUT/lmp-plain.txt")" -v t="$(median < "$OUT/lmp-tag.txt")" \
      -v pf="$(fastest < "$OUT/lmp-plain.txt")" -v tf="$(fastest < "$OUT/lmp-tag.txt")" \
      -v n="$LAMMPS_RANKS" -v r="$RUNS" -v c="$CALLS" -v tool="$(median < "$OUT/lmp-tool.txt")" 'BEGIN {
    printf "LAMMPS melt (1250 steps), %d ranks, %d MPI calls per rank; median (fastest) of %d runs\n", n, c, r
    printf "  plain %.2f s (%.2f), --tag %.2f s (%.2f): overhead %.1f %% (fastest %.1f %%)\n", p, pf, t, tf, 100 * (t - p) / p, 100 * (tf - pf) / pf
    printf "  the tool'"'"'s own time in the busiest rank: %.2f %% of its run (median of the runs)\n", 100 * tool
  }'
fi

# --- 4. sizes
printf "wavesend (1000 steps) recorded online\n"
printf "  ranks  segment/rank  tag.json/rank  classes  clusters.graphml  ptag.graphml\n"
for ranks in 4 8 16 32; do
  "$CAUSEWAY" trace --tag -o "$OUT/wave$ranks" -- $MPIRUN -np "$ranks" "$WAVE" 1000 2000 > /dev/null
  /usr/bin/python3 - "$OUT/wave$ranks" "$ranks" <<'PY'
import json, os, sys
d, ranks = sys.argv[1], int(sys.argv[2])
t = json.load(open(d + '/tag.json'))
p = t['processes']
segment = sum(x['segment_bytes'] for x in p) / len(p)
per_rank = sum(len(json.dumps(x)) for x in p) / len(p)
print('  %5d  %12.0f  %13.0f  %7d  %16d  %12d' % (
    ranks, segment, per_rank, len(t['clusters']), os.path.getsize(d + '/clusters.graphml'),
    os.path.getsize(d + '/ptag.graphml')))
PY
done
