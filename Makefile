# causeway — top-level entry points. `make demo` and `make test` work on a fresh Debian 12
# machine: they install what is missing (scripts/install-deps.sh), configure, build and run.

BUILD      ?= build
ASAN_BUILD ?= build-asan
FUZZ_BUILD ?= build-fuzz
TSAN_BUILD ?= build-tsan
FUZZ_SECONDS ?= 90
JOBS       ?= $(shell nproc)
CMAKE_ARGS ?=

.PHONY: all deps configure build test test-release asan-build test-asan fuzz demo bench clean format \
	format-check tidy test-tsan

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release -DCW_WERROR=ON $(CMAKE_ARGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j $(JOBS)

# The formatting check, every test in a release build, every test again under AddressSanitizer
# and UndefinedBehaviorSanitizer (with the fuzz corpus and its crash reproducers: the
# FuzzCorpusTest shards), the naming check (over that build's unity files), and the tests of
# concurrent code under ThreadSanitizer. Finding new fuzz inputs is `make fuzz`, not part of the test.
test: format-check test-release test-asan tidy test-tsan

test-release: build
	@ctest --test-dir $(BUILD) --output-on-failure -j $(JOBS) --timeout 600

# Two labels run in the release build only. `browser`: the tests that load pages in a headless
# browser; their time is the browser's, and every `causeway analyze`, `tag` and `compare` of the
# sanitized tests still writes its page. `slow`: sweeps of tens of seconds under the sanitizers
# (every real trace on one to four ranks, 30,000-deep traces, thousands of flushes) whose code a
# quicker test runs there too (tests/CMakeLists.txt, SLOW).
asan-build: deps
	@cmake -S . -B $(ASAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCW_WERROR=ON \
	  -DCW_SANITIZE=ON -DCW_BUILD_BENCHMARKS=OFF $(CMAKE_ARGS) >/dev/null
	@cmake --build $(ASAN_BUILD) -j $(JOBS)

test-asan: asan-build
	@ctest --test-dir $(ASAN_BUILD) --output-on-failure -j $(JOBS) --timeout 900 -LE 'browser|slow'

# ThreadSanitizer over the tests of concurrent code: the worker pool (base), the replay passes'
# workers (replay), the what-if replay (sim), the task activity graph segments (tag_segment),
# the tracer's export of ranks in parallel (raw_export_test's RanksWrittenInParallel...), and
# the whole analysis on real traces in one process and as jobs of in-process ranks on
# threads (distributed_test's JobAnalysisTest: every analysis's ParallelFor and the ranks'
# exchanges). Only these tests are built (build and runs: about 6 minutes on 2 cores). Left out: the
# test of a reader racing a segment's writer, whose race is the sequence lock's design
# (suppressed, tests/tsan.supp) and which under ThreadSanitizer's slowed copies cannot keep the
# ten consistent copies it asks for.
TSAN_RUNS = base_test:* replay_test:* sim_test:* \
  tag_segment_test:-TagSegmentTest.AReaderRacingTheWriterOnlySeesConsistentGraphs \
  distributed_test:JobAnalysisTest.* raw_export_test:RawExportTest.RanksWrittenInParallel*
test-tsan: deps
	@cmake -S . -B $(TSAN_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCW_WERROR=ON \
	  -DCW_TSAN=ON -DCW_BUILD_BENCHMARKS=OFF $(CMAKE_ARGS) >/dev/null
	@cmake --build $(TSAN_BUILD) -j $(JOBS) --target $(foreach r,$(TSAN_RUNS),$(firstword $(subst :, ,$(r))))
	@for run in $(TSAN_RUNS); do \
	  t=$${run%%:*}; filter=$${run#*:}; \
	  TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$(CURDIR)/tests/tsan.supp" \
	    $(TSAN_BUILD)/tests/$$t --gtest_brief=1 --gtest_filter="$$filter" || exit 1; \
	done; echo "test-tsan: clean under ThreadSanitizer"

# The libFuzzer targets (clang, ASan and UBSan; tests/fuzz/README.md), the reader's and then the
# raw export's: every input of the target's corpus and every kept crash reproducer once, then new
# inputs until FUZZ_SECONDS in all (kept in a scratch corpus, not in the repository). `make fuzz
# FUZZ_SECONDS=3600` is the long run.
fuzz: deps
	@CC=clang CXX=clang++ cmake -S . -B $(FUZZ_BUILD) -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	  -DCW_FUZZ=ON -DCW_BUILD_TESTS=OFF -DCW_BUILD_BENCHMARKS=OFF $(CMAKE_ARGS) >/dev/null
	@cmake --build $(FUZZ_BUILD) -j $(JOBS) --target read_trace_fuzzer export_raw_fuzzer
	@tests/fuzz/run.sh $(FUZZ_BUILD)/bin/read_trace_fuzzer $(FUZZ_SECONDS)
	@tests/fuzz/run.sh $(FUZZ_BUILD)/bin/export_raw_fuzzer $(FUZZ_SECONDS) raw_corpus raw_crashes

# Open MPI refuses to run as root unless told to.
MPIRUN_FLAGS ?= --oversubscribe $(if $(filter 0,$(shell id -u)),--allow-run-as-root,)

# Traces a bundled MPI program (a Late Sender on 2 ranks), analyses it, prints the summary.
# Builds only what that needs (the tool, the tracer library and the program), not the tests.
demo: configure
	@start=$$(date +%s); \
	  cmake --build $(BUILD) -j $(JOBS) --target causeway causeway-mpi late_sender && \
	  echo "built the tool, the tracer and the demo program in $$(( $$(date +%s) - start )) s"
	@$(BUILD)/bin/causeway trace -o $(BUILD)/demo/trace -- mpirun $(MPIRUN_FLAGS) -np 2 $(BUILD)/tests/programs/late_sender
	@$(BUILD)/bin/causeway analyze $(BUILD)/demo/trace -o $(BUILD)/demo/report

# The benchmark of bench/README.md (generates a 20-million-event trace; takes minutes).
bench: build
	@bench/run_benchmark.sh $(BUILD)

# The C++ sources as .clang-format says (clang-format 14, Debian 12's); `make test` fails on
# any difference, `make format` rewrites them (new files not yet added to git among them).
format:
	@clang-format -i $$(git ls-files --cached --others --exclude-standard '*.cc' '*.h')

format-check: deps
	@clang-format --dry-run --Werror $$(git ls-files '*.cc' '*.h') && \
	  echo "format-check: every C++ source as .clang-format says"

# The naming of .clang-tidy (clang-tidy 14's readability-identifier-naming) over every source
# of src/ and the headers they include, any finding fails. It reads the sanitizer build's unity
# files (tools/tidy_sources.py lists them and fails if one of src/'s sources is in none): each
# checks every source it includes and parses their common headers once, 1.5 minutes instead of
# 4.5 for the sources one by one. That build's generated headers must exist: after asan-build.
tidy: asan-build
	@units=$$(tools/tidy_sources.py $(ASAN_BUILD)) && \
	  echo "$$units" | xargs -P $(JOBS) -n 4 clang-tidy -p $(ASAN_BUILD) --quiet 2>/dev/null && \
	  echo "tidy: every name as .clang-tidy says ($$(echo "$$units" | wc -l) unity files)"

clean:
	rm -rf $(BUILD) $(ASAN_BUILD) $(FUZZ_BUILD) $(TSAN_BUILD)
