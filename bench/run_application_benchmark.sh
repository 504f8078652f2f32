#!/bin/sh
# The tracer's overhead on a real application (docs/performance.md records its figures).
#
#   [MODES="sampled calls none"] bench/run_application_benchmark.sh [BUILD_DIR] [RUNS] [RANKS] [APP]
#
# APP is one of Debian's packages, on a small input of ours:
#   lammps  LAMMPS, its bundled Lennard-Jones melt example with 1250 steps (the default)
#   qe      Quantum ESPRESSO's pw.x, an SCF of 8 silicon atoms (LDA, 40 Ry, 5x5x5 k-points)
#   cp2k    CP2K's cp2k.popt, the energy of 8 water molecules (Quickstep, PBE, DZVP-MOLOPT)
# Runs it RUNS times without and RUNS times with `causeway trace` in each call-path mode of
# MODES (default "sampled calls none": --callpaths), alternating so that machine noise hits all
# alike, and prints the wall time of each (median, fastest), the overhead of the medians and the
# median of each round's overhead against that round's untraced run, the events recorded, and
# whether the traced runs printed the same result (QE's and CP2K's total energy). The mode
# `untraced` in MODES runs the command untraced once more in each round: its "overhead" against
# the round's first untraced run is the noise floor of the series (what the machine alone moves
# a median of paired runs by). RANKS
# defaults to the number of CPUs: oversubscribed ranks spin in MPI calls and make the runtime
# mostly noise.
set -eu
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/applications.sh"

BUILD=${1:-build}
RUNS=${2:-5}
RANKS=${3:-$(nproc)}
APP=${4:-lammps}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export OMP_NUM_THREADS=1

application_input "$APP" "$WORK"

MPIRUN="$(launcher mpirun) -np $RANKS"
CAUSEWAY=$(cd "$BUILD" && pwd)/bin/causeway
MODES=${MODES:-sampled calls none}
: > "$WORK/plain.txt"
for mode in $MODES; do : > "$WORK/traced-$mode.txt"; done
# One run of the command: without tracing (plain) or traced in a call-path mode; its wall time is
# appended to plain.txt or traced-MODE.txt, one line a round.
run_once() {
  if [ "$1" = plain ]; then
    /usr/bin/time -f "%e" -o "$WORK/t" $MPIRUN $CMD > plain.out 2>&1
    cat "$WORK/t" >> "$WORK/plain.txt"
  elif [ "$1" = untraced ]; then
    /usr/bin/time -f "%e" -o "$WORK/t" $MPIRUN $CMD > traced-untraced.out 2>&1
    : > trace-untraced.out
    cat "$WORK/t" >> "$WORK/traced-untraced.txt"
  else
    /usr/bin/time -f "%e" -o "$WORK/t" "$CAUSEWAY" trace --callpaths "$1" -o "$WORK/trace" -- \
      $MPIRUN $CMD > "traced-$1.out" 2> "trace-$1.out"
    cat "$WORK/t" >> "$WORK/traced-$1.txt"
  fi
}
cd "$WORK"
alternating_rounds "$RUNS" $MODES
P=$(median < "$WORK/plain.txt"); PF=$(fastest < "$WORK/plain.txt")
awk -v p="$P" -v pf="$PF" -v r="$RUNS" -v n="$RANKS" -v name="$NAME" 'BEGIN {
  printf "%s, %d ranks; median (fastest) of %d runs\n", name, n, r
  printf "  without tracing                %7.2f s (%.2f)\n", p, pf
}'
for mode in $MODES; do
  EVENTS=$(sed -n 's/.* ranks, \([0-9]*\) events.*/\1/p' "trace-$mode.out")
  SAMPLES=$(sed -n 's/.* \([0-9]*\) stack samples.*/\1/p' "trace-$mode.out")
  SAME="not compared (the program prints no result line)"
  if [ -n "$RESULT" ]; then
    if [ "$(grep -- "$RESULT" plain.out)" = "$(grep -- "$RESULT" "traced-$mode.out")" ] &&
      grep -q -- "$RESULT" plain.out; then
      SAME="yes: $(grep -- "$RESULT" plain.out | tail -1 | tr -s ' ')"
    else
      SAME="NO"
    fi
  fi
  T=$(median < "$WORK/traced-$mode.txt"); TF=$(fastest < "$WORK/traced-$mode.txt")
  # Each round's overhead against that round's untraced run; their median.
  paired_overheads "$WORK/plain.txt" "$WORK/traced-$mode.txt"
  awk -v p="$P" -v pf="$PF" -v t="$T" -v tf="$TF" -v e="$EVENTS" -v s="${SAMPLES:-0}" \
    -v mode="$mode" -v same="$SAME" -v paired="$PAIRED" -v lo="$LO" -v hi="$HI" 'BEGIN {
    if (mode == "untraced") printf "  untraced again         %7.2f s (%.2f), the noise floor\n", t, tf
    else printf "  --callpaths %-8s %7.2f s (%.2f), %d events, %d samples, including writing OTF2\n", mode, t, tf, e, s
    printf "    overhead: %.1f %% of the median runtime (fastest: %.1f %%; median of the rounds: %.1f %%, rounds %.1f to %.1f %%); same result: %s\n", 100 * (t - p) / p, 100 * (tf - pf) / pf, paired, lo, hi, same
  }'
done
