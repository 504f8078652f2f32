#!/bin/sh
# The tracer's cost per OpenSHMEM call (docs/performance.md records its figures).
#
#   bench/run_shmem_tracer_benchmark.sh [BUILD_DIR] [RUNS] [CALLS]
#
# Runs shmem-microbench on 2 PEs RUNS times without and with `causeway trace` (alternating, so
# that machine noise hits both alike): each PE calls shmem_my_pe CALLS times (two recorded
# events: Enter and Leave) and shmem_int_p CALLS times (four: Enter, RmaPut, its completion,
# Leave). Prints the time per call of each and the difference per recorded event. The fastest
# run is the primary figure (noise only adds time); medians beside.
set -eu
. "$(dirname "$0")/common.sh"

BUILD=${1:-build}
RUNS=${2:-5}
CALLS=${3:-1000000}
DATA=${CW_BENCH_DATA:-$BUILD/bench-data}
PROGRAM=$BUILD/bench/shmem-microbench
OSHRUN="$(launcher oshrun) -np 2"
# Debian's Open MPI 4.1 crashes in shmem_finalize while its memory patcher is on.
export OMPI_MCA_memory=^patcher
mkdir -p "$DATA"


for f in plain_pe traced_pe plain_p traced_p; do : > "$DATA/shmem_$f.txt"; done
i=0
while [ "$i" -lt "$RUNS" ]; do
  $OSHRUN "$PROGRAM" "$CALLS" > "$DATA/shmem_plain.out"
  "$BUILD/bin/causeway" trace -o "$DATA/shmem-trace" -- $OSHRUN "$PROGRAM" "$CALLS" \
    > "$DATA/shmem_traced.out"
  awk '/per shmem_my_pe/ {print $1}' "$DATA/shmem_plain.out" >> "$DATA/shmem_plain_pe.txt"
  awk '/per shmem_int_p/ {print $1}' "$DATA/shmem_plain.out" >> "$DATA/shmem_plain_p.txt"
  awk '/per shmem_my_pe/ {print $1}' "$DATA/shmem_traced.out" >> "$DATA/shmem_traced_pe.txt"
  awk '/per shmem_int_p/ {print $1}' "$DATA/shmem_traced.out" >> "$DATA/shmem_traced_p.txt"
  i=$((i + 1))
done
for f in plain_pe traced_pe plain_p traced_p; do
  eval "F_$f=\$(fastest < \"$DATA/shmem_$f.txt\")"
  eval "M_$f=\$(median < \"$DATA/shmem_$f.txt\")"
done
awk -v c="$CALLS" -v r="$RUNS" \
  -v pe="$F_plain_pe" -v pem="$M_plain_pe" -v tpe="$F_traced_pe" -v tpem="$M_traced_pe" \
  -v p="$F_plain_p" -v pm="$M_plain_p" -v tp="$F_traced_p" -v tpm="$M_traced_p" 'BEGIN {
  printf "%d calls of each per PE, 2 PEs; fastest (median) of %d runs, ns per call\n", c, r
  printf "  shmem_my_pe  without tracing %8.2f (%.2f), traced %8.2f (%.2f)\n", pe, pem, tpe, tpem
  printf "  shmem_int_p  without tracing %8.2f (%.2f), traced %8.2f (%.2f)\n", p, pm, tp, tpm
  printf "cost per recorded event: shmem_my_pe (2 events) %.1f ns (median %.1f); shmem_int_p (4 events) %.1f ns (median %.1f)\n", (tpe - pe) / 2, (tpem - pem) / 2, (tp - p) / 4, (tpm - pm) / 4
}'
