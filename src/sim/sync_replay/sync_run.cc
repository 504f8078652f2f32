// Runs SyncReplay (sync_replay.h): the phases' change on the locations a change touches, then
// the points of every location in turns, each waiting for its partners' publications.
#include <algorithm>
#include <cmath>

#include "sim/internal/clock_changes.h"
#include "sim/internal/matching.h"
#include "sim/sync_replay/sync_replay.h"

namespace cw::sim {

using trace::EventKind;
using trace::kNone;

using internal::Applies;
using internal::CallChangeTicks;
using internal::ComputeWindowTicks;

namespace {

constexpr int64_t kUnknown = INT64_MIN;
constexpr int64_t kWaiting = INT64_MIN + 1;

}  // namespace

class SyncReplayRun {
 public:
  SyncReplayRun(const SyncReplay& r, const Perturbation& p)
      : r_(r),
        p_(p),
        changes_(internal::CallChangesByCallpath(
            p, static_cast<double>(r.trace_.defs.clock.resolution))) {}

  std::optional<ReplayResult> Run();
  // The unchanged run as measured: every location ends when it ended.
  ReplayResult Measured() const;

 private:
  // The result once every location's simulated end is known (`end[l]`, relative).
  ReplayResult Outcome(const std::vector<int64_t>& end) const;
  enum class Step { kDone, kBlocked };
  // The change of a location's phases: per point, since the previous one (the last entry:
  // after the last point); per send, since the point before it. Empty if none.
  struct Phases {
    std::vector<int64_t> points;
    std::vector<int64_t> sends;
  };

  struct LaneState {
    size_t point = 0;
    size_t sent = 0;  // cursors into the location's sent messages, members and extras
    size_t member = 0;
    size_t extra = 0;
    uint32_t received = 0;
    int64_t sim = 0;   // simulated and measured time of the last point's leave
    int64_t meas = 0;  // (at first: of the location's first event)
    int64_t enter_sim = 0;
    bool published = false;
    bool queued = false;
    bool finished = false;
    uint32_t next_waiter = kNone;
  };
  struct InstanceState {
    uint32_t arrived = 0;
    int64_t latest_sim = 0;
    int64_t root_sim = kUnknown;
    uint32_t waiters = kNone;
  };

  // The change of each phase of location `l` (per point: since the previous one; last: after
  // the last point), or nothing if no change touches it.
  Phases PhaseChanges(uint32_t l) const;
  bool Touched(uint32_t l) const;
  CallChangeTicks ChangeOf(uint32_t callpath) const {
    return callpath < changes_.size() ? changes_[callpath] : CallChangeTicks{};
  }
  Step Advance(uint32_t l);
  // Publish, PublishSends and AwaitPartners (and, inside them, AwaitCollective, Wake and a
  // side's Publish) are inlined into Advance, which calls them per point: as calls, their
  // entries and exits cost a quarter of the run (61 M of the benchmark's 2M trace's replay
  // against 45 M inlined).
  [[gnu::always_inline]] void Publish(uint32_t l, const SyncReplay::Point& point,
                                      int64_t enter_sim);
  // Publishes the location's sends up to `end` (of its sent messages), each at its call's enter
  // after the last point's leave.
  [[gnu::always_inline]] void PublishSends(uint32_t l, size_t end);
  // Adds what the point's partners make it wait for to `ready_*`; false (and the lane waits)
  // if a partner has not published yet.
  [[gnu::always_inline]] bool AwaitPartners(uint32_t l, const SyncReplay::Point& point,
                                            int64_t& ready_meas, int64_t& ready_sim);
  [[gnu::always_inline]] bool AwaitCollective(uint32_t l, uint32_t member, int64_t leave,
                                              int64_t& ready_meas, int64_t& ready_sim);

  void WaitForInstance(InstanceState& inst, uint32_t l) {
    lanes_[l].next_waiter = inst.waiters;
    inst.waiters = l;
  }
  [[gnu::always_inline]] void Wake(uint32_t l);
  void WakeAll(InstanceState& inst);

  const SyncReplay& r_;
  const Perturbation& p_;
  std::vector<CallChangeTicks> changes_;
  std::vector<Phases> phase_change_;  // per location
  std::vector<LaneState> lanes_;
  // A side of a message another location waits for: when it was published and the measured
  // enter of the call that published it. Before it is published, `sim` says who waits for it:
  // kUnknown (nobody) or kWaiting + the waiting location. 16 bytes: the replay writes one per
  // message, in the receivers' order, which is the traffic that decides its speed.
  struct Side {
    int64_t sim = kUnknown;
    int64_t measured = 0;
    bool published() const { return sim > kWaiting + UINT32_MAX; }
  };
  [[gnu::always_inline]] void Publish(Side& side, int64_t sim, int64_t measured) {
    if (side.sim != kUnknown && !side.published()) Wake(static_cast<uint32_t>(side.sim - kWaiting));
    side.sim = sim;
    side.measured = measured;
  }
  std::vector<Side> sends_;     // per message: its send
  std::vector<Side> postings_;  // per rendezvous message: its receive's posting
  std::vector<InstanceState> instances_;
  InstanceState finalize_;
  std::vector<uint32_t> runnable_;
};

bool SyncReplayRun::Touched(uint32_t l) const {
  if (!changes_.empty()) return true;  // a changed call may be anywhere
  for (const ComputeWindow& w : p_.windows) {
    if (w.location == l && w.end > w.begin) return true;
  }
  return std::any_of(p_.compute.begin(), p_.compute.end(), [this, l](const ComputeScale& rule) {
    return Applies(rule, l, r_.lanes_[l].rank);
  });
}

// Steps through the location's events as the event replay's local clock does (StepClock,
// LocalEvent): each gap between two events outside the calls is computation at the factor of
// the innermost region's call path, and a call that is no point lasts its cost after the call
// changes. The calls themselves are not stepped into.
SyncReplayRun::Phases SyncReplayRun::PhaseChanges(uint32_t l) const {
  const SyncReplay::Lane& lane = r_.lanes_[l];
  const trace::LocationEvents& ev = r_.trace_.location(l);
  const trace::Definitions& defs = r_.trace_.defs;
  std::vector<std::pair<uint32_t, double>> rules;  // call path, factor; later rules win
  for (const ComputeScale& rule : p_.compute) {
    if (Applies(rule, l, lane.rank)) rules.emplace_back(rule.callpath, rule.factor);
  }
  std::vector<ComputeWindowTicks> windows;
  for (const ComputeWindow& w : p_.windows) {
    if (w.location == l && w.end > w.begin) {
      windows.push_back(ComputeWindowTicks{static_cast<int64_t>(w.begin) - r_.base_,
                                           static_cast<int64_t>(w.end) - r_.base_, w.factor});
    }
  }
  std::sort(
      windows.begin(), windows.end(),
      [](const ComputeWindowTicks& a, const ComputeWindowTicks& b) { return a.begin < b.begin; });
  Phases out;
  out.points.assign(lane.points.size() + 1, 0);
  out.sends.reserve(lane.sends.size());
  std::vector<double> factors;
  size_t next_point = 0;
  size_t next_window = 0;
  int64_t change = 0;
  int64_t measured = lane.first;
  const uint32_t n = ev.size();
  for (uint32_t i = 0; i < n; ++i) {
    const int64_t t = static_cast<int64_t>(ev.time(i)) - r_.base_;
    if (i > 0) {
      const int64_t gap = t - measured;
      const double factor = factors.empty() ? 1.0 : factors.back();
      int64_t scaled =
          factor == 1 ? gap : static_cast<int64_t>(std::llround(static_cast<double>(gap) * factor));
      if (gap > 0 && !windows.empty())
        scaled = internal::WindowScaled(windows, next_window, t - gap, t, scaled);
      change += scaled - gap;
    }
    const EventKind kind = ev.kind(i);
    if (kind == EventKind::kEnter) {
      const uint32_t callpath = ev.ref(i);
      const uint32_t region = r_.trace_.CallpathRegion(callpath);
      if (region < defs.regions.size() && defs.regions[region].mpi.is_mpi()) {
        const uint32_t leave = ev.pair(i);
        const int64_t left = static_cast<int64_t>(ev.time(leave)) - r_.base_;
        // The call's sends publish at its enter.
        for (uint32_t k = i + 1; k < leave; ++k) {
          const EventKind record = ev.kind(k);
          if (record == EventKind::kMpiSend || record == EventKind::kMpiIsend)
            out.sends.push_back(change);
        }
        if (next_point < lane.points.size() && lane.points[next_point].enter_event == i) {
          out.points[next_point++] = change;
          change = 0;
        } else if (callpath < changes_.size()) {
          const CallChangeTicks& c = changes_[callpath];
          const int64_t cost = left - t;
          const int64_t own = std::min(c.remove ? 0 : cost, c.max_cost);
          change += std::max<int64_t>(0, own) - cost;
        }
        measured = left;
        i = leave;
        continue;
      }
      double factor = 1;
      for (const auto& [path, f] : rules) {
        if (path == callpath) factor = f;
      }
      factors.push_back(factor);
    } else if (kind == EventKind::kLeave && !factors.empty()) {
      factors.pop_back();
    }
    measured = t;
  }
  out.points.back() = change;
  return out;
}

inline void SyncReplayRun::Wake(uint32_t l) {
  if (l == kNone || lanes_[l].queued) return;
  lanes_[l].queued = true;
  runnable_.push_back(l);
}

void SyncReplayRun::WakeAll(InstanceState& inst) {
  for (uint32_t l = inst.waiters; l != kNone;) {
    const uint32_t next = lanes_[l].next_waiter;
    lanes_[l].next_waiter = kNone;
    Wake(l);
    l = next;
  }
  inst.waiters = kNone;
}

inline void SyncReplayRun::Publish(uint32_t l, const SyncReplay::Point& point, int64_t enter_sim) {
  const SyncReplay::Lane& lane = r_.lanes_[l];
  const LaneState& st = lanes_[l];
  for (size_t x = st.extra; x < st.extra + point.extras; ++x) {
    const uint32_t extra = lane.extras[x];
    if ((extra & SyncReplay::kPosting) != 0)
      Publish(postings_[extra & ~SyncReplay::kPosting], enter_sim, point.enter);
  }
  if ((point.flags & SyncReplay::kCollective) != 0) {
    const uint32_t member = r_.graph_.by_location[l].collectives[st.member];
    const uint32_t id = r_.instance_of_member_[member];
    const SyncReplay::Instance& info = r_.instances_[id];
    InstanceState& inst = instances_[id];
    inst.latest_sim = inst.arrived == 0 ? enter_sim : std::max(inst.latest_sim, enter_sim);
    ++inst.arrived;
    const bool root = member == info.root_member;
    if (root) inst.root_sim = enter_sim;
    if (root || inst.arrived == info.size) WakeAll(inst);
  }
  if ((point.flags & SyncReplay::kFinalize) != 0) {
    finalize_.latest_sim =
        finalize_.arrived == 0 ? enter_sim : std::max(finalize_.latest_sim, enter_sim);
    if (++finalize_.arrived == r_.processes_) WakeAll(finalize_);
  }
}

inline void SyncReplayRun::PublishSends(uint32_t l, size_t end) {
  const SyncReplay::Lane& lane = r_.lanes_[l];
  LaneState& st = lanes_[l];
  const std::vector<uint32_t>& sent = r_.graph_.by_location[l].sent;
  const std::vector<int64_t>& phases = phase_change_[l].sends;
  for (; st.sent < end; ++st.sent) {
    const int64_t enter = lane.sends[st.sent];
    const int64_t sim = st.sim + (enter - st.meas) + (phases.empty() ? 0 : phases[st.sent]);
    Publish(sends_[sent[st.sent]], sim, enter);
  }
}

inline bool SyncReplayRun::AwaitCollective(uint32_t l, uint32_t member, int64_t leave,
                                           int64_t& ready_meas, int64_t& ready_sim) {
  using internal::CollectiveFamily;
  const uint32_t id = r_.instance_of_member_[member];
  const SyncReplay::Instance& info = r_.instances_[id];
  InstanceState& inst = instances_[id];
  const bool root = member == info.root_member;
  int64_t needed_meas = 0, needed_sim = 0;
  switch (static_cast<CollectiveFamily>(info.family)) {
    case CollectiveFamily::kOneToAll:
      if (root) return true;
      if (inst.root_sim == kUnknown) {
        WaitForInstance(inst, l);
        return false;
      }
      needed_meas = info.root_enter;
      needed_sim = inst.root_sim;
      break;
    case CollectiveFamily::kAllToOne:
      if (!root) return true;
      [[fallthrough]];
    default:
      if (inst.arrived < info.size) {
        WaitForInstance(inst, l);
        return false;
      }
      needed_meas = info.latest;
      needed_sim = inst.latest_sim;
      break;
  }
  const int64_t e = std::min<int64_t>(0, leave - needed_meas);
  ready_meas = std::max(ready_meas, needed_meas + e);
  ready_sim = std::max(ready_sim, needed_sim + e);
  return true;
}

inline bool SyncReplayRun::AwaitPartners(uint32_t l, const SyncReplay::Point& point,
                                         int64_t& ready_meas, int64_t& ready_sim) {
  const SyncReplay::Lane& lane = r_.lanes_[l];
  const LaneState& st = lanes_[l];
  // A receive waits for its message's send (the event replay's kReceive).
  for (uint32_t k = 0; k < point.receives; ++k) {
    const uint32_t m = st.received + k;
    Side& send = sends_[m];
    if (!send.published()) {
      send.sim = kWaiting + l;
      return false;
    }
    const int64_t e = std::min<int64_t>(0, point.leave - send.measured);
    ready_meas = std::max(ready_meas, send.measured + e);
    ready_sim = std::max(ready_sim, send.sim + e);
  }
  // A rendezvous send waits for its receive's posting, unless the measured run completed it
  // before the posting (it was buffered then, whatever its size: kSend).
  for (size_t x = st.extra; x < st.extra + point.extras; ++x) {
    const uint32_t extra = lane.extras[x];
    if ((extra & SyncReplay::kPosting) != 0) continue;
    Side& posting = postings_[extra];
    if (!posting.published()) {
      posting.sim = kWaiting + l;
      return false;
    }
    const SyncReplay::Rendezvous& m = r_.rendezvous_[extra];
    if (!m.synchronous && m.posted_enter > point.leave) continue;
    const int64_t e = std::min<int64_t>(0, point.leave - m.posted_enter);
    ready_meas = std::max(ready_meas, m.posted_enter + e);
    ready_sim = std::max(ready_sim, posting.sim + e);
  }
  if ((point.flags & SyncReplay::kCollective) != 0 &&
      !AwaitCollective(l, r_.graph_.by_location[l].collectives[st.member], point.leave, ready_meas,
                       ready_sim))
    return false;
  if ((point.flags & SyncReplay::kFinalize) != 0) {
    if (finalize_.arrived < r_.processes_) {
      WaitForInstance(finalize_, l);
      return false;
    }
    const int64_t e = std::min<int64_t>(0, point.leave - r_.finalize_latest_);
    ready_meas = std::max(ready_meas, r_.finalize_latest_ + e);
    ready_sim = std::max(ready_sim, finalize_.latest_sim + e);
  }
  return true;
}

SyncReplayRun::Step SyncReplayRun::Advance(uint32_t l) {
  const SyncReplay::Lane& lane = r_.lanes_[l];
  LaneState& st = lanes_[l];
  const std::vector<int64_t>& phases = phase_change_[l].points;
  while (st.point < lane.points.size()) {
    const SyncReplay::Point& point = lane.points[st.point];
    const CallChangeTicks change = ChangeOf(point.callpath);
    if (!st.published) {
      PublishSends(l, st.sent + point.sends);
      st.enter_sim = st.sim + (point.enter - st.meas) + (phases.empty() ? 0 : phases[st.point]);
      st.published = true;
      // A removed call publishes nothing and waits for nobody (Run refused removed calls that
      // send or receive).
      if (!change.remove) Publish(l, point, st.enter_sim);
    }
    int64_t ready_meas = point.enter;
    int64_t ready_sim = st.enter_sim;
    if (!change.remove && !AwaitPartners(l, point, ready_meas, ready_sim)) return Step::kBlocked;
    const int64_t own = std::min(change.remove ? 0 : point.leave - ready_meas, change.max_cost);
    st.sim = ready_sim + std::max<int64_t>(0, own);
    st.meas = point.leave;
    st.received += point.receives;
    st.extra += point.extras;
    st.member += (point.flags & SyncReplay::kCollective) != 0 ? 1 : 0;
    st.published = false;
    ++st.point;
  }
  PublishSends(l, lane.sends.size());
  return Step::kDone;
}

std::optional<ReplayResult> SyncReplayRun::Run() {
  const uint32_t locations = static_cast<uint32_t>(r_.lanes_.size());
  // A removed call that sends or receives would leave its messages to pair with other calls:
  // only the event replay follows that.
  for (uint32_t cp = 0; cp < changes_.size(); ++cp) {
    if (changes_[cp].remove && cp < r_.p2p_callpath_.size() && r_.p2p_callpath_[cp] != 0)
      return std::nullopt;
  }
  phase_change_.assign(locations, {});
  for (uint32_t l = 0; l < locations; ++l) {
    if (Touched(l)) phase_change_[l] = PhaseChanges(l);
  }
  sends_.assign(r_.graph_.messages.size(), Side{});
  postings_.assign(r_.rendezvous_.size(), Side{});
  instances_.assign(r_.instances_.size(), InstanceState{});
  lanes_.assign(locations, LaneState{});
  for (uint32_t l = 0; l < locations; ++l) {
    lanes_[l].sim = lanes_[l].meas = r_.lanes_[l].first;
    lanes_[l].received = r_.graph_.by_location[l].first_received;
    lanes_[l].queued = true;
  }
  for (uint32_t l = locations; l > 0; --l) runnable_.push_back(l - 1);
  uint32_t done = 0;
  while (!runnable_.empty()) {
    const uint32_t l = runnable_.back();
    runnable_.pop_back();
    lanes_[l].queued = false;
    if (lanes_[l].finished) continue;
    if (Advance(l) == Step::kDone) {
      lanes_[l].finished = true;
      ++done;
    }
  }
  if (done != locations) return std::nullopt;  // a stall: the event replay's rules decide it
  std::vector<int64_t> end(locations);
  for (uint32_t l = 0; l < locations; ++l) {
    const LaneState& st = lanes_[l];
    const std::vector<int64_t>& phases = phase_change_[l].points;
    end[l] = st.sim + (r_.lanes_[l].last - st.meas) + (phases.empty() ? 0 : phases.back());
  }
  return Outcome(end);
}

ReplayResult SyncReplayRun::Measured() const {
  std::vector<int64_t> end;
  for (const SyncReplay::Lane& lane : r_.lanes_) end.push_back(lane.last);
  return Outcome(end);
}

ReplayResult SyncReplayRun::Outcome(const std::vector<int64_t>& end) const {
  ReplayResult result;
  result.locations.resize(r_.lanes_.size());
  for (uint32_t l = 0; l < r_.lanes_.size(); ++l) {
    const SyncReplay::Lane& lane = r_.lanes_[l];
    LocationOutcome& o = result.locations[l];
    o.events = lane.events;
    o.first = static_cast<uint64_t>(lane.first + r_.base_);
    o.measured_end = static_cast<uint64_t>(lane.last + r_.base_);
    o.predicted_end = static_cast<uint64_t>(end[l] + r_.base_);
    result.measured_begin = l == 0 ? o.first : std::min(result.measured_begin, o.first);
    result.measured_end = std::max(result.measured_end, o.measured_end);
    result.predicted_end = std::max(result.predicted_end, o.predicted_end);
    result.stats.events += lane.events;
  }
  return result;
}

bool SyncReplay::Models(const Perturbation& p) const {
  const NetworkChange& n = p.network;
  if (n.ideal || n.cost_factor != 1 || n.latency || n.per_byte || n.overhead || n.gap ||
      n.eager_limit || n.base_eager_limit != NetworkChange{}.base_eager_limit)
    return false;
  if (p.noise.active()) return false;
  for (const ComputeScale& rule : p.compute) {
    if (rule.callpath == kNone || !rule.region.empty()) return false;
  }
  return true;
}

std::optional<ReplayResult> SyncReplay::Run(const Perturbation& p) const {
  if (!Models(p)) return std::nullopt;
  SyncReplayRun run(*this, p);
  if (p.Empty() && never_stalls_.load()) return run.Measured();
  std::optional<ReplayResult> result = run.Run();
  const bool removes =
      std::any_of(p.calls.begin(), p.calls.end(), [](const CallChange& c) { return c.remove; });
  if (result && !removes) never_stalls_.store(true);
  return result;
}

}  // namespace cw::sim
