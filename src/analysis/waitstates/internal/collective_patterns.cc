#include "analysis/waitstates/internal/collective_patterns.h"

#include <algorithm>
#include <cmath>

#include "analysis/waitstates/internal/collective_rules.h"
#include "base/check.h"
#include "base/parallel.h"
#include "comm/wire.h"

namespace cw::analysis::internal {
namespace {

using trace::CollectiveOp;
using trace::kNone;

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
    // A non-blocking member waits in the call that completed it, for others to start it.
    const match::CollectiveMember& member = members[instance.first_member + k];
    const bool later = instance.non_blocking;
    m[k] = MemberTimes{static_cast<int64_t>(later ? member.completion_entered : member.entered),
                       static_cast<int64_t>(member.end_time),
                       member.sent,
                       member.received,
                       member.location,
                       member.end_event,
                       member.senders,
                       static_cast<int64_t>(member.entered),
                       later ? member.begin_event : member.end_event};
    if (member.location == instance.root) root = k;
  }
  if (instance.non_blocking) {
    EvaluateNonBlockingInstance(ctx, m, instance.op, root, out);
    return;
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

namespace {

// The waits of the non-blocking members of `location` that a completing call charges
// (indexed as `mine`, 0 where nothing is charged): as for Late Senders, a call that completes
// several of them (MPI_Waitall) waits once, for the latest of their senders, and a test
// (MPI_Test*) never waits.
std::vector<double> CompletingCallWaits(const Context& ctx, const trace::LocationEvents& ev,
                                        const std::vector<uint32_t>& mine,
                                        const CollectiveOutcomes& outcomes) {
  std::vector<double> waits(mine.size(), 0);
  for (size_t k = 0; k < mine.size();) {
    const match::CollectiveMember& member = ctx.graph.members[mine[k]];
    if (ev.kind(member.end_event) != trace::EventKind::kNonBlockingCollectiveComplete) {
      ++k;
      continue;
    }
    // The members completed in this call follow each other (ordered by completion record).
    const uint32_t call = ev.pair(member.end_event);
    size_t end = k + 1;
    while (end < mine.size() && call != kNone &&
           ev.kind(ctx.graph.members[mine[end]].end_event) ==
               trace::EventKind::kNonBlockingCollectiveComplete &&
           ev.pair(ctx.graph.members[mine[end]].end_event) == call) {
      ++end;
    }
    size_t longest = k;
    for (size_t j = k; j < end; ++j) {
      if (outcomes.members[mine[j]].wait > outcomes.members[mine[longest]].wait) longest = j;
    }
    if (!MpiOf(ctx, ev, call).has(trace::kMpiTest))
      waits[longest] = outcomes.members[mine[longest]].wait;
    k = end;
  }
  return waits;
}

}  // namespace

void ApplyCollectiveOutcomes(const Context& ctx, uint32_t location,
                             const CollectiveOutcomes& outcomes, LocationOutput& out) {
  const trace::LocationEvents& ev = ctx.trace.location(location);
  const std::vector<uint32_t>& mine = ctx.graph.by_location[location].collectives;
  const std::vector<double> completing = CompletingCallWaits(ctx, ev, mine, outcomes);
  for (size_t k = 0; k < mine.size(); ++k) {
    const uint32_t index = mine[k];
    const MemberOutcome& o = outcomes.members[index];
    const match::CollectiveMember& member = ctx.graph.members[index];
    uint32_t callpath = ev.callpath(member.end_event);
    if (callpath == kNone) continue;
    if (o.violation) ++out.violations.collective;
    // Where the member waited: a non-blocking one in the call that completed it.
    const bool completed_later =
        ev.kind(member.end_event) == trace::EventKind::kNonBlockingCollectiveComplete;
    const uint64_t entered = EnteredAt(ev, completed_later ? member.end_event : member.begin_event);
    const double wait = completed_later ? completing[k] : o.wait;
    if (wait > 0) {
      out.severities.Add(o.wait_metric, callpath, wait);
      out.instances.Offer(Instance{o.wait_metric, callpath, location, entered, wait, o.partner});
      if (ctx.emit_edges && o.partner_event != kNone) {
        out.edges.push_back(WaitEdge{location, member.end_event, o.partner, o.partner_event,
                                     static_cast<int64_t>(wait), PatternOf(o.wait_metric)});
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
