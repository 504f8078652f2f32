#!/bin/sh
# The tracer's overhead on a real application (docs/performance.md records its figures).
#
#   bench/run_application_benchmark.sh [BUILD_DIR] [RUNS] [RANKS]
#
# Runs LAMMPS (Debian's package) on its bundled Lennard-Jones melt example, RUNS times without
# and RUNS times with `causeway trace`, alternating so that machine noise hits both alike, and
# prints the wall time of each (median, fastest), the overhead of the medians, and the events
# recorded per second. RANKS defaults to the number of CPUs: oversubscribed ranks spin in MPI
# calls and make the runtime mostly noise.
set -eu
. "$(dirname "$0")/common.sh"

BUILD=${1:-build}
RUNS=${2:-5}
RANKS=${3:-$(nproc)}
EXAMPLE=/usr/share/lammps/examples/melt/in.melt
if [ ! -x /usr/bin/lmp ] || [ ! -f "$EXAMPLE" ]; then
  echo "needs Debian's lammps and lammps-examples (scripts/install-deps.sh installs them)" >&2
  exit 1
fi
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
# The melt example with 5 times as many steps, so that start-up is a small part of the run.
sed 's/^run[[:space:]].*/run 1250/' "$EXAMPLE" > "$WORK/in.melt"
MPIRUN="$(launcher mpirun) -np $RANKS"
CAUSEWAY=$(cd "$BUILD" && pwd)/bin/causeway

: > "$WORK/plain.txt"; : > "$WORK/traced.txt"
i=0
cd "$WORK"
while [ "$i" -lt "$RUNS" ]; do
  /usr/bin/time -f "%e" -o "$WORK/t" $MPIRUN lmp -in in.melt -log none -screen none
  cat "$WORK/t" >> "$WORK/plain.txt"
  /usr/bin/time -f "%e" -o "$WORK/t" "$CAUSEWAY" trace -o "$WORK/trace" -- \
    $MPIRUN lmp -in in.melt -log none -screen none 2> "$WORK/trace.out"
  cat "$WORK/t" >> "$WORK/traced.txt"
  i=$((i + 1))
done
EVENTS=$(sed -n 's/.* ranks, \([0-9]*\) events.*/\1/p' "$WORK/trace.out")
P=$(median < "$WORK/plain.txt"); PF=$(fastest < "$WORK/plain.txt")
T=$(median < "$WORK/traced.txt"); TF=$(fastest < "$WORK/traced.txt")
awk -v p="$P" -v pf="$PF" -v t="$T" -v tf="$TF" -v e="$EVENTS" -v r="$RUNS" -v n="$RANKS" 'BEGIN {
  printf "LAMMPS melt (1250 steps), %d ranks; median (fastest) of %d runs\n", n, r
  printf "  without tracing   %7.2f s (%.2f)\n", p, pf
  printf "  causeway trace    %7.2f s (%.2f), %d events, including writing OTF2\n", t, tf, e
  printf "overhead: %.1f %% of the median runtime (fastest: %.1f %%)\n", 100 * (t - p) / p, 100 * (tf - pf) / pf
}'
