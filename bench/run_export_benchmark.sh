#!/bin/sh
# Writing a traced run's OTF2 archive after the command (docs/performance.md): the ranks' event
# files exported on one thread and on all CPUs, alternating.
#
#   bench/run_export_benchmark.sh [BUILD_DIR] [RUNS] [RANKS] [APP]
#
# Traces APP (applications.sh: lammps, qe or cp2k; default qe) once on RANKS ranks (default 4)
# with `causeway trace --keep-raw`, then runs export-bench on its raw files RUNS times (default
# 5) each way and prints the fastest and median times.
set -eu
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/applications.sh"

BUILD=${1:-build}
RUNS=${2:-5}
RANKS=${3:-4}
APP=${4:-qe}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
export OMP_NUM_THREADS=1

application_input "$APP" "$WORK"
BUILD=$(cd "$BUILD" && pwd)
cd "$WORK"
"$BUILD/bin/causeway" trace --keep-raw -o "$WORK/trace" -- $(launcher mpirun) -np "$RANKS" $CMD \
  > program.out 2> trace.out
echo "$NAME, $RANKS ranks, traced with the defaults:"
"$BUILD/bench/export-bench" "$WORK/trace" "$RUNS"  # on the CPUs it may use (not nproc: it obeys OMP_NUM_THREADS)
