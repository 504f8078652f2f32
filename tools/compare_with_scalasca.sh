#!/bin/sh
# Compares `causeway analyze --semantics scalasca` with Scalasca 2.6 itself on random MPI
# programs (testing/random_mpi_scenario.h), metric by metric and location by location. A
# development check, not a test: Scalasca and CubeLib are not Debian packages
# (../shared/tools/build-reference-tools.sh builds them).
#
#   tools/compare_with_scalasca.sh BUILD PEERS DIR [COUNT] [FIRST_SEED]
#
# BUILD: a causeway build directory (bin/causeway, bin/write_random_traces); PEERS: where
# build-reference-tools.sh installed scalasca-inst/ and cubelib-inst/; DIR: a scratch directory
# for the traces and both tools' reports. Prints one line per trace and a summary.
set -eu
build=$(cd "$1" && pwd)
peers=$(cd "$2" && pwd)
mkdir -p "$3"
dir=$(cd "$3" && pwd)
count=${4:-200}
first=${5:-0}
here=$(cd "$(dirname "$0")" && pwd)
PATH=$peers/scalasca-inst/bin:$peers/cubelib-inst/bin:$PATH
export PATH
spec=$peers/scalasca-inst/share/scalasca/scout.spec
run_as_root=$( [ "$(id -u)" = 0 ] && echo --allow-run-as-root || true)

agree=0
differ=0
"$build/bin/write_random_traces" "$dir" "$count" "$first" > "$dir/traces.txt"
while read -r trace ranks; do
  (
    cd "$trace"
    rm -rf scout.cubex trace.cubex dump.csv causeway
    timeout 300 mpirun $run_as_root --oversubscribe -np "$ranks" scout.mpi traces.otf2 \
      < /dev/null > scout.log 2>&1
    cube_remap2 -r "$spec" -o trace.cubex scout.cubex > /dev/null 2>&1
    cube_dump -m all -x incl -z incl -c roots -s csv2 -o dump.csv trace.cubex > /dev/null 2>&1
    "$build/bin/causeway" analyze traces.otf2 -o causeway --semantics scalasca -q > /dev/null
    python3 "$here/compare_cube_dump.py" dump.csv causeway/report.json > comparison.txt
  ) || { echo "$trace: a tool failed (see $trace/scout.log)"; differ=$((differ + 1)); continue; }
  result=$(tail -1 "$trace/comparison.txt")
  echo "$trace ($ranks ranks): $result"
  case $result in
    *"mismatches 0") agree=$((agree + 1)) ;;
    *) differ=$((differ + 1)) ;;
  esac
done < "$dir/traces.txt"
echo "$agree of $((agree + differ)) traces agree with Scalasca on every metric both compute;" \
  "differences are in $dir/r<seed>/comparison.txt"
