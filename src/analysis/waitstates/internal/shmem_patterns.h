// OpenSHMEM wait states that pair the records of different PEs (private). Barriers and
// collectives are evaluated with the other collectives (collective_patterns.h); this pass adds
//   - Lock Contention: shmem_set_lock waits from its Enter until the PE that held the lock
//     before it entered shmem_clear_lock (the holders of a lock are the PEs that acquired it,
//     in the order of their acquisitions);
//   - Wait on Value: shmem_wait_until (or shmem_wait) waits from its Enter until the PE whose
//     transfer changed the value issued it: that transfer is the latest put or writing atomic
//     to the waiting PE, on the symmetric heap, that completed before the wait ended.
// Both are followed by the root-cause analyses (WaitStateOptions::one_sided_sync): their edges
// lead from the waiting call to the releasing or transferring call.
#pragma once

#include <vector>

#include "analysis/waitstates/internal/context.h"

namespace cw::analysis::internal {

struct ShmemWait {
  MetricId metric = MetricId::kShmemLockContention;
  uint32_t callpath = trace::kNone;
  uint64_t entered = 0;                   // Enter of the waiting call
  int64_t value = 0;                      // ticks, > 0
  uint32_t waiter_event = trace::kNone;   // the Enter of the waiting call
  uint32_t partner = trace::kNone;        // the location waited for
  uint32_t partner_event = trace::kNone;  // the Enter of its releasing or transferring call
};

// The waits of every location, indexed by location (empty when the trace has no OpenSHMEM
// window); distributed, of the rank's own locations.
std::vector<std::vector<ShmemWait>> EvaluateShmemWaits(const Context& ctx, unsigned threads);

// Charges one location's waits to their call paths (and records them as edges).
void ApplyShmemWaits(const Context& ctx, const std::vector<ShmemWait>& waits, uint32_t location,
                     LocationOutput& out);

}  // namespace cw::analysis::internal
