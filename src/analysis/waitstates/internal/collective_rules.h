// The wait-state rules of each kind of collective operation (private): from the members' times
// and bytes, who waited for whom, how long, and whether they synchronised. Barriers, N x N,
// 1-to-N, N-to-1 and prefix operations as Scalasca measures them; v-collectives that name their
// senders as causeway's tracer records them; non-blocking collectives, waiting in the calls that
// complete them; RMA and OpenSHMEM collectives on windows.
// collective_patterns.cc finds the instances, evaluates them here and charges the outcomes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/waitstates/internal/collective_patterns.h"
#include "analysis/waitstates/internal/context.h"
#include "trace/enums.h"

namespace cw::analysis::internal {

// One member of an instance, from its CollectiveMember: what the rules read.
// A non-blocking member (CollectiveInstance::non_blocking) waits in the call that completed it,
// for others to start it: `begin` is that call's Enter, `started` and `start_event` the call
// that started it. A blocking member starts and waits in one call.
struct MemberTimes {
  int64_t begin;  // the Enter of its call
  int64_t end;
  uint64_t sent;
  uint64_t received;
  uint32_t location;
  uint32_t end_event;
  uint32_t senders;      // CollectiveMember::senders
  int64_t started;       // when it entered the call that started it: `begin` if blocking
  uint32_t start_event;  // in that call, where others wait for it: `end_event` if blocking
};

// An instance on a communicator; `root` indexes `m` (m.size() if it has none). Fills out[i] for
// each member.
void EvaluateCommInstance(const Context& ctx, const std::vector<MemberTimes>& m,
                          trace::CollectiveOp op, size_t root, MemberOutcome* out);

// A non-blocking collective's instance (Wait for Senders, causeway's semantics only).
void EvaluateNonBlockingInstance(const Context& ctx, const std::vector<MemberTimes>& m,
                                 trace::CollectiveOp op, size_t root, MemberOutcome* out);

// An instance on a window: OpenSHMEM's barriers and collectives (`shmem`), or MPI's RMA
// collectives.
void EvaluateWindowInstance(const std::vector<MemberTimes>& m, trace::CollectiveOp op, bool shmem,
                            size_t root, MemberOutcome* out);

// The synchronisation pattern a wait metric stands for (the root-cause analyses' view).
SyncPattern PatternOf(MetricId wait_metric);

}  // namespace cw::analysis::internal
