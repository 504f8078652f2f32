#!/bin/sh
# Runs a fuzz target: every input of its corpus (tests/fuzz/CORPUS, default corpus) and every
# kept crash reproducer (tests/fuzz/CRASHES, default crashes) once, as a regression test, then
# SECONDS of fuzzing. New inputs go to a scratch directory, so a run never changes the
# repository; a crash is written to $FUZZ_ARTIFACTS (default: a scratch directory) and fails
# the run.
#   tests/fuzz/run.sh build-fuzz/bin/read_trace_fuzzer 60
#   tests/fuzz/run.sh build-fuzz/bin/export_raw_fuzzer 60 raw_corpus raw_crashes
set -eu
fuzzer=$1
seconds=${2:-60}
corpus=${3:-corpus}
crashes=${4:-crashes}
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/causeway-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
artifacts=${FUZZ_ARTIFACTS:-$scratch/artifacts}
mkdir -p "$artifacts" "$scratch/new"
# Leaks inside libotf2's error paths are not causeway's. A damaged record can make libotf2 ask
# malloc for gigabytes (an array count of 2^32 - 1) before it finds the record short: outside
# the sanitizer that is address space, never touched, or, under `ulimit -v`, a NULL the library
# reports as an error. Here such requests get NULL (max_allocation_size_mb; ASan would otherwise
# write gigabytes of shadow memory for them), libFuzzer does not count them as out-of-memory
# (-malloc_limit_mb far above), and the memory actually used is what is bounded (-rss_limit_mb).
export ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1:max_allocation_size_mb=4096
flags="-timeout=20 -rss_limit_mb=2560 -malloc_limit_mb=65536 -artifact_prefix=$artifacts/"
# Every input of the corpus and every reproducer runs once when the fuzzer starts (a crash among
# them fails the run like a new one), then it mutates them for SECONDS.
# shellcheck disable=SC2086
"$fuzzer" $flags -max_total_time="$seconds" -print_final_stats=1 "$scratch/new" "$here/$corpus" \
  "$here/$crashes" 2>"$scratch/fuzz.log" || { tail -60 "$scratch/fuzz.log"; exit 1; }
echo "fuzz ($(basename "$fuzzer")): $(ls "$here/$corpus" | wc -l) corpus inputs and $(ls "$here/$crashes" | grep -vc README) crash reproducers replayed and mutated for ${seconds} s in all, without a crash"
grep -E "stat::number_of_executed_units|stat::new_units_added" "$scratch/fuzz.log" | tr -s ' \n' ' '
echo
