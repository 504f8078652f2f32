#include "sim/replay.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <set>
#include <string>

#include "sim/internal/lane.h"
#include "sim/internal/matching.h"
#include "sim/internal/network_model.h"

namespace cw::sim {
namespace {

using internal::CollectiveFamily;
using internal::CollectiveInstance;
using internal::Dependency;
using internal::DependencyKind;
using internal::Lane;
using internal::LaneState;
using internal::MessageSlot;
using internal::Moment;
using trace::EventKind;

// Calls whose cost the network model changes; set-up calls (MPI_Init, communicator creation,
// file I/O, ...) keep theirs.
bool IsCommunication(const trace::MpiFunction& f) {
  switch (f.category) {
    case trace::MpiCategory::kPointToPoint:
    case trace::MpiCategory::kCollective:
    case trace::MpiCategory::kRmaSyncActive:
    case trace::MpiCategory::kRmaSyncPassive:
    case trace::MpiCategory::kRmaComm:
      return true;
    default:
      return false;
  }
}

// MPI_Finalize is collective over all processes: they leave it once the last one entered.
constexpr uint64_t kFinalizeKey = uint64_t{2} << 32;

Dependency MakeDependency(DependencyKind kind, uint32_t id, uint32_t partner) {
  Dependency d;
  d.kind = kind;
  d.id = id;
  d.partner = partner;
  return d;
}

// A ratio x * to / from, for placing the records inside a call.
int64_t Stretch(int64_t x, int64_t from, int64_t to) {
  if (from <= 0) return 0;
  if (from == to) return x;
  return static_cast<int64_t>(
      std::llround(static_cast<double>(x) * static_cast<double>(to) / static_cast<double>(from)));
}

class Engine {
 public:
  Engine(const ReplayInput& input, const ReplayOptions& options)
      : input_(input),
        options_(options),
        defs_(*input.defs),
        network_(options.perturbation.network,
                 static_cast<double>(std::max<uint64_t>(1, input.defs->clock.resolution))),
        base_(static_cast<int64_t>(input.defs->clock.global_offset)) {}

  Result<ReplayResult> Run();

 private:
  int64_t Relative(uint64_t t) const { return static_cast<int64_t>(t) - base_; }
  uint64_t Absolute(int64_t t) const { return static_cast<uint64_t>(t + base_); }

  void SetUpLanes();
  void SetUpComputeRules();
  double RegionFactor(const Lane& lane, uint32_t region, double inherited) const;
  const trace::MpiFunction& FunctionOf(uint32_t region) const;

  void Advance(Lane& lane);
  int64_t StepClock(Lane& lane, const SimEvent& e);
  void Record(Lane& lane, const SimEvent& e, int64_t simulated);
  void LocalEvent(Lane& lane, const SimEvent& e);
  bool BeginCall(Lane& lane);
  void Publish(Lane& lane);
  void PublishCollective(Lane& lane, const SimEvent& e);
  void AddProbe(Lane& lane);
  const SimEvent* FindIrecvCompletion(Lane& lane, size_t from, uint64_t request);
  bool TryFinishCall(Lane& lane);
  void FinishCall(Lane& lane, int64_t ready_measured, int64_t ready_simulated, int64_t leave);
  void Block(Lane& lane, size_t dep);
  void Wake(uint32_t lane);
  void WakeWaiters(CollectiveInstance& inst);
  bool BreakStall();
  void FlushObserved(Lane& lane);
  void JoinFinalize(Lane& lane);
  void AddShift(uint32_t callpath, int64_t absorbed, int64_t gained);
  void CountVisit(uint32_t callpath);

  const ReplayInput& input_;
  const ReplayOptions& options_;
  const trace::Definitions& defs_;
  internal::NetworkModel network_;
  int64_t base_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::deque<uint32_t> runnable_;
  internal::MessageTable messages_;
  internal::CollectiveTable collectives_;
  std::vector<std::vector<uint32_t>> comm_ranks_;  // per communicator: rank of each location
  // Compute-scale rules by region id (indices into the perturbation's list), and the rules
  // that apply to all computation.
  std::vector<std::vector<uint32_t>> region_rules_;
  std::vector<uint32_t> general_rules_;
  ReplayResult result_;
  uint32_t done_lanes_ = 0;
  uint32_t process_count_ = 0;  // MPI ranks among the locations
};

const trace::MpiFunction& Engine::FunctionOf(uint32_t region) const {
  static const trace::MpiFunction kNotMpi;
  return region < defs_.regions.size() ? defs_.regions[region].mpi : kNotMpi;
}

void Engine::SetUpComputeRules() {
  const std::vector<ComputeScale>& rules = options_.perturbation.compute;
  region_rules_.assign(defs_.regions.size(), {});
  for (uint32_t i = 0; i < rules.size(); ++i) {
    if (rules[i].region.empty()) {
      general_rules_.push_back(i);
      continue;
    }
    for (uint32_t r = 0; r < defs_.regions.size(); ++r) {
      if (defs_.regions[r].defined && defs_.str(defs_.regions[r].name) == rules[i].region) {
        region_rules_[r].push_back(i);
      }
    }
  }
}

double Engine::RegionFactor(const Lane& lane, uint32_t region, double inherited) const {
  if (region >= region_rules_.size()) return inherited;
  double factor = inherited;
  for (uint32_t i : region_rules_[region]) {
    const ComputeScale& rule = options_.perturbation.compute[i];
    if (rule.ranks.all() || (lane.rank != kNone && rule.ranks.Contains(lane.rank))) {
      factor = rule.factor;
    }
  }
  return factor;
}

void Engine::SetUpLanes() {
  const Perturbation& p = options_.perturbation;
  std::set<uint32_t> ranks;
  lanes_.reserve(input_.locations);
  for (uint32_t l = 0; l < input_.locations; ++l) {
    auto lane = std::make_unique<Lane>(input_.open(l));
    lane->id = l;
    if (l < defs_.locations.size()) {
      uint32_t group = defs_.locations[l].group;
      if (group < defs_.location_groups.size()) lane->rank = defs_.location_groups[group].rank;
    }
    for (uint32_t i : general_rules_) {
      const ComputeScale& rule = p.compute[i];
      if (rule.ranks.all() || (lane->rank != kNone && rule.ranks.Contains(lane->rank))) {
        lane->base_factor = rule.factor;
      }
    }
    lane->noisy = p.noise.active() && (p.noise_ranks.all() ||
                                       (lane->rank != kNone && p.noise_ranks.Contains(lane->rank)));
    // One generator per location, seeded by run and location: draws do not depend on the order
    // in which locations take their turns.
    std::seed_seq seq{options_.seed, uint64_t{l}, uint64_t{0x63617573}};
    lane->rng.seed(seq);
    if (lane->rank != kNone) ranks.insert(lane->rank);
    lanes_.push_back(std::move(lane));
    runnable_.push_back(l);
    lanes_.back()->queued = true;
  }
  process_count_ = static_cast<uint32_t>(ranks.size());
}

Result<ReplayResult> Engine::Run() {
  if (input_.defs == nullptr || !input_.open) {
    return MakeError(ErrorCode::kInternal, "replay input without definitions or sources");
  }
  SetUpComputeRules();
  SetUpLanes();
  result_.callpaths.resize(0);
  while (done_lanes_ < lanes_.size()) {
    if (runnable_.empty()) {
      if (!BreakStall()) {
        return MakeError(ErrorCode::kInternal, "replay stalled with no rule to resolve it");
      }
      continue;
    }
    uint32_t id = runnable_.front();
    runnable_.pop_front();
    Lane& lane = *lanes_[id];
    lane.queued = false;
    if (lane.state != LaneState::kRunnable) continue;
    Advance(lane);
    FlushObserved(lane);
    if (lane.state == LaneState::kRunnable && !lane.queued) {
      runnable_.push_back(id);
      lane.queued = true;
    }
    result_.stats.peak_messages_in_flight =
        std::max(result_.stats.peak_messages_in_flight, messages_.live_slots());
  }
  result_.stats.unmatched_sends = messages_.unpaired_sends();
  bool any = false;
  for (const auto& lane : lanes_) {
    const LocationOutcome& o = lane->outcome;
    result_.locations.push_back(o);
    if (o.events == 0) continue;
    result_.measured_begin = any ? std::min(result_.measured_begin, o.first) : o.first;
    result_.measured_end = any ? std::max(result_.measured_end, o.measured_end) : o.measured_end;
    result_.predicted_end =
        any ? std::max(result_.predicted_end, o.predicted_end) : o.predicted_end;
    any = true;
    if (std::optional<Error> error = lane->window.source().error()) {
      result_.source_errors.push_back(error->message());
    }
  }
  return std::move(result_);
}

void Engine::FlushObserved(Lane& lane) {
  if (options_.observer == nullptr || lane.done_events.empty()) return;
  options_.observer->OnEvents(lane.id, lane.done_events, lane.done_times);
  lane.done_events.clear();
  lane.done_times.clear();
}

void Engine::Wake(uint32_t id) {
  if (id == kNone) return;
  Lane& lane = *lanes_[id];
  if (lane.state != LaneState::kBlocked) return;
  lane.state = LaneState::kRunnable;
  if (!lane.queued) {
    runnable_.push_back(id);
    lane.queued = true;
  }
}

void Engine::WakeWaiters(CollectiveInstance& inst) {
  std::vector<uint32_t> waiters;
  waiters.swap(inst.waiters);
  for (uint32_t w : waiters) Wake(w);
}

void Engine::Block(Lane& lane, size_t dep) {
  lane.state = LaneState::kBlocked;
  lane.blocked_dep = dep;
  const Dependency& d = lane.call.deps[dep];
  if (d.kind == DependencyKind::kCollective) {
    collectives_.instance(d.id).waiters.push_back(lane.id);
  } else {
    messages_.slot(d.id).waiter = lane.id;
  }
}

void Engine::Advance(Lane& lane) {
  if (lane.call.active && !TryFinishCall(lane)) return;
  for (uint32_t budget = options_.turn_events; budget > 0; --budget) {
    const SimEvent* next = lane.window.Peek(0);
    if (next == nullptr) {
      lane.state = LaneState::kDone;
      ++done_lanes_;
      return;
    }
    if (next->kind == EventKind::kEnter && FunctionOf(next->region).is_mpi() && BeginCall(lane)) {
      result_.stats.peak_buffered_events =
          std::max(result_.stats.peak_buffered_events, lane.window.buffered());
      if (!TryFinishCall(lane)) return;
      continue;
    }
    SimEvent e = *lane.window.Peek(0);
    lane.window.Pop(1);
    LocalEvent(lane, e);
  }
}

// The simulated time of the next event when only the lane's own clock decides it: the measured
// gap since the last event, scaled if it was computation.
int64_t Engine::StepClock(Lane& lane, const SimEvent& e) {
  int64_t t = Relative(e.time);
  if (!lane.started) {
    lane.started = true;
    lane.outcome.first = e.time;
    return t;
  }
  int64_t gap = t - lane.measured;
  double factor = lane.factors.empty() ? lane.base_factor : lane.factors.back();
  int64_t scaled =
      factor == 1 ? gap : static_cast<int64_t>(std::llround(static_cast<double>(gap) * factor));
  if (gap > 0) lane.computed = true;
  if (scaled != gap && !lane.callpaths.empty()) {
    AddShift(lane.callpaths.back(), std::max<int64_t>(0, gap - scaled),
             std::max<int64_t>(0, scaled - gap));
  }
  return lane.simulated + scaled;
}

void Engine::Record(Lane& lane, const SimEvent& e, int64_t simulated) {
  lane.measured = Relative(e.time);
  lane.simulated = simulated;
  ++lane.outcome.events;
  ++result_.stats.events;
  lane.outcome.measured_end = e.time;
  lane.outcome.predicted_end = Absolute(simulated);
  if (options_.observer != nullptr) {
    lane.done_events.push_back(e);
    lane.done_times.push_back(Absolute(simulated));
  }
}

void Engine::LocalEvent(Lane& lane, const SimEvent& e) {
  int64_t s = StepClock(lane, e);
  if (e.kind == EventKind::kEnter) {
    double inherited = lane.factors.empty() ? lane.base_factor : lane.factors.back();
    lane.factors.push_back(RegionFactor(lane, e.region, inherited));
    lane.callpaths.push_back(e.callpath);
    CountVisit(e.callpath);
  } else if (e.kind == EventKind::kLeave && !lane.factors.empty()) {
    lane.factors.pop_back();
    lane.callpaths.pop_back();
  }
  Record(lane, e, s);
}

void Engine::AddShift(uint32_t callpath, int64_t absorbed, int64_t gained) {
  if (callpath == kNone) return;
  if (callpath >= result_.callpaths.size()) result_.callpaths.resize(callpath + 1);
  result_.callpaths[callpath].absorbed += absorbed;
  result_.callpaths[callpath].gained += gained;
}

void Engine::CountVisit(uint32_t callpath) {
  if (callpath == kNone) return;
  if (callpath >= result_.callpaths.size()) result_.callpaths.resize(callpath + 1);
  ++result_.callpaths[callpath].visits;
}

void Engine::JoinFinalize(Lane& lane) {
  uint32_t id = collectives_.Join(kFinalizeKey, 0, process_count_);
  CollectiveInstance& inst = collectives_.instance(id);
  inst.Arrive(lane.call.enter);
  Dependency dep = MakeDependency(DependencyKind::kCollective, id, kNone);
  dep.members = process_count_;
  lane.call.deps.push_back(dep);
  WakeWaiters(inst);
}

// Takes the MPI call at the window's head whole (Enter to its Leave). False if its Leave is
// missing (the location's events end inside it): its events are then replayed as local ones.
bool Engine::BeginCall(Lane& lane) {
  size_t depth = 0;
  size_t k = 0;
  for (;; ++k) {
    const SimEvent* e = lane.window.Peek(k);
    if (e == nullptr) {
      ++result_.stats.unclosed_calls;
      return false;
    }
    if (e->kind == EventKind::kEnter) ++depth;
    if (e->kind == EventKind::kLeave && --depth == 0) break;
  }
  SimEvent enter = *lane.window.Peek(0);
  internal::OpenCall& call = lane.call;
  call.active = true;
  call.leave = k;
  call.callpath = enter.callpath;
  call.function = FunctionOf(enter.region);
  call.deps.clear();
  call.overhead = 0;
  int64_t s = StepClock(lane, enter);
  bool communication = IsCommunication(call.function);
  // Noise falls on the computation between two communication calls (seed 001's local edges):
  // the set-up calls in between (MPI_Comm_rank, ...) do not start a phase of their own.
  if (communication && lane.computed) {
    if (lane.noisy) {
      int64_t noise =
          static_cast<int64_t>(std::llround(options_.perturbation.noise.Draw(lane.rng) *
                                            static_cast<double>(defs_.clock.resolution)));
      s += noise;
      if (!lane.callpaths.empty() && noise > 0) AddShift(lane.callpaths.back(), 0, noise);
    }
    lane.computed = false;
  }
  call.enter = Moment{s, Relative(enter.time)};
  CountVisit(enter.callpath);
  Publish(lane);
  if (call.function.has(trace::kMpiProbe) && !call.function.has(trace::kMpiTest)) AddProbe(lane);
  if (call.function.has(trace::kMpiFinalize) && lane.rank != kNone) JoinFinalize(lane);
  return true;
}

// Makes what the call starts visible to its partners: sends, receive postings, collective
// arrivals. Their times are the call's Enter, known before the call's end is.
void Engine::Publish(Lane& lane) {
  internal::OpenCall& call = lane.call;
  for (size_t k = 1; k < call.leave; ++k) {
    SimEvent e = *lane.window.Peek(k);
    uint32_t wake = kNone;
    switch (e.kind) {
      case EventKind::kMpiSend:
      case EventKind::kMpiIsend: {
        if (e.peer == kNone) {
          ++result_.stats.undefined_comms;
          break;
        }
        Moment start = call.enter;
        if (network_.has_gap()) {
          start.sim = std::max(start.sim, lane.last_injection + network_.gap());
          lane.last_injection = start.sim;
        }
        bool synchronous = call.function.has(trace::kMpiSynchronous);
        uint32_t slot = messages_.PublishSend({e.comm, lane.id, e.peer, e.tag}, start, e.bytes,
                                              synchronous, &wake);
        ++result_.stats.messages;
        call.overhead += network_.overhead();
        if (e.kind == EventKind::kMpiIsend) {
          lane.requests.Insert(e.request, internal::Request{slot, {}, true});
        } else {
          call.deps.push_back(MakeDependency(DependencyKind::kSend, slot, e.peer));
        }
        break;
      }
      case EventKind::kMpiIrecvRequest: {
        // MPI pairs receives in the order they were posted, and a rendezvous sender waits for
        // the posting, so the receive is published now if its envelope (known only from its
        // completion record) is found by reading ahead.
        uint32_t slot = kNone;
        if (const SimEvent* done = FindIrecvCompletion(lane, k, e.request)) {
          slot = messages_.PublishReceive({done->comm, done->peer, lane.id, done->tag}, call.enter,
                                          &wake);
        }
        lane.requests.Insert(e.request, internal::Request{slot, call.enter, false});
        break;
      }
      case EventKind::kMpiRecv:
      case EventKind::kMpiIrecv: {
        if (e.peer == kNone) {
          ++result_.stats.undefined_comms;
          break;
        }
        Moment posted = call.enter;
        uint32_t slot = kNone;
        if (e.kind == EventKind::kMpiIrecv) {
          if (internal::Request* r = lane.requests.Find(e.request); r != nullptr && !r->is_send) {
            posted = r->posted;
            slot = r->slot;
            lane.requests.Erase(e.request);
          }
        }
        if (slot == kNone) {
          slot = messages_.PublishReceive({e.comm, e.peer, lane.id, e.tag}, posted, &wake);
        }
        call.overhead += network_.overhead();
        call.deps.push_back(MakeDependency(DependencyKind::kReceive, slot, e.peer));
        break;
      }
      case EventKind::kMpiIsendComplete:
        if (internal::Request* r = lane.requests.Find(e.request); r != nullptr && r->is_send) {
          call.deps.push_back(MakeDependency(DependencyKind::kSend, r->slot, kNone));
          lane.requests.Erase(e.request);
        }
        break;
      case EventKind::kMpiRequestCancelled:
        lane.requests.Erase(e.request);
        break;
      case EventKind::kMpiCollectiveEnd:
      case EventKind::kRmaCollectiveEnd:
        PublishCollective(lane, e);
        break;
      default:
        break;
    }
    Wake(wake);
  }
}

void Engine::PublishCollective(Lane& lane, const SimEvent& e) {
  uint32_t comm = e.comm;
  bool window = e.kind == EventKind::kRmaCollectiveEnd;
  if (window) {
    comm = comm < defs_.windows.size() && defs_.windows[comm].defined ? defs_.windows[comm].comm
                                                                      : kNone;
  }
  if (comm >= defs_.comms.size() || !defs_.comms[comm].defined) {
    ++result_.stats.undefined_comms;
    return;
  }
  const trace::Comm& c = defs_.comms[comm];
  uint64_t key = (uint64_t{window} << 32) | e.comm;
  uint32_t sequence = 0;
  if (uint32_t* seq = lane.collective_sequence.Find(key)) {
    sequence = ++*seq;
  } else {
    lane.collective_sequence.Insert(key, 0);
  }
  uint32_t id = collectives_.Join(key, sequence, c.size());
  CollectiveInstance& inst = collectives_.instance(id);
  const Moment& arrival = lane.call.enter;
  inst.Arrive(arrival);
  Dependency dep = MakeDependency(DependencyKind::kCollective, id, kNone);
  dep.family = internal::FamilyOf(e.op);
  dep.op = e.op;
  dep.members = c.size();
  dep.bytes = e.bytes;
  dep.is_root = e.peer == lane.id;
  if (dep.is_root) {
    inst.root = arrival;
    inst.root_arrived = true;
  }
  if (dep.family == CollectiveFamily::kPrefix) {
    if (comm >= comm_ranks_.size()) comm_ranks_.resize(comm + 1);
    std::vector<uint32_t>& ranks = comm_ranks_[comm];
    if (ranks.empty()) {
      ranks.assign(lanes_.size(), kNone);
      for (uint32_t r = 0; r < c.rank_to_location.size(); ++r) {
        if (c.rank_to_location[r] < ranks.size()) ranks[c.rank_to_location[r]] = r;
      }
    }
    dep.rank = c.is_self ? 0 : ranks[lane.id];
    if (dep.rank == kNone) {
      ++result_.stats.undefined_comms;
      return;
    }
    inst.by_rank.resize(c.size());
    inst.rank_arrived.resize(c.size());
    inst.by_rank[dep.rank] = arrival;
    inst.rank_arrived[dep.rank] = 1;
  }
  ++result_.stats.collectives;
  lane.call.deps.push_back(dep);
  WakeWaiters(inst);
}

// The completion record (MpiIrecv) of the receive request `request` posted at window position
// `from`, if it lies within the read-ahead limit; nullptr otherwise.
const SimEvent* Engine::FindIrecvCompletion(Lane& lane, size_t from, uint64_t request) {
  constexpr size_t kLookahead = 1 << 14;
  for (size_t k = from + 1; k < from + kLookahead; ++k) {
    const SimEvent* e = lane.window.Peek(k);
    if (e == nullptr) return nullptr;
    if (e->request != request) continue;
    if (e->kind == EventKind::kMpiIrecv) return e->peer == kNone ? nullptr : e;
    if (e->kind == EventKind::kMpiRequestCancelled) return nullptr;
  }
  return nullptr;
}

// A blocking probe returns once the message it found is there: the one the next receive on the
// location takes (read ahead to it), whose slot the probe takes early.
void Engine::AddProbe(Lane& lane) {
  constexpr size_t kLookahead = 1 << 16;
  for (size_t k = lane.call.leave + 1; k < lane.call.leave + kLookahead; ++k) {
    const SimEvent* e = lane.window.Peek(k);
    if (e == nullptr) return;
    if ((e->kind == EventKind::kMpiRecv || e->kind == EventKind::kMpiIrecv) && e->peer != kNone) {
      uint32_t slot = messages_.PeekForReceive({e->comm, e->peer, lane.id, e->tag});
      lane.call.deps.push_back(MakeDependency(DependencyKind::kProbe, slot, e->peer));
      return;
    }
  }
}

bool Engine::TryFinishCall(Lane& lane) {
  internal::OpenCall& call = lane.call;
  int64_t leave = Relative(lane.window.Peek(call.leave)->time);
  int64_t ready_measured = call.enter.measured;
  int64_t ready_sim = call.enter.sim;
  // The offset keeps a dependency the measured clocks put after the call's end from moving it:
  // identity holds even where the clock condition does not.
  auto offset = [leave](int64_t t) { return std::min<int64_t>(0, leave - t); };
  for (size_t i = 0; i < call.deps.size(); ++i) {
    Dependency& d = call.deps[i];
    if (d.dropped) continue;
    switch (d.kind) {
      case DependencyKind::kReceive:
      case DependencyKind::kProbe: {
        MessageSlot& m = messages_.slot(d.id);
        if (!m.send_known) {
          Block(lane, i);
          return false;
        }
        int64_t e = offset(m.send.measured);
        ready_measured = std::max(ready_measured, m.send.measured + e);
        ready_sim = std::max(ready_sim, m.send.sim + e + network_.TransferDelta(m.bytes));
        if (options_.collect_transfers && d.kind == DependencyKind::kReceive &&
            m.send.measured > call.enter.measured && m.send.measured <= leave) {
          result_.transfers.push_back(
              TransferSample{m.bytes, static_cast<uint64_t>(leave - m.send.measured)});
        }
        break;
      }
      case DependencyKind::kSend: {
        MessageSlot& m = messages_.slot(d.id);
        bool measured_rdv = m.synchronous || network_.MeasuredRendezvous(m.bytes);
        if (!m.recv_known) {
          if (!m.synchronous && m.bytes <= network_.smallest_eager_limit()) break;
          Block(lane, i);
          return false;
        }
        // A send that completed before its receive was posted was buffered, whatever its size.
        if (!m.synchronous && m.posted.measured > leave) measured_rdv = false;
        bool replay_rdv = m.synchronous || network_.ReplayRendezvous(m.bytes, measured_rdv);
        int64_t e = measured_rdv ? offset(m.posted.measured) : 0;
        if (measured_rdv) ready_measured = std::max(ready_measured, m.posted.measured + e);
        if (replay_rdv) {
          ready_sim = std::max(ready_sim, m.posted.sim + e + network_.HandshakeDelta());
        }
        break;
      }
      case DependencyKind::kCollective: {
        CollectiveInstance& inst = collectives_.instance(d.id);
        const Moment* needed = nullptr;
        switch (d.family) {
          case CollectiveFamily::kOneToAll:
            if (d.is_root) break;
            if (!inst.root_arrived) {
              Block(lane, i);
              return false;
            }
            needed = &inst.root;
            break;
          case CollectiveFamily::kAllToOne:
            if (!d.is_root) break;
            [[fallthrough]];
          case CollectiveFamily::kAllToAll:
            if (inst.arrived < inst.size) {
              Block(lane, i);
              return false;
            }
            needed = &inst.latest;
            break;
          case CollectiveFamily::kPrefix: {
            for (uint32_t r = 0; r <= d.rank; ++r) {
              if (!inst.rank_arrived[r]) {
                Block(lane, i);
                return false;
              }
            }
            int64_t delta = network_.CollectiveDelta(d.op, d.members, d.bytes);
            for (uint32_t r = 0; r <= d.rank; ++r) {
              int64_t e = offset(inst.by_rank[r].measured);
              ready_measured = std::max(ready_measured, inst.by_rank[r].measured + e);
              ready_sim = std::max(ready_sim, inst.by_rank[r].sim + e + delta);
            }
            break;
          }
        }
        if (needed != nullptr) {
          int64_t e = offset(needed->measured);
          ready_measured = std::max(ready_measured, needed->measured + e);
          ready_sim = std::max(
              ready_sim, needed->sim + e + network_.CollectiveDelta(d.op, d.members, d.bytes));
        }
        break;
      }
    }
  }
  FinishCall(lane, ready_measured, ready_sim, leave);
  return true;
}

// Places the call's events: the part before the call was ready stretches from Enter to the new
// ready time, the rest (the call's own cost) from there to the new Leave.
void Engine::FinishCall(Lane& lane, int64_t ready_measured, int64_t ready_sim, int64_t leave) {
  internal::OpenCall& call = lane.call;
  int64_t cost = leave - ready_measured;
  // Set-up calls (MPI_Init, communicator creation, file I/O, ...) keep their cost: the network
  // model describes communication.
  bool communication = IsCommunication(call.function);
  int64_t leave_sim = ready_sim + (communication ? network_.Cost(cost) : cost) + call.overhead;
  int64_t enter_measured = call.enter.measured;
  int64_t previous = call.enter.sim;
  for (size_t k = 0; k <= call.leave; ++k) {
    SimEvent e = *lane.window.Peek(k);
    int64_t t = Relative(e.time);
    int64_t s;
    if (k == 0) {
      s = call.enter.sim;
    } else if (k == call.leave) {
      s = leave_sim;
    } else if (t <= ready_measured) {
      s = call.enter.sim +
          Stretch(t - enter_measured, ready_measured - enter_measured, ready_sim - call.enter.sim);
    } else {
      s = ready_sim + Stretch(t - ready_measured, cost, leave_sim - ready_sim);
    }
    if (k != 0 && k != call.leave) s = std::clamp(s, previous, std::max(previous, leave_sim));
    previous = s;
    Record(lane, e, s);
  }
  int64_t shift_in = call.enter.sim - call.enter.measured;
  int64_t shift_out = leave_sim - leave;
  AddShift(call.callpath, std::max<int64_t>(0, shift_in - shift_out),
           std::max<int64_t>(0, shift_out - shift_in));
  for (const Dependency& d : call.deps) {
    if (d.kind == DependencyKind::kCollective) {
      collectives_.Finish(d.id);
    } else if (d.kind != DependencyKind::kProbe) {
      messages_.Release(d.id);
    }
  }
  lane.window.Pop(call.leave + 1);
  call.active = false;
}

// Every location waits: give up one wait, by the first rule that applies (replay.h).
bool Engine::BreakStall() {
  auto drop = [this](Lane& lane, uint64_t& counter) {
    lane.call.deps[lane.blocked_dep].dropped = true;
    ++counter;
    const Dependency& d = lane.call.deps[lane.blocked_dep];
    if (d.kind == DependencyKind::kCollective) {
      std::vector<uint32_t>& w = collectives_.instance(d.id).waiters;
      w.erase(std::remove(w.begin(), w.end(), lane.id), w.end());
    } else if (messages_.slot(d.id).waiter == lane.id) {
      messages_.slot(d.id).waiter = kNone;
    }
    Wake(lane.id);
    return true;
  };
  ReplayStats& stats = result_.stats;
  for (auto& lane : lanes_) {
    if (lane->state == LaneState::kBlocked &&
        lane->call.deps[lane->blocked_dep].kind == DependencyKind::kSend) {
      return drop(*lane, stats.eager_resolved);
    }
  }
  for (auto& lane : lanes_) {
    if (lane->state != LaneState::kBlocked) continue;
    const Dependency& d = lane->call.deps[lane->blocked_dep];
    if (d.kind == DependencyKind::kReceive || d.kind == DependencyKind::kProbe) {
      if (d.partner == kNone || lanes_[d.partner]->state == LaneState::kDone) {
        return drop(*lane, stats.unmatched_receives);
      }
    }
  }
  for (auto& lane : lanes_) {
    if (lane->state == LaneState::kBlocked &&
        lane->call.deps[lane->blocked_dep].kind == DependencyKind::kCollective) {
      return drop(*lane, stats.incomplete_collectives);
    }
  }
  for (auto& lane : lanes_) {
    if (lane->state == LaneState::kBlocked) return drop(*lane, stats.cycles_broken);
  }
  return false;
}

}  // namespace

Result<ReplayResult> RunReplay(const ReplayInput& input, const ReplayOptions& options) {
  Engine engine(input, options);
  return engine.Run();
}

}  // namespace cw::sim
