// OpenMP threads in the replay. The measured run's teams, barrier instances and lock hand-overs
// are grouped first (omp_plan.h); the replay then keeps each thread's own times and moves what
// waited:
//   - a worker's team begin is a point that waits for its master's fork: it begins the measured
//     time after the fork it took to wake up, and the idle time since its previous team is no
//     computation of its own;
//   - an OpenMP barrier is a call (as MPI_Barrier is) whose threads leave the measured cost after
//     the last one arrived;
//   - a lock acquisition is a point that waits for the release of the previous holder (the
//     order in which the threads got each lock stays the measured one).
// Threads share memory: the network model never changes these.
#include "sim/internal/engine.h"

namespace cw::sim::internal {
namespace {

uint32_t PlannedAt(const std::vector<std::vector<uint32_t>>& plan, uint32_t lane,
                   uint32_t ordinal) {
  if (lane >= plan.size() || ordinal >= plan[lane].size()) return kNone;
  return plan[lane][ordinal];
}

uint32_t LockTag(uint64_t lock) { return static_cast<uint32_t>(lock ^ (lock >> 32)); }

}  // namespace

void Engine::SetUpOmp() {
  omp_plan_ = BuildOmpPlan(input_);
  omp_barrier_.clear();
  if (!omp_plan_.empty()) omp_barrier_ = OmpBarrierRegions(defs_);
}

bool Engine::BeginOmpWait(Lane& lane, const SimEvent& e) {
  if (omp_barrier_.empty()) return false;
  const OmpRecord kind = OmpRecordOf(e, omp_barrier_);
  if (kind != OmpRecord::kTeamBegin && kind != OmpRecord::kAcquire) return false;
  const uint32_t ordinal = lane.omp.Take(kind);
  const bool team = kind == OmpRecord::kTeamBegin;
  const uint32_t from =
      PlannedAt(team ? omp_plan_.team_from : omp_plan_.acquire_from, lane.id, ordinal);
  if (from == kNone) return false;
  OpenCall& call = lane.call;
  call.active = true;
  call.leave = 0;
  call.callpath = lane.callpaths.empty() ? kNone : lane.callpaths.back();
  call.function = trace::MpiFunction{};
  call.deps.clear();
  call.overhead = 0;
  call.transfer_delta = 0;
  call.shmem = false;
  call.shmem_communication = false;
  call.removed = false;
  call.max_cost = INT64_MAX;
  call.starts_at_partner = !lane.started;
  if (!lane.started) {
    lane.started = true;
    lane.outcome.first = e.time;
    call.enter = Moment{Relative(e.time), Relative(e.time)};
  } else {
    call.enter = Moment{lane.simulated, lane.measured};
  }
  const uint32_t channel = team ? kOmpTeamChannel : kOmpLockChannel;
  const uint32_t tag = team ? 0 : LockTag(e.request);
  uint32_t wake = kNone;
  const uint32_t slot = messages_.PublishReceive({channel, from, lane.id, tag}, call.enter, &wake);
  Wake(wake);
  Dependency dep = MakeDependency(DependencyKind::kNotify, slot, from);
  dep.local = true;
  call.deps.push_back(dep);
  ++(team ? result_.stats.omp_team_starts : result_.stats.omp_lock_handovers);
  return true;
}

// A fork notifies the workers of its team, a release the lock's next holder, at `at`.
void Engine::NotifyOmp(Lane& lane, const SimEvent& e, Moment at) {
  if (omp_barrier_.empty()) return;
  const OmpRecord kind = OmpRecordOf(e, omp_barrier_);
  if (kind != OmpRecord::kFork && kind != OmpRecord::kRelease) return;
  const uint32_t ordinal = lane.omp.Take(kind);
  auto notify = [&](uint32_t channel, uint32_t to, uint32_t tag) {
    uint32_t wake = kNone;
    const uint32_t slot = messages_.PublishSend({channel, lane.id, to, tag}, at, 0, false, &wake);
    messages_.Release(slot);  // the notifying thread never waits for its notification
    Wake(wake);
  };
  if (kind == OmpRecord::kRelease) {
    const uint32_t to = PlannedAt(omp_plan_.release_to, lane.id, ordinal);
    if (to != kNone) notify(kOmpLockChannel, to, LockTag(e.request));
    return;
  }
  if (lane.id >= omp_plan_.fork_to.size() || ordinal >= omp_plan_.fork_to[lane.id].size()) return;
  for (uint32_t worker : omp_plan_.fork_to[lane.id][ordinal]) notify(kOmpTeamChannel, worker, 0);
}

void Engine::JoinOmpBarrier(Lane& lane, const SimEvent& enter) {
  const uint32_t ordinal = lane.omp.Take(OmpRecordOf(enter, omp_barrier_));
  if (lane.call.removed || lane.id >= omp_plan_.barriers.size() ||
      ordinal >= omp_plan_.barriers[lane.id].size()) {
    return;
  }
  const OmpBarrierPart part = omp_plan_.barriers[lane.id][ordinal];
  if (part.members < 2) return;
  const uint32_t id = collectives_.Join(kOmpBarrierKey, part.instance, part.members);
  CollectiveInstance& inst = collectives_.instance(id);
  inst.Arrive(lane.call.enter);
  Dependency dep = MakeDependency(DependencyKind::kCollective, id, kNone);
  dep.family = CollectiveFamily::kAllToAll;
  dep.members = part.members;
  dep.local = true;
  lane.call.deps.push_back(dep);
  ++result_.stats.omp_barrier_arrivals;
  WakeWaiters(inst);
}

// Records inside a call wait for nothing (the call's own dependencies decide its end), but they
// are counted, and a fork or release there notifies from the call's Enter.
void Engine::CountOmpInCall(Lane& lane) {
  if (omp_barrier_.empty()) return;
  for (size_t k = 1; k < lane.call.leave; ++k) {
    const SimEvent e = *lane.window.Peek(k);
    const OmpRecord kind = OmpRecordOf(e, omp_barrier_);
    if (kind == OmpRecord::kFork || kind == OmpRecord::kRelease) {
      NotifyOmp(lane, e, lane.call.enter);
    } else if (kind != OmpRecord::kUnnamed) {
      lane.omp.Take(kind);
    }
  }
}

}  // namespace cw::sim::internal
