#include "analysis/waitstates/internal/collective_patterns.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "base/check.h"
#include "base/parallel.h"
#include "comm/wire.h"

namespace cw::analysis::internal {
namespace {

using trace::CollectiveOp;
using trace::kNone;

constexpr int64_t kNoTime = std::numeric_limits<int64_t>::min();

struct MemberTimes {
  int64_t begin;
  int64_t end;
  uint64_t sent;
  uint64_t received;
  uint32_t location;
  uint32_t end_event;
  uint32_t senders;  // CollectiveMember::senders
};

void SetPartner(MemberOutcome& out, const MemberTimes& partner) {
  out.partner = partner.location;
  out.partner_event = partner.end_event;
}

int64_t Max0(int64_t v) { return v > 0 ? v : 0; }

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

// MPI_Alltoallv/w whose members' records name their senders (beyond Scalasca): a member that
// receives data waits for the latest of the other members that send it data, from its entry to
// that member's, `max(0, min(latest b_s, e_r) - b_r)`. Zero counts make the operation no
// barrier: a member waits for nobody who sends it nothing, and it is no synchronisation point
// (as for Early Reduce, the wait's edge leads to the sender it waited for).
void SenderWaits(const trace::Definitions& defs, const std::vector<MemberTimes>& m,
                 MemberOutcome* out) {
  std::vector<uint32_t> senders;
  for (size_t i = 0; i < m.size(); ++i) {
    out[i].wait_metric = MetricId::kMpiWaitSenders;
    if (m[i].senders == kNone || m[i].received == 0) continue;
    senders = defs.GroupLocations(m[i].senders);
    std::sort(senders.begin(), senders.end());
    int64_t latest = kNoTime;
    size_t latest_index = m.size();
    for (size_t k = 0; k < m.size(); ++k) {
      if (k == i || m[k].begin <= latest) continue;
      if (!std::binary_search(senders.begin(), senders.end(), m[k].location)) continue;
      latest = m[k].begin;
      latest_index = k;
    }
    if (latest_index == m.size() || m[i].begin >= latest) continue;
    SetPartner(out[i], m[latest_index]);
    Outcome(m[i], latest, 0, out[i], false);
  }
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

// An instance on a communicator.
void EvaluateCommInstance(const Context& ctx, const std::vector<MemberTimes>& m, CollectiveOp op,
                          size_t root, MemberOutcome* out) {
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

// `members`: the list `instance` indexes (a graph's members, or the instances a rank built).
void EvaluateInstance(const Context& ctx, const std::vector<match::CollectiveMember>& members,
                      const match::CollectiveInstance& instance, MemberOutcome* out) {
  std::vector<MemberTimes> m(instance.member_count);
  size_t root = m.size();
  for (uint32_t k = 0; k < instance.member_count; ++k) {
    // The member's facts, not its events: in an MPI analysis job the member's location may be
    // another rank's. Waits are measured between the Enters of the calls, as Scalasca measures
    // them (and where the root-cause analyses put the synchronisation), not from the
    // CollectiveBegin record, which writers other than Score-P may stamp a little after the Enter.
    const match::CollectiveMember& member = members[instance.first_member + k];
    m[k] = MemberTimes{static_cast<int64_t>(member.entered),
                       static_cast<int64_t>(member.end_time),
                       member.sent,
                       member.received,
                       member.location,
                       member.end_event,
                       member.senders};
    if (member.location == instance.root) root = k;
  }
  if (instance.window == kNone) {
    EvaluateCommInstance(ctx, m, instance.op, root, out);
    return;
  }
  EvaluateWindowInstance(m, instance.op, IsShmemWindow(ctx.trace.defs, instance.window), root, out);
  if (!ctx.one_sided_sync) {
    // Scalasca's semantics: the waits stay wait states, but nothing follows them.
    for (size_t i = 0; i < m.size(); ++i) {
      out[i].synchronised = false;
      out[i].partner_event = kNone;
    }
  }
}

// A member's outcome on its way from the rank that built its instance to the member's rank,
// named by the member's location and end event, as differences to the previous one. Waits are
// whole ticks (differences of timestamps), sent as varints.
class OutcomeCodec {
 public:
  // `with_partner_event`: the root-cause analyses follow the wait to the partner's call.
  explicit OutcomeCodec(bool with_partner_event) : with_partner_event_(with_partner_event) {}

  void Write(comm::ByteWriter& out, const match::CollectiveMember& m, const MemberOutcome& o) {
    out.PutDelta(m.location, location_);
    out.PutDelta(m.end_event, end_event_);
    location_ = m.location;
    end_event_ = m.end_event;
    out.Put(static_cast<uint8_t>((o.violation ? 1 : 0) | (o.synchronised ? 2 : 0)));
    out.PutVarint(static_cast<uint64_t>(o.wait_metric));
    out.PutVarint(static_cast<uint64_t>(o.completion_metric));
    out.PutVarint(static_cast<uint64_t>(o.wait));
    out.PutVarint(static_cast<uint64_t>(o.completion));
    out.PutDelta(o.partner, m.location);
    if (with_partner_event_) out.PutVarint(uint64_t{o.partner_event} + 1);  // kNone + 1 == 0
    out.PutVarint(static_cast<uint64_t>(o.broadcast_completion + 1));       // -1 + 1 == 0
  }
  // The member's (location, end event) and its outcome.
  MemberOutcome Read(comm::ByteReader& in, uint32_t& location, uint32_t& end_event) {
    location = location_ = in.GetDelta32(location_);
    end_event = end_event_ = in.GetDelta32(end_event_);
    MemberOutcome o;
    const auto flags = in.Get<uint8_t>();
    o.violation = (flags & 1) != 0;
    o.synchronised = (flags & 2) != 0;
    o.wait_metric = static_cast<MetricId>(in.GetVarint());
    o.completion_metric = static_cast<MetricId>(in.GetVarint());
    o.wait = static_cast<double>(in.GetVarint());
    o.completion = static_cast<double>(in.GetVarint());
    o.partner = in.GetDelta32(location);
    if (with_partner_event_) o.partner_event = static_cast<uint32_t>(in.GetVarint() - 1);
    o.broadcast_completion = static_cast<int64_t>(in.GetVarint()) - 1;
    return o;
  }

 private:
  bool with_partner_event_;
  uint32_t location_ = 0;
  uint32_t end_event_ = 0;
};

// One rank of an MPI analysis job: evaluates the instances it built and sends each member's rank
// the outcomes that charge anything (a wait, a completion or a violation) and, under Scalasca's
// semantics, those whose completion starts an interval.
CollectiveOutcomes EvaluateBuiltCollectives(const Context& ctx, unsigned threads) {
  const match::BuiltCollectives& built = ctx.graph.built;
  CollectiveOutcomes result;
  std::vector<MemberOutcome>& evaluated = result.built;
  evaluated.resize(built.members.size());
  ParallelFor(built.collectives.size(), threads, [&](size_t i) {
    const match::CollectiveInstance& instance = built.collectives[i];
    if (!instance.complete || instance.member_count < 2) return;
    EvaluateInstance(ctx, built.members, instance, &evaluated[instance.first_member]);
  });
  comm::Communicator& comm = *ctx.comm;
  std::vector<comm::ByteWriter> to_members(comm.size());
  std::vector<OutcomeCodec> codecs(comm.size(), OutcomeCodec(ctx.emit_edges));
  for (size_t k = 0; k < built.members.size(); ++k) {
    const MemberOutcome& o = evaluated[k];
    // Under Scalasca's semantics every synchronising member's completion starts an interval.
    const bool completes =
        ctx.interval_completions && (o.synchronised || o.broadcast_completion >= 0);
    if (o.wait <= 0 && o.completion <= 0 && !o.violation && !completes) continue;
    // Waits are differences of integer timestamps: the varints carry them exactly.
    CW_CHECK(o.wait == std::floor(o.wait) && o.completion == std::floor(o.completion));
    const uint32_t rank = ctx.partition->owner[built.members[k].location];
    codecs[rank].Write(to_members[rank], built.members[k], o);
  }
  std::vector<MemberOutcome>& outcomes = result.members;
  outcomes.resize(ctx.graph.members.size());
  for (const comm::Bytes& bytes : comm.Exchange(comm::TakeAll(to_members))) {
    comm::ByteReader in(bytes);
    OutcomeCodec codec(ctx.emit_edges);
    while (!in.done()) {
      uint32_t location = kNone, end_event = kNone;
      const MemberOutcome o = codec.Read(in, location, end_event);
      // The location's members, in end-event order.
      CW_CHECK(ctx.Holds(location));
      const std::vector<uint32_t>& mine = ctx.graph.by_location[location].collectives;
      auto it = std::lower_bound(mine.begin(), mine.end(), end_event, [&](uint32_t m, uint32_t e) {
        return ctx.graph.members[m].end_event < e;
      });
      CW_CHECK(it != mine.end() && ctx.graph.members[*it].end_event == end_event);
      outcomes[*it] = o;
    }
  }
  return result;
}

// How many members of `instance` synchronised: 0 unless at least two did.
uint32_t SynchronisedCount(const match::CollectiveInstance& instance,
                           const std::vector<MemberOutcome>& outcomes) {
  uint32_t count = 0;
  for (uint32_t k = 0; k < instance.member_count; ++k) {
    if (outcomes[instance.first_member + k].synchronised) ++count;
  }
  return count < 2 ? 0 : count;
}

// Distributed CollectSyncGroups: each rank sends the groups of the instances it built to the
// ranks of their members: the instance's index, communicator and member count, then every
// member's location (as differences), with its end event where the receiving rank owns it.
void ShareSyncGroups(const Context& ctx, const CollectiveOutcomes& outcomes, SyncEdges& sync) {
  comm::Communicator& comm = *ctx.comm;
  const match::BuiltCollectives& built = ctx.graph.built;
  std::vector<comm::ByteWriter> out(comm.size());
  std::vector<uint32_t> ranks;  // the ranks that own members of the current instance
  for (size_t i = 0; i < built.collectives.size(); ++i) {
    const match::CollectiveInstance& instance = built.collectives[i];
    const uint32_t count = SynchronisedCount(instance, outcomes.built);
    if (count == 0) continue;
    ranks.clear();
    for (uint32_t k = 0; k < instance.member_count; ++k) {
      if (!outcomes.built[instance.first_member + k].synchronised) continue;
      ranks.push_back(ctx.partition->owner[built.members[instance.first_member + k].location]);
    }
    std::sort(ranks.begin(), ranks.end());
    ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
    for (uint32_t rank : ranks) {
      comm::ByteWriter& w = out[rank];
      w.PutVarint(i);
      w.PutVarint(uint64_t{instance.comm} + 1);
      w.PutVarint(count);
      uint32_t previous = 0;
      for (uint32_t k = 0; k < instance.member_count; ++k) {
        const match::CollectiveMember& m = built.members[instance.first_member + k];
        if (!outcomes.built[instance.first_member + k].synchronised) continue;
        w.PutDelta(m.location, previous);
        previous = m.location;
        if (ctx.partition->owner[m.location] == rank) w.PutVarint(m.end_event);
      }
    }
  }
  const std::vector<comm::Bytes> in = comm.Exchange(comm::TakeAll(out));
  for (uint32_t from = 0; from < in.size(); ++from) {
    comm::ByteReader r(in[from]);
    while (!r.done()) {
      SyncGroup group;
      group.origin = (uint64_t{from} << 32) | r.GetVarint();
      group.key = static_cast<uint32_t>(r.GetVarint() - 1);
      group.member_count = static_cast<uint32_t>(r.GetVarint());
      group.first_member = static_cast<uint32_t>(sync.group_members.size());
      uint32_t location = 0;
      for (uint32_t k = 0; k < group.member_count; ++k) {
        location = r.GetDelta32(location);
        const uint32_t event = ctx.Holds(location) ? static_cast<uint32_t>(r.GetVarint()) : kNone;
        sync.group_members.push_back(GroupMember{location, event});
      }
      sync.groups.push_back(group);
    }
  }
}

}  // namespace

CollectiveOutcomes EvaluateCollectives(const Context& ctx, unsigned threads) {
  if (ctx.Distributed()) return EvaluateBuiltCollectives(ctx, threads);
  CollectiveOutcomes result;
  std::vector<MemberOutcome>& outcomes = result.members;
  outcomes.resize(ctx.graph.members.size());
  const std::vector<match::CollectiveInstance>& instances = ctx.graph.collectives;
  ParallelFor(instances.size(), threads, [&](size_t i) {
    const match::CollectiveInstance& instance = instances[i];
    if (!instance.complete || instance.member_count < 2) return;
    EvaluateInstance(ctx, ctx.graph.members, instance, &outcomes[instance.first_member]);
  });
  return result;
}

void CollectSyncGroups(const Context& ctx, const CollectiveOutcomes& collective, unsigned threads,
                       SyncEdges& sync) {
  if (ctx.Distributed()) {
    ShareSyncGroups(ctx, collective, sync);
    return;
  }
  const std::vector<MemberOutcome>& outcomes = collective.members;
  const std::vector<match::CollectiveInstance>& instances = ctx.graph.collectives;
  std::vector<uint32_t> count(instances.size(), 0);
  ParallelFor(instances.size(), threads,
              [&](size_t i) { count[i] = SynchronisedCount(instances[i], outcomes); });
  std::vector<uint32_t> first(instances.size(), 0);
  uint32_t members = 0;
  for (size_t i = 0; i < instances.size(); ++i) {
    first[i] = members;
    if (count[i] == 0) continue;
    sync.groups.push_back(SyncGroup{instances[i].comm, members, count[i], i});
    members += count[i];
  }
  sync.group_members.resize(members);
  ParallelFor(instances.size(), threads, [&](size_t i) {
    if (count[i] == 0) return;
    uint32_t out = first[i];
    for (uint32_t k = 0; k < instances[i].member_count; ++k) {
      uint32_t index = instances[i].first_member + k;
      if (!outcomes[index].synchronised) continue;
      const match::CollectiveMember& member = ctx.graph.members[index];
      sync.group_members[out++] = GroupMember{member.location, member.end_event};
    }
  });
}

void ApplyCollectiveOutcomes(const Context& ctx, uint32_t location,
                             const CollectiveOutcomes& outcomes, LocationOutput& out) {
  const trace::LocationEvents& ev = ctx.trace.location(location);
  for (uint32_t index : ctx.graph.by_location[location].collectives) {
    const MemberOutcome& o = outcomes.members[index];
    const match::CollectiveMember& member = ctx.graph.members[index];
    uint32_t callpath = ev.callpath(member.end_event);
    if (callpath == kNone) continue;
    if (o.violation) ++out.violations.collective;
    uint64_t entered = EnteredAt(ev, member.begin_event);
    if (o.wait > 0) {
      out.severities.Add(o.wait_metric, callpath, o.wait);
      out.instances.Offer(Instance{o.wait_metric, callpath, location, entered, o.wait, o.partner});
      if (ctx.emit_edges && o.partner_event != kNone) {
        out.edges.push_back(WaitEdge{location, member.end_event, o.partner, o.partner_event,
                                     static_cast<int64_t>(o.wait), PatternOf(o.wait_metric)});
      }
    }
    if (o.completion > 0) {
      out.severities.Add(o.completion_metric, callpath, o.completion);
      out.instances.Offer(
          Instance{o.completion_metric, callpath, location, entered, o.completion, kNone});
    }
    if (ctx.interval_completions) {
      // Barriers and N x N operations: their completion metric is Scalasca's measure.
      const int64_t completion =
          o.synchronised ? static_cast<int64_t>(o.completion) : o.broadcast_completion;
      if (completion >= 0) out.completions.push_back(EventCompletion{member.end_event, completion});
    }
  }
}

}  // namespace cw::analysis::internal
