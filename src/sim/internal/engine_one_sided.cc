// One-sided synchronisation in the replay. OpenSHMEM's routines are calls as MPI's are, their
// barriers and collectives are RMA collectives (engine_calls.cc); what no record pairs (lock
// hand-overs of OpenSHMEM and of MPI windows, waits for a value) follows the measured run's
// pairing (one_sided_plan.h).
#include <span>
#include <string_view>

#include "sim/internal/engine.h"

namespace cw::sim::internal {
namespace {

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// Routines whose cost is the network's: transfers, atomics, synchronisation and collectives.
// Set-up, allocation, contexts and queries keep their measured cost.
bool ShmemCommunicates(const trace::Region& region, std::string_view name) {
  switch (region.role) {
    case trace::RegionRole::kRma:
    case trace::RegionRole::kAtomic:
    case trace::RegionRole::kBarrier:
    case trace::RegionRole::kCollOne2All:
    case trace::RegionRole::kCollAll2One:
    case trace::RegionRole::kCollAll2All:
    case trace::RegionRole::kCollOther:
      return true;
    default:
      break;
  }
  for (std::string_view sync : {"wait", "_test", "lock", "quiet", "fence", "sync"}) {
    if (Contains(name, sync)) return true;
  }
  return false;
}

// Whether the call holds the completion of the transfer with matching id `id` (a blocking one).
bool CompletesInCall(EventWindow& window, size_t leave, uint64_t id) {
  for (size_t k = 1; k < leave; ++k) {
    const SimEvent* e = window.Peek(k);
    if (e == nullptr) return false;
    if (e->request == id && (e->kind == trace::EventKind::kRmaOpCompleteBlocking ||
                             e->kind == trace::EventKind::kRmaOpCompleteNonBlocking)) {
      return true;
    }
  }
  return false;
}

uint32_t PartnerAt(const std::vector<std::vector<uint32_t>>& plan, uint32_t lane,
                   uint32_t ordinal) {
  if (lane >= plan.size() || ordinal >= plan[lane].size()) return kNone;
  return plan[lane][ordinal];
}

// The notices of `lane` at record `ordinal`, from `next` on (the list is sorted by ordinal and
// the records come in order; notices of records no call held are passed over).
std::span<const PlannedNotice> TakeNotices(const std::vector<std::vector<PlannedNotice>>& plan,
                                           uint32_t lane, size_t& next, uint32_t ordinal) {
  if (lane >= plan.size()) return {};
  const std::vector<PlannedNotice>& notices = plan[lane];
  while (next < notices.size() && notices[next].ordinal < ordinal) ++next;
  const size_t first = next;
  while (next < notices.size() && notices[next].ordinal == ordinal) ++next;
  return std::span<const PlannedNotice>(notices).subspan(first, next - first);
}

}  // namespace

void Engine::SetUpShmemRegions() {
  shmem_region_.assign(defs_.regions.size(), 0);
  for (uint32_t r = 0; r < defs_.regions.size(); ++r) {
    const trace::Region& region = defs_.regions[r];
    if (!region.defined || region.paradigm != trace::Paradigm::kShmem) continue;
    shmem_region_[r] = ShmemCommunicates(region, defs_.str(region.name)) ? 1 : 2;
  }
}

bool Engine::StartsCall(uint32_t region) const {
  return FunctionOf(region).is_mpi() || (region < shmem_region_.size() && shmem_region_[region]) ||
         (region < omp_barrier_.size() && omp_barrier_[region]);
}

// A transfer of a blocking OpenSHMEM call takes the network's change of its latency and bytes.
// The plan's partners (one_sided_plan.h), from the Enter of the notifying call:
//   - a write that ended a wait for a value notifies that wait; the wait waits for it;
//   - an OpenSHMEM lock's release notifies its next holder; the acquisition waits for it;
//   - an MPI_Win_unlock notifies the epochs that waited for it; their waiting call waits for it.
// Records are counted as the plan counts them, also outside calls (CountOneSided).
void Engine::PublishOneSided(Lane& lane, const SimEvent& e) {
  OpenCall& call = lane.call;
  if (call.shmem && (e.kind == trace::EventKind::kRmaPut || e.kind == trace::EventKind::kRmaGet ||
                     e.kind == trace::EventKind::kRmaAtomic)) {
    if (CompletesInCall(lane.window, call.leave, e.request)) {
      call.transfer_delta += network_.TransferDelta(e.bytes);
    }
  }
  const OneSidedRecord kind = RecordKindOf(defs_, e);
  if (kind == OneSidedRecord::kUnnamed) return;
  const uint32_t ordinal = lane.one_sided.Take(kind);
  auto notify = [&](uint32_t channel, uint32_t to, uint32_t tag, uint64_t bytes) {
    uint32_t wake = kNone;
    uint32_t slot =
        messages_.PublishSend({channel, lane.id, to, tag}, call.enter, bytes, false, &wake);
    messages_.Release(slot);  // the notifying call never waits for its notification
    Wake(wake);
  };
  auto await = [&](uint32_t channel, uint32_t from, uint32_t tag) {
    uint32_t wake = kNone;
    uint32_t slot = messages_.PublishReceive({channel, from, lane.id, tag}, call.enter, &wake);
    Wake(wake);
    call.deps.push_back(MakeDependency(DependencyKind::kNotify, slot, from));
  };
  const uint32_t window = e.comm;
  const auto lock_tag = static_cast<uint32_t>(e.request ^ (e.request >> 32));
  switch (kind) {
    case OneSidedRecord::kShmemWrite: {
      const uint32_t to = PartnerAt(plan_.write_to, lane.id, ordinal);
      if (to != kNone) notify(kValueChannel | window, to, 0, e.bytes);
      break;
    }
    case OneSidedRecord::kShmemWait: {
      const uint32_t from = PartnerAt(plan_.wait_from, lane.id, ordinal);
      if (from != kNone) {
        await(kValueChannel | window, from, 0);
        ++result_.stats.value_waits;
      }
      break;
    }
    case OneSidedRecord::kShmemRelease: {
      const uint32_t to = PartnerAt(plan_.release_to, lane.id, ordinal);
      if (to != kNone) notify(kLockChannel | window, to, lock_tag, 0);
      break;
    }
    case OneSidedRecord::kShmemAcquire: {
      const uint32_t from = PartnerAt(plan_.acquire_from, lane.id, ordinal);
      if (from != kNone) {
        await(kLockChannel | window, from, lock_tag);
        ++result_.stats.lock_handovers;
      }
      break;
    }
    case OneSidedRecord::kMpiEpoch:
      for (const PlannedNotice& n :
           TakeNotices(plan_.unlock_notices, lane.id, lane.next_unlock_notice, ordinal)) {
        notify(kLockChannel | window, n.partner, n.tag, 0);
      }
      for (const PlannedNotice& n :
           TakeNotices(plan_.lock_waits, lane.id, lane.next_lock_wait, ordinal)) {
        await(kLockChannel | window, n.partner, n.tag);
        ++result_.stats.lock_handovers;
      }
      break;
    default:
      break;
  }
}

// A record outside every call: the plan counted it, so the replay does too, but it can neither
// wait nor notify (the plan pairs calls).
void Engine::CountOneSided(Lane& lane, const SimEvent& e) {
  const OneSidedRecord kind = RecordKindOf(defs_, e);
  if (kind != OneSidedRecord::kUnnamed) lane.one_sided.Take(kind);
}

}  // namespace cw::sim::internal
