#include "sim/internal/engine.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>

namespace cw::sim::internal {

using trace::EventKind;

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

Dependency MakeDependency(DependencyKind kind, uint32_t id, uint32_t partner) {
  Dependency d;
  d.kind = kind;
  d.id = id;
  d.partner = partner;
  return d;
}

const trace::MpiFunction& Engine::FunctionOf(uint32_t region) const {
  static const trace::MpiFunction kNotMpi;
  return region < defs_.regions.size() ? defs_.regions[region].mpi : kNotMpi;
}

void Engine::SetUpComputeRules() {
  const std::vector<ComputeScale>& rules = options_.perturbation.compute;
  region_rules_.assign(defs_.regions.size(), {});
  for (uint32_t i = 0; i < rules.size(); ++i) {
    if (rules[i].callpath != kNone) {
      if (std::vector<uint32_t>* listed = callpath_rules_.Find(rules[i].callpath)) {
        listed->push_back(i);
      } else {
        callpath_rules_.Insert(rules[i].callpath, {i});
      }
      continue;
    }
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
    if (Applies(options_.perturbation.compute[i], lane.id, lane.rank))
      factor = options_.perturbation.compute[i].factor;
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
      if (Applies(p.compute[i], lane->id, lane->rank)) lane->base_factor = p.compute[i].factor;
    }
    for (const ComputeWindow& w : p.windows) {
      if (w.location == l && w.end > w.begin) {
        lane->windows.push_back(Lane::Window{Relative(w.begin), Relative(w.end), w.factor});
      }
    }
    std::sort(lane->windows.begin(), lane->windows.end(),
              [](const Lane::Window& a, const Lane::Window& b) { return a.begin < b.begin; });
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
  SetUpComputeRules();
  SetUpShmemRegions();
  SetUpCallChanges();
  CW_ASSIGN_OR_RETURN(plan_, BuildOneSidedPlan(input_));
  SetUpOmp();
  SetUpLanes();
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
    if (std::optional<Error> error = lane->window.source().error()) {
      result_.source_errors.push_back(error->message());
    }
    result_.diagnostics.Merge(lane->window.source().diagnostics());
    if (o.events == 0) continue;
    result_.measured_begin = any ? std::min(result_.measured_begin, o.first) : o.first;
    result_.measured_end = any ? std::max(result_.measured_end, o.measured_end) : o.measured_end;
    result_.predicted_end =
        any ? std::max(result_.predicted_end, o.predicted_end) : o.predicted_end;
    any = true;
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
    if (next->omp && BeginOmpWait(lane, *next)) {
      if (!TryFinishCall(lane)) return;
      continue;
    }
    if (next->kind == EventKind::kEnter && StartsCall(next->region) && BeginCall(lane)) {
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
  double factor = lane.factors.empty() ? lane.base_factor : lane.factors.back().own;
  int64_t scaled =
      factor == 1 ? gap : static_cast<int64_t>(std::llround(static_cast<double>(gap) * factor));
  if (gap > 0 && !lane.windows.empty())
    scaled = WindowScaled(lane.windows, lane.next_window, t - gap, t, scaled);
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
    const double inherited =
        lane.factors.empty() ? lane.base_factor : lane.factors.back().inherited;
    Lane::Factors factors;
    factors.own = factors.inherited = RegionFactor(lane, e.region, inherited);
    if (const auto* rules = callpath_rules_.Find(e.callpath); rules != nullptr) {
      for (uint32_t i : *rules) {
        if (Applies(options_.perturbation.compute[i], lane.id, lane.rank)) {
          factors.own = options_.perturbation.compute[i].factor;
        }
      }
    }
    lane.factors.push_back(factors);
    lane.callpaths.push_back(e.callpath);
    CountVisit(e.callpath);
  } else if (e.kind == EventKind::kLeave && !lane.factors.empty()) {
    lane.factors.pop_back();
    lane.callpaths.pop_back();
  } else if (trace::PayloadFamilyOf(e.kind) == trace::PayloadFamily::kRma) {
    CountOneSided(lane, e);
  } else if (e.omp) {
    NotifyOmp(lane, e, Moment{s, Relative(e.time)});
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
  OpenCall& call = lane.call;
  call.active = true;
  call.leave = k;
  call.starts_at_partner = false;
  call.callpath = enter.callpath;
  call.function = FunctionOf(enter.region);
  call.deps.clear();
  call.overhead = 0;
  call.transfer_delta = 0;
  const uint8_t shmem = enter.region < shmem_region_.size() ? shmem_region_[enter.region] : 0;
  call.shmem = shmem != 0;
  call.shmem_communication = shmem == 1;
  int64_t s = StepClock(lane, enter);
  bool communication = call.shmem ? call.shmem_communication : IsCommunication(call.function);
  // Noise falls on the computation between two communication calls (Sottile et al. 2006's local
  // edges): the set-up calls in between (MPI_Comm_rank, ...) do not start a phase of their own.
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
  call.removed = false;
  call.max_cost = INT64_MAX;
  if (enter.callpath < call_change_.size()) {
    call.removed = call_change_[enter.callpath].remove;
    call.max_cost = call_change_[enter.callpath].max_cost;
  }
  CountOmpInCall(lane);
  if (enter.region < omp_barrier_.size() && omp_barrier_[enter.region] != 0) {
    JoinOmpBarrier(lane, enter);
  }
  // A removed call publishes nothing: its partners (all removed alike) do not wait for it.
  if (call.removed) return true;
  Publish(lane);
  if (call.function.has(trace::kMpiProbe) && !call.function.has(trace::kMpiTest)) AddProbe(lane);
  if (call.function.has(trace::kMpiFinalize) && lane.rank != kNone) JoinFinalize(lane);
  return true;
}

void Engine::SetUpCallChanges() {
  call_change_ =
      CallChangesByCallpath(options_.perturbation, static_cast<double>(defs_.clock.resolution));
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
  // An MPI_Win_start whose post is not reached while everything waits did not wait for it in
  // the measured run either (the target posted after events that follow the start): no repair.
  uint64_t not_a_repair = 0;
  for (auto& lane : lanes_) {
    if (lane->state == LaneState::kBlocked &&
        lane->call.deps[lane->blocked_dep].kind == DependencyKind::kStart) {
      return drop(*lane, not_a_repair);
    }
  }
  for (auto& lane : lanes_) {
    if (lane->state == LaneState::kBlocked &&
        lane->call.deps[lane->blocked_dep].kind == DependencyKind::kSend) {
      return drop(*lane, stats.eager_resolved);
    }
  }
  for (auto& lane : lanes_) {
    if (lane->state != LaneState::kBlocked) continue;
    const Dependency& d = lane->call.deps[lane->blocked_dep];
    bool partner_gone = d.partner == kNone || lanes_[d.partner]->state == LaneState::kDone;
    if ((d.kind == DependencyKind::kReceive || d.kind == DependencyKind::kProbe) && partner_gone) {
      return drop(*lane, stats.unmatched_receives);
    }
    if (d.kind == DependencyKind::kNotify && partner_gone) {
      return drop(*lane, stats.unmatched_epoch_syncs);
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

}  // namespace cw::sim::internal
