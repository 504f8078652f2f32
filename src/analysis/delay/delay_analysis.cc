#include "analysis/delay/delay_analysis.h"

#include <algorithm>
#include <array>
#include <iterator>
#include <memory>
#include <span>
#include <string>
#include <utility>

#include "analysis/delay/internal/cost_distribution.h"
#include "analysis/delay/internal/delayer_intervals.h"
#include "analysis/delay/internal/time_wire.h"
#include "base/check.h"
#include "base/parallel.h"
#include "comm/wire.h"
#include "replay/pass.h"

namespace cw::analysis {
namespace {

using internal::PatternCosts;
using trace::kNone;

// What a waiter sends back to its delayer. The delayer reads it long after it was written, often
// on another CPU: the waiter's time per call path is kept inside the message when it is short
// (it usually is: an interval between two synchronisations holds few call paths), so that
// reading it costs one cache miss rather than two.
class WaitMessage {
 public:
  PatternCosts phi{};  // propagation costs of the wait, per pattern of the waits it explains
  // time() holds the delayer's excess time δ, computed by the waiter from the delayer's interval
  // (internal::DelayerIntervals), rather than the waiter's own time.
  bool excess = false;

  // The waiter's time per call path in the interval, or δ (`excess`).
  std::span<const CallpathTicks> time() const {
    return size_ <= kInline ? std::span<const CallpathTicks>(inline_.data(), size_)
                            : std::span<const CallpathTicks>(spill_);
  }
  void SetTime(const TimeVector& time) {
    size_ = static_cast<uint32_t>(time.size());
    if (time.size() <= kInline) {
      std::copy(time.begin(), time.end(), inline_.begin());
    } else {
      spill_.assign(time.begin(), time.end());
    }
  }
  void Clear() {
    size_ = 0;
    excess = false;
    spill_.clear();
  }

 private:
  static constexpr size_t kInline = 6;
  uint32_t size_ = 0;
  std::array<CallpathTicks, kInline> inline_{};
  TimeVector spill_;
};

// Messages live from a waiter's step to its delayer's. Recycling them (with their vectors'
// capacity) per thread saves two allocations and two frees per edge; a worker's pool dies with
// its thread, the calling thread empties its own at the end of the analysis.
class MessagePool {
 public:
  static std::unique_ptr<WaitMessage> Get() {
    std::vector<std::unique_ptr<WaitMessage>>& free = Free();
    if (free.empty()) return std::make_unique<WaitMessage>();
    std::unique_ptr<WaitMessage> m = std::move(free.back());
    free.pop_back();
    return m;
  }
  static void Return(std::unique_ptr<WaitMessage> m) {
    if (!m) return;
    m->Clear();
    Free().push_back(std::move(m));
  }
  static void Clear() { std::vector<std::unique_ptr<WaitMessage>>().swap(Free()); }

 private:
  static std::vector<std::unique_ptr<WaitMessage>>& Free() {
    thread_local std::vector<std::unique_ptr<WaitMessage>> free;
    return free;
  }
};

}  // namespace
}  // namespace cw::analysis

// A wait's message to a delayer analysed on another rank (an MPI analysis job): the non-zero
// propagation costs (most waits propagate none) and the time vector (or δ), its call paths as
// differences and its ticks as varints.
template <>
struct cw::replay::ValueCodec<std::unique_ptr<cw::analysis::WaitMessage>> {
  static void Write(comm::ByteWriter& out,
                    const std::unique_ptr<cw::analysis::WaitMessage>& message) {
    static_assert(cw::analysis::kSyncPatternCount <= 32, "one bit per pattern slot");
    uint32_t present = 0;
    for (size_t x = 0; x < message->phi.size(); ++x) {
      if (message->phi[x] != 0) present |= 1u << x;
    }
    // Most waits propagate nothing: one bit of the length says whether costs follow, another
    // whether the vector is δ.
    std::span<const cw::analysis::CallpathTicks> time = message->time();
    out.PutVarint(uint64_t{time.size()} * 4 + (message->excess ? 2 : 0) + (present != 0 ? 1 : 0));
    if (present != 0) {
      out.Put(present);
      for (size_t x = 0; x < message->phi.size(); ++x) {
        if (message->phi[x] != 0) out.Put(message->phi[x]);
      }
    }
    cw::analysis::internal::PutTimeEntries(out, time);
  }
  static std::unique_ptr<cw::analysis::WaitMessage> Read(comm::ByteReader& in) {
    std::unique_ptr<cw::analysis::WaitMessage> message = cw::analysis::MessagePool::Get();
    const uint64_t length = in.GetVarint();
    const auto present = (length & 1) != 0 ? in.Get<uint32_t>() : uint32_t{0};
    message->phi.fill(0.0);
    for (size_t x = 0; x < message->phi.size(); ++x) {
      if ((present >> x) & 1u) message->phi[x] = in.Get<double>();
    }
    message->SetTime(cw::analysis::internal::GetTimeEntries(in, length / 4));
    message->excess = (length & 2) != 0;
    return message;
  }
};

namespace cw::analysis {
namespace {

struct PatternMetrics {
  MetricId short_term;
  MetricId long_term;
  MetricId direct;
  MetricId indirect;
  MetricId propagating;
  MetricId terminal;
  // Whether its waits are split into direct/indirect and propagating/terminal: Scalasca's
  // classification covers MPI and OpenSHMEM, not OpenMP's barriers.
  bool classified = true;
};

// The direct/indirect and propagating/terminal metrics of a group of patterns.
struct ClassMetrics {
  MetricId direct;
  MetricId indirect;
  MetricId propagating;
  MetricId terminal;
};
constexpr ClassMetrics kCollectiveClasses = {
    MetricId::kMpiWaitDirectCollective, MetricId::kMpiWaitIndirectCollective,
    MetricId::kMpiWaitPropagatingCollective, MetricId::kMpiWaitTerminalCollective};
constexpr ClassMetrics kRmaClasses = {MetricId::kMpiWaitDirectRma, MetricId::kMpiWaitIndirectRma,
                                      MetricId::kMpiWaitPropagatingRma,
                                      MetricId::kMpiWaitTerminalRma};
constexpr ClassMetrics kShmemClasses = {MetricId::kShmemWaitDirect, MetricId::kShmemWaitIndirect,
                                        MetricId::kShmemWaitPropagating,
                                        MetricId::kShmemWaitTerminal};

constexpr PatternMetrics Pattern(MetricId short_term, MetricId long_term, ClassMetrics c) {
  return {short_term, long_term, c.direct, c.indirect, c.propagating, c.terminal};
}
constexpr PatternMetrics Collective(MetricId short_term, MetricId long_term) {
  return Pattern(short_term, long_term, kCollectiveClasses);
}
constexpr PatternMetrics OneSided(MetricId short_term, MetricId long_term) {
  return Pattern(short_term, long_term, kRmaClasses);
}
constexpr PatternMetrics Shmem(MetricId short_term, MetricId long_term) {
  return Pattern(short_term, long_term, kShmemClasses);
}
constexpr PatternMetrics OpenMp(MetricId short_term, MetricId long_term) {
  PatternMetrics m = Pattern(short_term, long_term, kCollectiveClasses);
  m.classified = false;
  return m;
}

// Indexed by SyncPattern.
constexpr PatternMetrics kMetricsOf[] = {
    {MetricId::kDelayLateSender, MetricId::kDelayLateSenderLongterm,
     MetricId::kMpiWaitDirectLateSender, MetricId::kMpiWaitIndirectLateSender,
     MetricId::kMpiWaitPropagatingLs, MetricId::kMpiWaitTerminalLs},
    {MetricId::kDelayLateReceiver, MetricId::kDelayLateReceiverLongterm,
     MetricId::kMpiWaitDirectLateReceiver, MetricId::kMpiWaitIndirectLateReceiver,
     MetricId::kMpiWaitPropagatingLr, MetricId::kMpiWaitTerminalLr},
    Collective(MetricId::kDelayBarrier, MetricId::kDelayBarrierLongterm),
    Collective(MetricId::kDelayN2n, MetricId::kDelayN2nLongterm),
    Collective(MetricId::kDelay12n, MetricId::kDelay12nLongterm),
    Collective(MetricId::kDelayN21, MetricId::kDelayN21Longterm),
    Collective(MetricId::kDelayScan, MetricId::kDelayScanLongterm),
    Collective(MetricId::kDelayFinalize, MetricId::kDelayFinalizeLongterm),
    Collective(MetricId::kDelaySenders, MetricId::kDelaySendersLongterm),
    OpenMp(MetricId::kDelayOmpBarrier, MetricId::kDelayOmpBarrierLongterm),
    // kOmpLock: never followed (FollowedUnder), so never read; the OpenMP metrics keep the
    // table's one entry per pattern.
    OpenMp(MetricId::kDelayOmp, MetricId::kDelayOmp),
    OneSided(MetricId::kDelayRmaCollective, MetricId::kDelayRmaCollectiveLongterm),
    OneSided(MetricId::kDelayRmaLatePost, MetricId::kDelayRmaLatePostLongterm),
    OneSided(MetricId::kDelayRmaEarlyWait, MetricId::kDelayRmaEarlyWaitLongterm),
    OneSided(MetricId::kDelayRmaLock, MetricId::kDelayRmaLockLongterm),
    Shmem(MetricId::kDelayShmemBarrierWait, MetricId::kDelayShmemBarrierWaitLongterm),
    Shmem(MetricId::kDelayShmemCollectiveWait, MetricId::kDelayShmemCollectiveWaitLongterm),
    Shmem(MetricId::kDelayShmemLockContention, MetricId::kDelayShmemLockContentionLongterm),
    Shmem(MetricId::kDelayShmemWaitOnValue, MetricId::kDelayShmemWaitOnValueLongterm),
};
static_assert(std::size(kMetricsOf) == kSyncPatternCount, "one entry per SyncPattern");

const PatternMetrics& MetricsOf(SyncPattern p) { return kMetricsOf[static_cast<size_t>(p)]; }

// The state of one location during the backward pass.
class LocationDelay {
 public:
  LocationDelay(const trace::Trace& trace, const SyncPoints& sp,
                const internal::PatternSlots& slots, const internal::DelayerIntervals& delayers,
                uint32_t location, LocationSeverities& severities, Semantics semantics)
      : semantics_(semantics),
        sp_(sp),
        delayers_(delayers),
        loc_(location),
        l_(sp.locations[location]),
        ev_(trace.location(location)),
        severities_(severities),
        wait_slot_(l_.calls.size(), kNone),
        slots_(slots) {
    for (uint32_t a = 0; a < l_.calls.size(); ++a) {
      if (l_.call_wait[a] == kNone) continue;
      wait_slot_[a] = static_cast<uint32_t>(propagating_.size());
      propagating_.push_back(0);
    }
    phi_.assign(propagating_.size() * static_cast<size_t>(slots_.width), 0.0);
  }

  // The edge role of the next step: steps visit the edge roles from last to first, one each.
  uint32_t NextEdgeRole() {
    do {
      --cursor_;
    } while (l_.roles[cursor_].kind == RoleKind::kGroup);
    return cursor_;
  }

  // The location waited at `role`: its delayer gets the wait's propagation costs (final, since
  // everything later on this location has been replayed) and the waiter's side of the interval.
  // Where its rank received the delayer's interval (an MPI analysis job), it sends δ instead of
  // its time, and what explains the wait is known here: the delayer returns nothing.
  void Waiter(uint32_t role, replay::Mailbox<std::unique_ptr<WaitMessage>>& mail,
              replay::ReturnBox<internal::Explanation>& explained) {
    const SyncRole& r = l_.roles[role];
    std::unique_ptr<WaitMessage> message = MessagePool::Get();
    const double* phi = &phi_[wait_slot_[r.activity] * static_cast<size_t>(slots_.width)];
    std::copy(phi, phi + slots_.width, message->phi.begin());
    scratch_time_.clear();
    sp_.IntervalTime(loc_, role, scratch_time_);
    internal::DelayerIntervals::View delayer;
    if (delayers_.Find(r.id, delayer)) {
      internal::ExcessOf(*delayer.time, delayer.cut_path, delayer.cut, scratch_time_, excess_);
      message->SetTime(excess_);
      message->excess = true;
      explained.Send(r.id, internal::Explanation{internal::TotalTicks(excess_), delayer.waiting});
    } else {
      message->SetTime(scratch_time_);
    }
    mail.Send(r.id, std::move(message));
  }

  // The location made a waiter wait at `role`: split that wait over this location's causes.
  void Delayer(uint32_t role, replay::Mailbox<std::unique_ptr<WaitMessage>>& mail,
               replay::ReturnBox<internal::Explanation>& explained, DelayResult& result) {
    const SyncRole& r = l_.roles[role];
    // Taken out of the mailbox: freed when this step is done.
    std::unique_ptr<WaitMessage>* slot = mail.Receive(r.id);
    std::unique_ptr<WaitMessage> taken = slot != nullptr ? std::move(*slot) : nullptr;
    const WaitMessage* message = taken ? taken.get() : &absent_;
    struct Recycle {
      std::unique_ptr<WaitMessage>& m;
      ~Recycle() { MessagePool::Return(std::move(m)); }
    } recycle{taken};

    // The waiters of one collective usually share the interval start: sum it once.
    if (cached_role_call_ != r.activity || cached_start_role_ != r.start) {
      cached_time_.clear();
      l_.time.Sum(sp_.StartBoundary(loc_, r.start), r.activity + 1, cached_time_);
      CollectIntervalWaits(r.start, r.activity);
      cached_role_call_ = r.activity;
      cached_start_role_ = r.start;
    }

    std::span<const CallpathTicks> excess = message->time();
    if (!message->excess) {
      internal::ExcessOf(cached_time_, SyncPoints::CutPath(l_, r), r.cut, message->time(), excess_);
      excess = excess_;
    }
    const PatternMetrics& metrics = MetricsOf(r.pattern);
    // Scalasca marks a wait as propagating only where it explains a point-to-point wait.
    const bool scalasca = semantics_ == Semantics::kScalasca;
    const bool marks_propagating = !scalasca || IsPointToPoint(r.pattern);
    const bool capped = scalasca && IsPointToPoint(r.pattern);
    internal::Split split = internal::DistributeWait(
        slots_, excess, r.wait, r.pattern, message->phi, interval_waits_, marks_propagating, capped,
        [&](uint32_t callpath, double short_term, const PatternCosts& long_term) {
          Charge(callpath, metrics.short_term, short_term, long_term);
        });
    if (split.scale > 0) {
      explained.Send(r.id, split.explanation);
      return;
    }
    // Nothing on this location explains the wait: its time was outside every region, the clock
    // is off, or (Scalasca's semantics) it waited in collectives, whose waiting explains no
    // other wait there. Keep the costs (they sum to the waiting time) on the call that made the
    // waiter wait; Scalasca drops them.
    ++result.unexplained_waits;
    result.unexplained_ticks += static_cast<double>(r.wait);
    result.diagnostics.Report(
        kUnexplainedWait,
        "location " + std::to_string(loc_) + " event " + std::to_string(l_.call_of(r)), 1,
        (uint64_t{loc_} << 32) | l_.call_of(r));
    uint32_t callpath = l_.call_path[r.activity];
    if (callpath != kNone && semantics_ == Semantics::kCauseway) {
      Charge(callpath, metrics.short_term, static_cast<double>(r.wait), message->phi);
    }
  }

  // After the pass: the direct/indirect and propagating/terminal split of every wait here
  // (under Scalasca semantics, of point-to-point waits only; OpenMP's waits are not classified).
  void Classify(const replay::ReturnBox<internal::Explanation>& explained) {
    for (uint32_t a = 0; a < l_.calls.size(); ++a) {
      if (l_.call_wait[a] == kNone || l_.call_path[a] == kNone) continue;
      const SyncRole& r = l_.roles[l_.call_wait[a]];
      if (semantics_ == Semantics::kScalasca && !IsPointToPoint(r.pattern)) continue;
      const PatternMetrics& m = MetricsOf(r.pattern);
      if (!m.classified) continue;
      const uint32_t callpath = l_.call_path[a];
      const double omega = static_cast<double>(r.wait);
      double in = std::min(std::max(explained.Read(r.id).IndirectShare(r.wait), 0.0), omega);
      double propagating = std::min(propagating_[wait_slot_[a]], omega);
      severities_.AddWithAncestors(m.indirect, callpath, in);
      severities_.AddWithAncestors(m.direct, callpath, omega - in);
      severities_.AddWithAncestors(m.propagating, callpath, propagating);
      severities_.AddWithAncestors(m.terminal, callpath, omega - propagating);
    }
  }

 private:
  void Charge(uint32_t callpath, MetricId short_metric, double short_term,
              const PatternCosts& long_term) {
    if (short_term != 0) severities_.AddWithAncestors(short_metric, callpath, short_term);
    for (size_t x = 0; x < static_cast<size_t>(slots_.width); ++x) {
      if (long_term[x] != 0) {
        severities_.AddWithAncestors(MetricsOf(slots_.pattern[x]).long_term, callpath,
                                     long_term[x]);
      }
    }
  }

  // The waits of this location in the interval that starts at `start_role` and ends at call
  // `end_activity`. The wait of the start call counts unless it is the synchronisation that
  // starts the interval (the location waited there, or in that group operation).
  void CollectIntervalWaits(uint32_t start_role, uint32_t end_activity) {
    interval_waits_.clear();
    for (uint32_t a = internal::WaitsFrom(l_, start_role); a < end_activity; ++a) {
      uint32_t slot = wait_slot_[a];
      if (slot == kNone) continue;
      interval_waits_.push_back(internal::IntervalWait{
          l_.roles[l_.call_wait[a]].wait, &phi_[slot * static_cast<size_t>(slots_.width)],
          &propagating_[slot]});
    }
  }

  const Semantics semantics_;
  const SyncPoints& sp_;
  const internal::DelayerIntervals& delayers_;
  uint32_t loc_;
  const LocationSyncPoints& l_;
  const trace::LocationEvents& ev_;
  LocationSeverities& severities_;
  std::vector<uint32_t> wait_slot_;  // per call: index into phi_/propagating_, or kNone
  const internal::PatternSlots& slots_;
  std::vector<double> phi_;  // per wait slot: one propagation cost per pattern slot
  std::vector<double> propagating_;
  std::vector<internal::IntervalWait> interval_waits_;
  uint32_t cursor_ = static_cast<uint32_t>(l_.roles.size());  // the role of the latest step
  const WaitMessage absent_;  // stands for the message of an edge given up to break a cycle
  uint32_t cached_role_call_ = kNone;  // the activity (call index) of the cached interval
  uint32_t cached_start_role_ = kNone;
  TimeVector cached_time_;   // and interval_waits_: of the interval cached_start_role_..call
  TimeVector scratch_time_;  // a waiter's interval time, before it goes into its message
  TimeVector excess_;        // δ of the wait at hand
};

// Distributed: what explains the waits whose delayers are on this rank, sent to the waiters'
// ranks (one exchange after the pass) for their indirect shares. A wait that its delayer's own
// waits do not explain (ω̂ = 0, most of them) has no indirect share: nothing is sent; nor for a
// wait whose waiter computed it from the delayer's interval, unless the pass gave its edge up.
void ReturnExplanations(const SyncPoints& sp, const internal::DelayerIntervals& delayers,
                        std::vector<uint32_t> broken,
                        replay::ReturnBox<internal::Explanation>& explained) {
  std::sort(broken.begin(), broken.end());
  comm::Communicator& comm = *sp.share.comm;
  std::vector<comm::ByteWriter> out(comm.size());
  std::vector<uint64_t> previous(comm.size(), 0);
  for (uint32_t e = 0; e < sp.edges.size(); ++e) {
    if (!sp.Crosses(e) || sp.share.Holds(sp.edges[e].waiter)) continue;
    if (delayers.Shipped(e) && !std::binary_search(broken.begin(), broken.end(), e)) continue;
    const internal::Explanation& x = explained.Read(e);
    if (x.waiting == 0) continue;
    // Named by global id: ascending with the local numbers, so the differences are short.
    const uint32_t rank = sp.other_rank[e];
    out[rank].PutDelta(sp.global_edge[e], previous[rank]);
    previous[rank] = sp.global_edge[e];
    out[rank].PutVarint(static_cast<uint64_t>(x.excess));  // sums of ticks: never negative
    out[rank].PutVarint(static_cast<uint64_t>(x.waiting));
  }
  for (const comm::Bytes& bytes : comm.Exchange(comm::TakeAll(out))) {
    comm::ByteReader in(bytes);
    uint64_t id = 0;
    while (!in.done()) {
      id = in.GetDelta(id);
      const uint32_t e = sp.LocalEdge(id);
      CW_CHECK(sp.share.Holds(sp.edges[e].waiter));
      internal::Explanation x;
      x.excess = static_cast<int64_t>(in.GetVarint());
      x.waiting = static_cast<int64_t>(in.GetVarint());
      explained.Send(e, x);
    }
  }
}

// The patterns of the whole trace's edges (distributed: of every rank's), which decide the slots
// of the propagation costs: every rank must use the same.
internal::PatternSlots SlotsOf(const SyncPoints& sp) {
  static_assert(kSyncPatternCount <= 32, "one bit per pattern");
  uint32_t used_mask = 0;
  for (const WaitEdge& e : sp.edges) used_mask |= 1u << static_cast<int>(e.pattern);
  if (sp.share.distributed()) {
    comm::ByteWriter out;
    out.Put(used_mask);
    for (const comm::Bytes& bytes : sp.share.comm->AllGather(out.Take())) {
      comm::ByteReader in(bytes);
      used_mask |= in.Get<uint32_t>();
    }
  }
  bool used[kSyncPatternCount] = {};
  for (int p = 0; p < kSyncPatternCount; ++p) used[p] = ((used_mask >> p) & 1) != 0;
  return internal::PatternSlots(used);
}

}  // namespace

DelayResult AnalyzeDelay(const trace::Trace& trace, const SyncPoints& sp,
                         std::vector<LocationSeverities>& severities, const DelayOptions& options) {
  const uint32_t n = trace.location_count();
  const uint32_t edges = static_cast<uint32_t>(sp.edges.size());

  const BackwardPlan& plan = *sp.backward;
  const internal::PatternSlots slots = SlotsOf(sp);
  const internal::DelayerIntervals delayers = internal::DelayerIntervals::Share(sp);
  const std::vector<uint32_t>& held = sp.held_participants;
  std::vector<std::unique_ptr<LocationDelay>> state(n);
  std::vector<DelayResult> partial(n);
  ParallelFor(held.size(), options.threads, [&](size_t i) {
    uint32_t loc = held[i];
    state[loc] = std::make_unique<LocationDelay>(trace, sp, slots, delayers, loc, severities[loc],
                                                 options.semantics);
  });
  replay::Pass pass(plan.schedule, sp.share.distributed() ? sp.share.comm : nullptr);
  // A waiter's message to a delayer on another rank: consumed by that rank's step, which knows
  // the edge by its global id.
  if (sp.share.distributed()) {
    pass.SetEdgeNames(sp.global_edge);
    for (uint32_t e = 0; e < edges; ++e) {
      if (sp.Crosses(e) && sp.share.Holds(sp.edges[e].waiter)) {
        pass.SetRemoteConsumer(e, sp.other_rank[e]);
      }
    }
  }
  replay::Mailbox<std::unique_ptr<WaitMessage>> mail(pass);
  replay::ReturnBox<internal::Explanation> explained(edges);
  replay::PassStats stats = pass.Run(options.threads, [&](uint32_t loc, uint32_t) {
    LocationDelay& location = *state[loc];
    const uint32_t role = location.NextEdgeRole();
    if (sp.locations[loc].roles[role].kind == RoleKind::kWaiter) {
      location.Waiter(role, mail, explained);
    } else {
      location.Delayer(role, mail, explained, partial[loc]);
    }
  });
  if (sp.share.distributed()) ReturnExplanations(sp, delayers, stats.broken_edges, explained);

  // Each location classifies its waits and frees its state on the same task.
  ParallelFor(held.size(), options.threads, [&](size_t i) {
    std::unique_ptr<LocationDelay>& location = state[held[i]];
    location->Classify(explained);
    location.reset();
  });

  MessagePool::Clear();
  DelayResult result;
  for (uint32_t loc = 0; loc < n; ++loc) {
    result.unexplained_waits += partial[loc].unexplained_waits;
    result.unexplained_ticks += partial[loc].unexplained_ticks;
    result.diagnostics.Merge(partial[loc].diagnostics);
  }
  result.broken_edges = stats.broken_edges.size();

  if (!stats.broken_edges.empty()) {
    // Named by the first edge broken in the whole pass (distributed: by whichever rank broke it).
    result.diagnostics.Report(kBrokenSynchronisation,
                              "edge " + std::to_string(sp.GlobalEdge(stats.broken_edges.front())),
                              stats.broken_edges.size(), stats.broken_at_stall.front());
  }
  return result;
}

DelayCostMetrics DelayCostMetricsOf(SyncPattern p) {
  const PatternMetrics& m = MetricsOf(p);
  return {m.short_term, m.long_term};
}

}  // namespace cw::analysis
