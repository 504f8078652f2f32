#include "analysis/waitstates/internal/collective_rules.h"

#include <algorithm>
#include <limits>

namespace cw::analysis::internal {
namespace {

using trace::CollectiveOp;
using trace::kNone;

constexpr int64_t kNoTime = std::numeric_limits<int64_t>::min();

void SetPartner(MemberOutcome& out, const MemberTimes& partner) {
  out.partner = partner.location;
  out.partner_event = partner.end_event;
}

int64_t Max0(int64_t v) { return v > 0 ? v : 0; }

// idle = max(0, min(latest, end) - begin); completion = max(0, end - max(earliest_end,
// min(latest, end))). `latest` is what the member waited for.
void Outcome(const MemberTimes& m, int64_t latest, int64_t earliest_end, MemberOutcome& out,
             bool with_completion) {
  int64_t bound = std::min(latest, m.end);
  out.wait = static_cast<double>(Max0(bound - m.begin));
  if (with_completion)
    out.completion = static_cast<double>(Max0(m.end - std::max(earliest_end, bound)));
  out.violation = latest > m.end;
}

// The last entry (the first member with it) and the first exit of an instance.
struct Overlap {
  int64_t latest = kNoTime;
  size_t latest_index = 0;
  int64_t earliest_end = std::numeric_limits<int64_t>::max();
};

Overlap FindOverlap(const std::vector<MemberTimes>& m) {
  Overlap o;
  for (size_t i = 0; i < m.size(); ++i) {
    if (m[i].begin > o.latest) {
      o.latest = m[i].begin;
      o.latest_index = i;
    }
    o.earliest_end = std::min(o.earliest_end, m[i].end);
  }
  return o;
}

void Barrier(const std::vector<MemberTimes>& m, MemberOutcome* out) {
  const auto [latest, latest_index, earliest_end] = FindOverlap(m);
  for (size_t i = 0; i < m.size(); ++i) {
    out[i].wait_metric = MetricId::kMpiBarrierWait;
    out[i].completion_metric = MetricId::kMpiBarrierCompletion;
    out[i].synchronised = true;
    SetPartner(out[i], m[latest_index]);
    Outcome(m[i], latest, earliest_end, out[i], true);
  }
}

// N x N: members that move no data do not synchronise. If the operation fully overlaps (the
// first exit is after the last entry) everybody synchronised with the latest entrant; otherwise
// only receivers that entered before the latest sender waited for it.
void AllToAll(const std::vector<MemberTimes>& m, MemberOutcome* out) {
  int64_t latest = kNoTime, earliest_end = std::numeric_limits<int64_t>::max();
  for (const MemberTimes& t : m) {
    latest = std::max(latest, t.begin);
    earliest_end = std::min(earliest_end, t.end);
  }
  std::vector<bool> sync(m.size(), false);
  size_t latest_index = m.size();
  if (earliest_end > latest) {
    for (size_t i = 0; i < m.size(); ++i) {
      if (m[i].begin == latest && latest_index == m.size()) latest_index = i;
      sync[i] = true;
    }
  } else {
    latest = kNoTime;
    for (size_t i = 0; i < m.size(); ++i) {
      if (m[i].sent > 0 && m[i].begin > latest) {
        latest = m[i].begin;
        latest_index = i;
      }
    }
    earliest_end = std::numeric_limits<int64_t>::max();
    for (size_t i = 0; i < m.size(); ++i) {
      sync[i] = (m[i].received > 0 && m[i].begin < latest) || i == latest_index;
      if (sync[i]) earliest_end = std::min(earliest_end, m[i].end);
    }
  }
  for (size_t i = 0; i < m.size(); ++i) {
    out[i].wait_metric = MetricId::kMpiWaitNxn;
    out[i].completion_metric = MetricId::kMpiNxnCompletion;
    if (!sync[i] || (m[i].sent == 0 && m[i].received == 0)) continue;
    out[i].synchronised = true;
    if (latest_index < m.size()) SetPartner(out[i], m[latest_index]);
    Outcome(m[i], latest, earliest_end, out[i], true);
  }
}

// 1-to-N: ranks that receive data wait for the root to enter. Scalasca measures the completion
// of the waiting receivers and of the root from the earliest end of those receivers.
void OneToAll(const std::vector<MemberTimes>& m, size_t root, MemberOutcome* out) {
  if (root >= m.size() || m[root].sent == 0) return;
  int64_t root_begin = m[root].begin;
  int64_t earliest_end = std::numeric_limits<int64_t>::max();
  for (size_t i = 0; i < m.size(); ++i) {
    out[i].wait_metric = MetricId::kMpiLateBroadcast;
    if (i == root || m[i].received == 0 || m[i].begin >= root_begin) continue;
    SetPartner(out[i], m[root]);
    Outcome(m[i], root_begin, 0, out[i], false);
    earliest_end = std::min(earliest_end, m[i].end);
  }
  if (earliest_end == std::numeric_limits<int64_t>::max()) return;  // nobody waited
  for (size_t i = 0; i < m.size(); ++i) {
    if (i != root && out[i].partner == trace::kNone) continue;
    const int64_t bound = std::max(earliest_end, std::min(root_begin, m[i].end));
    out[i].broadcast_completion = Max0(m[i].end - bound);
  }
}

// N-to-1: only the root waits, for the last rank that sends it data.
void AllToOne(const std::vector<MemberTimes>& m, size_t root, MemberOutcome* out) {
  if (root >= m.size() || m[root].received == 0) return;
  int64_t latest = kNoTime;
  size_t latest_index = 0;
  for (size_t i = 0; i < m.size(); ++i) {
    if (m[i].sent > 0 && m[i].begin > latest) {
      latest = m[i].begin;
      latest_index = i;
    }
  }
  out[root].wait_metric = MetricId::kMpiEarlyReduce;
  if (latest == kNoTime || m[root].begin >= latest) return;
  SetPartner(out[root], m[latest_index]);
  Outcome(m[root], latest, 0, out[root], false);
}

// Prefix operations: rank n waits for the latest of ranks 0..n that send data.
void Scan(const std::vector<MemberTimes>& m, MemberOutcome* out) {
  int64_t latest = kNoTime;
  size_t latest_index = 0;
  for (size_t i = 0; i < m.size(); ++i) {
    if (m[i].sent > 0 && m[i].begin > latest) {
      latest = m[i].begin;
      latest_index = i;
    }
    out[i].wait_metric = MetricId::kMpiEarlyScan;
    if (m[i].sent == 0 && m[i].received == 0) continue;
    if (latest == kNoTime || m[i].begin >= latest) continue;
    SetPartner(out[i], m[latest_index]);
    Outcome(m[i], latest, 0, out[i], false);
  }
}

// Wait for Senders (beyond Scalasca): a member i that receives data (`receives(i)`) waits from
// b_i (the Enter of its call; non-blocking, of the call that completed it) for the latest start
// s_k (the Enter of the call that started it) of the other members k that send it data,
// `sends(i, k)`: `max(0, min(latest s_k, e_i) - b_i)`. A member waits for nobody who sends it
// nothing, and it is no synchronisation point (as for Early Reduce, the wait's edge leads to the
// sender it waited for, at the call where that one started).
template <typename Receives, typename Sends>
void WaitForSenders(const std::vector<MemberTimes>& m, Receives receives, Sends sends,
                    MemberOutcome* out) {
  for (size_t i = 0; i < m.size(); ++i) {
    out[i].wait_metric = MetricId::kMpiWaitSenders;
    if (!receives(i)) continue;
    int64_t latest = kNoTime;
    size_t latest_index = m.size();
    for (size_t k = 0; k < m.size(); ++k) {
      if (k == i || m[k].started <= latest || !sends(i, k)) continue;
      latest = m[k].started;
      latest_index = k;
    }
    if (latest_index == m.size() || m[i].begin >= latest) continue;
    out[i].partner = m[latest_index].location;
    out[i].partner_event = m[latest_index].start_event;
    Outcome(m[i], latest, 0, out[i], false);
  }
}

// A v-collective (MPI_Alltoallv/w, Allgatherv, or their non-blocking forms) whose members'
// records name their senders: zero counts make the operation no barrier.
void SenderWaits(const trace::Definitions& defs, const std::vector<MemberTimes>& m,
                 MemberOutcome* out) {
  // Each member's senders, as sorted locations.
  std::vector<std::vector<uint32_t>> senders(m.size());
  for (size_t i = 0; i < m.size(); ++i) {
    if (m[i].senders == kNone) continue;
    senders[i] = defs.GroupLocations(m[i].senders);
    std::sort(senders[i].begin(), senders[i].end());
  }
  WaitForSenders(
      m, [&](size_t i) { return m[i].received > 0; },
      [&](size_t i, size_t k) {
        return std::binary_search(senders[i].begin(), senders[i].end(), m[k].location);
      },
      out);
}

// RMA collectives (fence, window creation and freeing), as Scalasca evaluates them: only if
// every member's call overlaps every other's (the first exit after the last entry) did they
// synchronise; then each member waited from its entry to the last entry, as in a barrier.
void RmaCollective(const std::vector<MemberTimes>& m, MetricId metric, MemberOutcome* out) {
  const auto [latest, latest_index, earliest_end] = FindOverlap(m);
  if (earliest_end <= latest) return;
  for (size_t i = 0; i < m.size(); ++i) {
    out[i].wait_metric = metric;
    out[i].synchronised = true;
    SetPartner(out[i], m[latest_index]);
    out[i].wait = static_cast<double>(Max0(latest - m[i].begin));
  }
}

// OpenSHMEM's barriers and collectives (RMA collectives on the symmetric heap's windows) wait
// as MPI's do: a barrier or sync for the last PE of its active set, a reduction, collect or
// all-to-all as an N x N operation, a broadcast for its root. Their waits are SHMEM's own
// metrics, and they have no completion metric.
void ShmemCollective(const std::vector<MemberTimes>& m, trace::CollectiveOp op, size_t root,
                     MemberOutcome* out) {
  MetricId metric = MetricId::kShmemCollectiveWait;
  switch (op) {
    case CollectiveOp::kBarrier:
      Barrier(m, out);
      metric = MetricId::kShmemBarrierWait;
      break;
    case CollectiveOp::kAllgather:
    case CollectiveOp::kAllgatherv:
    case CollectiveOp::kAlltoall:
    case CollectiveOp::kAllreduce:
      AllToAll(m, out);
      break;
    case CollectiveOp::kBcast:
      OneToAll(m, root, out);
      break;
    default:
      return;
  }
  for (size_t i = 0; i < m.size(); ++i) {
    out[i].wait_metric = metric;
    out[i].completion = 0;
    out[i].broadcast_completion = -1;  // Scalasca's measure: OpenSHMEM has none
  }
}

// MPI_Allgatherv as causeway's tracer records it, naming each member's senders (Score-P's traces
// do not): a late member that contributes nothing holds up nobody, where N x N would make
// everyone wait for it. (MPI_Gatherv's and MPI_Scatterv's single root needs no such record:
// Early Reduce and Late Broadcast already count only the members that send or receive data.)
bool WaitsForItsSenders(const Context& ctx, const std::vector<MemberTimes>& m, CollectiveOp op) {
  if (!ctx.sender_waits || op != CollectiveOp::kAllgatherv) return false;
  return std::any_of(m.begin(), m.end(), [](const MemberTimes& t) { return t.senders != kNone; });
}

}  // namespace

SyncPattern PatternOf(MetricId wait_metric) {
  switch (wait_metric) {
    case MetricId::kMpiBarrierWait:
      return SyncPattern::kBarrier;
    case MetricId::kMpiWaitNxn:
      return SyncPattern::kNxN;
    case MetricId::kMpiLateBroadcast:
      return SyncPattern::kOneToN;
    case MetricId::kMpiEarlyReduce:
      return SyncPattern::kNToOne;
    case MetricId::kMpiWaitSenders:
      return SyncPattern::kSenders;
    case MetricId::kMpiRmaWaitAtFence:
    case MetricId::kMpiRmaWaitAtCreate:
    case MetricId::kMpiRmaWaitAtFree:
      return SyncPattern::kRmaCollective;
    case MetricId::kShmemBarrierWait:
      return SyncPattern::kShmemBarrier;
    case MetricId::kShmemCollectiveWait:
      return SyncPattern::kShmemCollective;
    default:
      return SyncPattern::kScan;
  }
}

// An instance on a window: OpenSHMEM's barriers and collectives, or MPI's RMA collectives.
void EvaluateWindowInstance(const std::vector<MemberTimes>& m, CollectiveOp op, bool shmem,
                            size_t root, MemberOutcome* out) {
  if (shmem) {
    ShmemCollective(m, op, root, out);
    return;
  }
  switch (op) {
    case CollectiveOp::kBarrier:
      RmaCollective(m, MetricId::kMpiRmaWaitAtFence, out);
      break;
    case CollectiveOp::kCreateHandle:
    case CollectiveOp::kCreateHandleAndAllocate:
      RmaCollective(m, MetricId::kMpiRmaWaitAtCreate, out);
      break;
    case CollectiveOp::kDestroyHandle:
    case CollectiveOp::kDestroyHandleAndDeallocate:
      RmaCollective(m, MetricId::kMpiRmaWaitAtFree, out);
      break;
    default:
      break;
  }
}

// Every member needs the data of some others before its operation can complete, so it waits in
// the call that completes it for those to start theirs: all of them in MPI_Ibarrier; the members
// that send data in the N x N operations (as Wait at N x N counts them); the root in
// MPI_Ibcast, Iscatter(v) (as Late Broadcast); the root, for the members that send, in
// MPI_Ireduce, Igather(v) (as Early Reduce); the lower ranks that send in MPI_Iscan, Iexscan (as
// Early Scan); the recorded senders in MPI_Ialltoallv/w and Iallgatherv (without them, zero
// counts leave MPI_Ialltoallv/w unknowable, and MPI_Iallgatherv counts as N x N). Members are
// in communicator rank order.
void EvaluateNonBlockingInstance(const Context& ctx, const std::vector<MemberTimes>& m,
                                 CollectiveOp op, size_t root, MemberOutcome* out) {
  if (!ctx.sender_waits) return;
  const auto receives_data = [&](size_t i) { return m[i].received > 0; };
  const auto sends_data = [&](size_t, size_t k) { return m[k].sent > 0; };
  const bool named =
      std::any_of(m.begin(), m.end(), [](const MemberTimes& t) { return t.senders != kNone; });
  switch (op) {
    case CollectiveOp::kBarrier:
      WaitForSenders(
          m, [](size_t) { return true; }, [](size_t, size_t) { return true; }, out);
      break;
    case CollectiveOp::kAlltoallv:
    case CollectiveOp::kAlltoallw:
      if (named) SenderWaits(ctx.trace.defs, m, out);
      break;
    case CollectiveOp::kAllgatherv:
      if (named) {
        SenderWaits(ctx.trace.defs, m, out);
        break;
      }
      [[fallthrough]];
    case CollectiveOp::kAllgather:
    case CollectiveOp::kAlltoall:
    case CollectiveOp::kAllreduce:
    case CollectiveOp::kReduceScatter:
    case CollectiveOp::kReduceScatterBlock:
      WaitForSenders(m, receives_data, sends_data, out);
      break;
    case CollectiveOp::kBcast:
    case CollectiveOp::kScatter:
    case CollectiveOp::kScatterv:
      if (root >= m.size()) return;
      WaitForSenders(
          m, receives_data, [&](size_t, size_t k) { return k == root && m[k].sent > 0; }, out);
      break;
    case CollectiveOp::kReduce:
    case CollectiveOp::kGather:
    case CollectiveOp::kGatherv:
      if (root >= m.size()) return;
      WaitForSenders(
          m, [&](size_t i) { return i == root && m[i].received > 0; }, sends_data, out);
      break;
    case CollectiveOp::kScan:
    case CollectiveOp::kExscan:
      WaitForSenders(
          m, receives_data, [&](size_t i, size_t k) { return k < i && m[k].sent > 0; }, out);
      break;
    default:
      break;
  }
}

// An instance on a communicator.
void EvaluateCommInstance(const Context& ctx, const std::vector<MemberTimes>& m, CollectiveOp op,
                          size_t root, MemberOutcome* out) {
  if (WaitsForItsSenders(ctx, m, op)) {
    SenderWaits(ctx.trace.defs, m, out);
    return;
  }
  switch (op) {
    case CollectiveOp::kBarrier:
      Barrier(m, out);
      break;
    case CollectiveOp::kAllgather:
    case CollectiveOp::kAllgatherv:
    case CollectiveOp::kAlltoall:
    case CollectiveOp::kAllreduce:
    case CollectiveOp::kReduceScatter:
    case CollectiveOp::kReduceScatterBlock:
      AllToAll(m, out);
      break;
    case CollectiveOp::kBcast:
    case CollectiveOp::kScatter:
    case CollectiveOp::kScatterv:
      OneToAll(m, root, out);
      break;
    case CollectiveOp::kReduce:
    case CollectiveOp::kGather:
    case CollectiveOp::kGatherv:
      AllToOne(m, root, out);
      break;
    case CollectiveOp::kScan:
    case CollectiveOp::kExscan:
      Scan(m, out);
      break;
    case CollectiveOp::kAlltoallv:
    case CollectiveOp::kAlltoallw:
      // Zero-size contributions make the synchronisation unknowable from the sizes alone
      // (Böhme 2013 §2.4): only the senders causeway's tracer records tell it.
      if (ctx.sender_waits) SenderWaits(ctx.trace.defs, m, out);
      break;
    default:
      // Handle and allocation operations do not synchronise.
      break;
  }
}

}  // namespace cw::analysis::internal
