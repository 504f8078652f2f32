// How much memory analysing a trace takes, estimated from its definitions before any event is
// read, so that `--memory-limit` can refuse a trace instead of running out of memory halfway.
//
// The analysis holds every event of the locations it owns (columns, call paths, matched
// payloads) plus per-location and fixed costs. The constants are measured peaks of `causeway
// analyze` (docs/performance.md, "Memory estimate"): the estimate is meant to lie a little above
// the measured peak, never far below it.
//
//   uint64_t need = EstimateAnalysisBytes(defs, all_locations, /*root_causes=*/true);
//   uint32_t k = RanksNeeded(defs, limit, true);   // 0: not even one location per rank fits
#pragma once

#include <cstdint>
#include <span>

#include "trace/definitions.h"

namespace cw::analysis {

struct MemoryModel {
  uint64_t fixed = 32ull << 20;          // the program, definitions, report
  uint64_t per_location = 256ull << 10;  // reader buffers and per-location tables
  uint64_t per_event = 48;               // with delay and critical-path analysis
  uint64_t per_event_wait_states = 33;   // --wait-states-only
  // The first rank of an MPI job, per location of the whole trace: it streams every location
  // once more (the ideal-network replay of the POP efficiencies) and holds every location's
  // results.
  uint64_t first_rank_per_location = 2560ull << 10;
  uint64_t mpi_per_rank = 48ull << 20;  // each rank of a job: the MPI library, exchange buffers
};

// The peak memory of one analysis process that owns `locations`.
uint64_t EstimateAnalysisBytes(const trace::Definitions& defs, std::span<const uint32_t> locations,
                               bool root_causes, const MemoryModel& model = {});

// The peak of the heaviest process when the trace is analysed by `ranks` MPI ranks, each owning
// its share of trace::PartitionLocations (and the first carrying its extra costs when ranks > 1).
uint64_t EstimatePerRankBytes(const trace::Definitions& defs, uint32_t ranks, bool root_causes,
                              const MemoryModel& model = {});

// The fewest MPI ranks with which no process needs more than `limit`; 0 if no rank count up to
// one location per rank is enough.
uint32_t RanksNeeded(const trace::Definitions& defs, uint64_t limit, bool root_causes,
                     const MemoryModel& model = {});

}  // namespace cw::analysis
