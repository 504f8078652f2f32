// Barrier redundancy (PPW §5.2.3): a barrier instance is redundant when none of its members
// communicated (a point-to-point or one-sided transfer) since its previous synchronisation (a
// collective operation, else the end of MPI_Init, else its first event): barriers order memory
// accesses, and with nothing to order this one only makes processes wait. A barrier call path
// all of whose instances are redundant becomes a `redundant_barrier` finding. MPI barriers and
// OpenSHMEM barriers count; MPI fences, which complete one-sided transfers, do not.
//
// A barrier orders more than transfers, and some of it a trace cannot show (UnseenDependency):
// in an OpenSHMEM program local stores into symmetric memory that other PEs get afterwards,
// shmem_ptr accesses and the reuse of pSync arrays; in an MPI program with windows, local
// stores into a window and a shared-memory window's loads and stores; file I/O before it that
// others may read after it. Where any of these may be (the program has such memory, or a member
// did file I/O since its previous synchronisation), the finding is `possibly_redundant_barrier`,
// with what would have to be checked; only without any is it `redundant_barrier`, which the
// replay removes to predict its saving.
#pragma once

#include <vector>

#include "analysis/advice/advice_types.h"
#include "analysis/advice/load_balance.h"

namespace cw::analysis {

// Appends its findings to `findings`.
// One member of a barrier, as the analysis rank holding its location sees it.
struct BarrierMember {
  uint64_t instance = 0;  // its CollectiveInstance::origin, the same on every rank
  uint32_t position = 0;  // the member's rank in the communicator
  uint32_t location = trace::kNone;
  uint32_t callpath = trace::kNone;  // of its call; kNone if the call is not whole
  uint64_t time = 0;                 // ticks in the call
  bool communicated = false;         // sent, received or transferred since its last collective
  bool file_io = false;              // did file I/O since its last collective
};

// The barrier members of the locations whose events `in.trace` holds (every location in one
// process, a rank's own in an MPI analysis job).
std::vector<BarrierMember> ShareBarrierMembers(const GlobalInput& in);
// The redundant barriers from every rank's members; appends the findings of those that take
// more than the hotspot share of all time to `findings`.
std::vector<RedundantBarrier> FinishRedundantBarriers(std::vector<BarrierMember> members,
                                                      const GlobalInput& in,
                                                      const AdviceParameters& p,
                                                      std::vector<AdviceFinding>& findings);

}  // namespace cw::analysis
