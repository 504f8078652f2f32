// Who released whom in the measured run's OpenSHMEM synchronisation, for the what-if replay.
//
// A lock hand-over and a wait for a value pair calls of two processes that no record names
// together: the analysis pairs them from all processes' records (trace/one_sided_pairing.h).
// The replay streams each location on its own, so a first pass reads every location once and
// pairs them the same way; the replay then makes the waiting call depend on its partner's call
// (a notification on a channel of their own, as MPI_Win_post notifies MPI_Win_complete):
//   - the k-th lock acquisition of a location waits for the release of the hold before it (the
//     order in which the contenders got each lock stays the measured one);
//   - the k-th shmem_wait_until of a location waits for the write that ended it, from the
//     moment that write was issued.
// Calls are counted per location in event order, by the records they hold.
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "sim/replay.h"

namespace cw::sim::internal {

struct OneSidedPlan {
  // Per location, per ordinal of the record on that location: the partner location, or kNone.
  std::vector<std::vector<uint32_t>> acquire_from;  // AcquireLock: the previous holder
  std::vector<std::vector<uint32_t>> release_to;    // ReleaseLock: the next holder
  std::vector<std::vector<uint32_t>> wait_from;     // WaitChange: the writer that ended it
  std::vector<std::vector<uint32_t>> write_to;      // writes (RmaPut, RmaAtomic sending data):
                                                    // the PE whose wait it ended
  uint64_t handovers = 0;                           // lock hand-overs between locations
  uint64_t value_waits = 0;

  bool empty() const { return handovers == 0 && value_waits == 0; }
};

// Reads every location of `input` once (only if the definitions hold an OpenSHMEM window).
Result<OneSidedPlan> BuildOneSidedPlan(const ReplayInput& input);

// Whether a record on `window` takes part in the plan (OpenSHMEM's windows).
bool IsPlannedWindow(const trace::Definitions& defs, uint32_t window);

}  // namespace cw::sim::internal
