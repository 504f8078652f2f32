// RMA epochs of general active-target synchronisation (post-start-complete-wait) in the replay.
#include "sim/internal/engine.h"

namespace cw::sim::internal {
namespace {

// Tags of the two notifications on an epoch channel.
constexpr uint32_t kPosted = 0;     // MPI_Win_post, target -> origin
constexpr uint32_t kCompleted = 1;  // MPI_Win_complete, origin -> target

}  // namespace

// An MPI_Win_post notifies each origin of its group; an MPI_Win_complete waits for the post of
// each target (its operations cannot finish before the targets exposed their windows) and
// notifies them; an MPI_Win_wait waits for the complete of each origin. Notifications pair in
// order per (window, from, to), as messages do on a channel; an MPI_Win_test that closes the
// epoch takes its notifications without waiting. Whether MPI_Win_start blocks until the posts
// is the MPI library's choice: it waits for a post only if the measured call left after it,
// and sees the post early (as a probe does) so that MPI_Win_complete still receives it.
void Engine::PublishEpochSync(Lane& lane, const SimEvent& e) {
  const trace::MpiRmaGroupCall call = lane.call.function.rma_group;
  if (call == trace::MpiRmaGroupCall::kOther) return;
  if (e.comm >= defs_.windows.size() || !defs_.windows[e.comm].defined) {
    ++result_.stats.undefined_comms;
    return;
  }
  const uint32_t channel = kEpochChannel | e.comm;
  const Moment at = lane.call.enter;
  auto notify = [&](uint32_t to, uint32_t what) {
    uint32_t wake = kNone;
    uint32_t slot = messages_.PublishSend({channel, lane.id, to, what}, at, 0, false, &wake);
    messages_.Release(slot);  // the notifying call never waits for its notification
    ++result_.stats.epoch_syncs;
    Wake(wake);
  };
  auto await = [&](uint32_t from, uint32_t what, bool wait) {
    uint32_t wake = kNone;
    uint32_t slot = messages_.PublishReceive({channel, from, lane.id, what}, at, &wake);
    Wake(wake);
    if (wait) {
      lane.call.deps.push_back(MakeDependency(DependencyKind::kNotify, slot, from));
    } else {
      messages_.Release(slot);
    }
  };
  for (uint32_t partner : defs_.GroupLocations(e.tag)) {
    if (partner == kNone || partner >= lanes_.size()) continue;
    switch (call) {
      case trace::MpiRmaGroupCall::kPost:
        notify(partner, kPosted);
        break;
      case trace::MpiRmaGroupCall::kStart: {
        uint32_t slot = messages_.PeekForReceive({channel, partner, lane.id, kPosted});
        lane.call.deps.push_back(MakeDependency(DependencyKind::kStart, slot, partner));
        break;
      }
      case trace::MpiRmaGroupCall::kComplete:
        await(partner, kPosted, /*wait=*/true);
        notify(partner, kCompleted);
        break;
      case trace::MpiRmaGroupCall::kWait:
        await(partner, kCompleted, /*wait=*/true);
        break;
      case trace::MpiRmaGroupCall::kTest:
        await(partner, kCompleted, /*wait=*/false);
        break;
      default:
        break;
    }
  }
}

}  // namespace cw::sim::internal
