#!/bin/sh
# What a stack walk costs with each unwinder on this system (docs/performance.md records its
# figures): libunwind's unw_backtrace (what the tracer walks with), glibc's backtrace() (libgcc's
# unwinder) and, as the floor no unwinder can go below, the chain of saved frame pointers, which
# Debian's programs do not keep. Each walks a stack DEPTH functions deep with the caches warm,
# after a computation that evicted the core's L1 and L2 caches (4 MiB streamed, as a numerical
# kernel between two MPI calls does), and after one that evicted the L3 cache too (64 MiB).
#
#   bench/run_unwinder_benchmark.sh [BUILD_DIR] [WALKS]
#
# Prints, for depths 20 and 100, the fastest and the median walk of WALKS per unwinder and
# cache state (300 at most after the 64 MiB computation, which takes milliseconds each).
set -eu

BUILD=${1:-build}
WALKS=${2:-2000}
PROGRAM=$BUILD/bench/unwinder-bench
[ -x "$PROGRAM" ] || { echo "no $PROGRAM: build the benchmarks first" >&2; exit 1; }
for depth in 20 100; do
  "$PROGRAM" "$depth" "$WALKS"
done
