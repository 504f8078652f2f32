#include "measure/tag_runtime/piggyback.h"

namespace cw::measure::tag_runtime {
namespace {

constexpr size_t kRingSlots = 4096;
constexpr int kBytes = static_cast<int>(sizeof(Piggyback));

std::vector<int> WorldRanks(MPI_Comm comm, bool inter) {
  MPI_Group group = MPI_GROUP_NULL, world = MPI_GROUP_NULL;
  if (inter) {
    PMPI_Comm_remote_group(comm, &group);
  } else {
    PMPI_Comm_group(comm, &group);
  }
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  int n = 0;
  PMPI_Group_size(group, &n);
  std::vector<int> ranks(static_cast<size_t>(n)), translated(static_cast<size_t>(n), -1);
  for (int i = 0; i < n; ++i) ranks[static_cast<size_t>(i)] = i;
  if (n > 0) PMPI_Group_translate_ranks(group, n, ranks.data(), world, translated.data());
  for (int& r : translated) {
    if (r == MPI_UNDEFINED) r = -1;  // a process of another job (MPI_Comm_spawn)
  }
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return translated;
}

}  // namespace

Piggybacks::Piggybacks() : ring_(kRingSlots) {}

Piggybacks::~Piggybacks() = default;

void Piggybacks::AddShadow(MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return;
  ShadowComm s;
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  s.inter = inter != 0;
  if (PMPI_Comm_dup(comm, &s.comm) != MPI_SUCCESS) return;
  s.world = WorldRanks(comm, s.inter);
  shadows_[comm] = std::move(s);
  last_comm_ = MPI_COMM_NULL;
  last_shadow_ = nullptr;
}

void Piggybacks::RemoveShadow(MPI_Comm comm) {
  auto it = shadows_.find(comm);
  if (it == shadows_.end()) return;
  // A piggyback still in flight on it completes first (the user's free waits for its own
  // messages the same way).
  Reclaim(false);
  while (used_ > 0) Reclaim(true);
  PMPI_Comm_free(&it->second.comm);
  shadows_.erase(it);
  last_comm_ = MPI_COMM_NULL;
  last_shadow_ = nullptr;
}

Piggybacks::ShadowComm* Piggybacks::Find(MPI_Comm comm) {
  if (comm == last_comm_) return last_shadow_;
  auto it = shadows_.find(comm);
  last_comm_ = comm;
  last_shadow_ = it == shadows_.end() ? nullptr : &it->second;
  return last_shadow_;
}

MPI_Comm Piggybacks::Shadow(MPI_Comm comm) {
  ShadowComm* s = Find(comm);
  return s == nullptr ? MPI_COMM_NULL : s->comm;
}

int Piggybacks::WorldRank(MPI_Comm comm, int rank) {
  ShadowComm* s = Find(comm);
  if (s == nullptr || rank < 0 || static_cast<size_t>(rank) >= s->world.size()) return -1;
  return s->world[static_cast<size_t>(rank)];
}

void Piggybacks::Reclaim(bool wait_for_one) {
  while (used_ > 0) {
    Slot& oldest = ring_[head_];
    int done = 0;
    if (wait_for_one) {
      PMPI_Wait(&oldest.request, MPI_STATUS_IGNORE);
      done = 1;
      wait_for_one = false;
    } else {
      PMPI_Test(&oldest.request, &done, MPI_STATUS_IGNORE);
    }
    if (!done) return;
    head_ = (head_ + 1) % ring_.size();
    --used_;
  }
}

void Piggybacks::Send(const Piggyback& p, int dest, int tag, MPI_Comm comm) {
  if (dest == MPI_PROC_NULL) return;
  ShadowComm* s = Find(comm);
  if (s == nullptr) return;
  // Sends of 24 bytes complete at once; testing them only once half the ring is in use keeps
  // the tool from driving MPI's progress engine (which then works for the program's transfers
  // inside the tool's time) on every message.
  if (used_ >= ring_.size() / 2) Reclaim(false);
  if (used_ == ring_.size()) Reclaim(true);
  Slot& slot = ring_[(head_ + used_) % ring_.size()];
  slot.data = p;
  if (PMPI_Isend(&slot.data, kBytes, MPI_BYTE, dest, tag, s->comm, &slot.request) == MPI_SUCCESS) {
    ++used_;
  }
}

bool Piggybacks::Receive(int source, int tag, MPI_Comm comm, Piggyback* out) {
  if (source == MPI_PROC_NULL || source == MPI_ANY_SOURCE) return false;
  ShadowComm* s = Find(comm);
  if (s == nullptr) return false;
  return PMPI_Recv(out, kBytes, MPI_BYTE, source, tag, s->comm, MPI_STATUS_IGNORE) == MPI_SUCCESS;
}

bool Piggybacks::IBroadcast(Piggyback* p, int root, MPI_Comm comm, MPI_Request* request) {
  ShadowComm* s = Find(comm);
  if (s == nullptr || s->inter) return false;
  return PMPI_Ibcast(p, kBytes, MPI_BYTE, root, s->comm, request) == MPI_SUCCESS;
}

bool Piggybacks::IGather(const Piggyback* mine, int root, MPI_Comm comm, Piggyback* all,
                         MPI_Request* request) {
  ShadowComm* s = Find(comm);
  if (s == nullptr || s->inter) return false;
  return PMPI_Igather(mine, kBytes, MPI_BYTE, all, kBytes, MPI_BYTE, root, s->comm, request) ==
         MPI_SUCCESS;
}

int Piggybacks::Size(MPI_Comm comm) {
  ShadowComm* s = Find(comm);
  return s == nullptr ? 0 : static_cast<int>(s->world.size());
}

void Piggybacks::Finish() {
  while (used_ > 0) Reclaim(true);
  for (auto& [comm, s] : shadows_) PMPI_Comm_free(&s.comm);
  shadows_.clear();
  last_comm_ = MPI_COMM_NULL;
  last_shadow_ = nullptr;
}

}  // namespace cw::measure::tag_runtime
