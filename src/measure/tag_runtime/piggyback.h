// What travels with every message so that the receiver's graph can name the sender's node and
// how much later (or earlier) the sender came (Sikora et al. 2016 §4.1–4.2): the sender's node id,
// its entry time on rank 0's clock, and, for collectives, the bytes it sent.
//
// It travels as a message of its own on a shadow communicator (a duplicate of the user's,
// made where the user's is made), with the user message's tag: Sikora et al. 2016's "additional
// message", for every size. Nothing of the user's message changes, so received data, counts,
// statuses, wildcard matching, probes, zero-size and derived-datatype messages are exactly as
// without causeway, and there is no size threshold whose two sides could disagree. The sender
// posts the piggyback (non-blocking) before its data; the receiver takes it from the source and
// tag the data's status names once the data is in. Messages of one sender, communicator and tag
// match in the order they were sent (MPI's non-overtaking rule) on both communicators, so each
// data message meets its own piggyback.
//
//   Piggybacks p;
//   p.AddShadow(MPI_COMM_WORLD);                       // collective, like the user's creation
//   p.Send({node, rank, entry, bytes}, dest, tag, comm);
//   Piggyback in;
//   if (p.Receive(status.MPI_SOURCE, status.MPI_TAG, comm, &in)) ...
#pragma once

#include <mpi.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace cw::measure::tag_runtime {

struct Piggyback {
  uint32_t node = UINT32_MAX;  // the sender's node in its segment (UINT32_MAX: not in a graph)
  uint32_t reserved = 0;
  int64_t entry = 0;   // the sender's call entry, in ticks on rank 0's clock
  uint64_t bytes = 0;  // collectives: what the member sent
};
static_assert(sizeof(Piggyback) == 24);

class Piggybacks {
 public:
  Piggybacks();
  ~Piggybacks();
  Piggybacks(const Piggybacks&) = delete;
  Piggybacks& operator=(const Piggybacks&) = delete;

  // Makes the shadow of `comm` (collective over `comm`, as MPI_Comm_dup is).
  void AddShadow(MPI_Comm comm);
  void RemoveShadow(MPI_Comm comm);
  // The shadow of `comm`, MPI_COMM_NULL if it has none: a communicator made by a call causeway
  // does not wrap carries no piggybacks, on any of its members alike.
  MPI_Comm Shadow(MPI_Comm comm);

  // Posts `p` to `dest` (a rank of `comm`) with `tag`; nothing for MPI_PROC_NULL or a
  // communicator without a shadow.
  void Send(const Piggyback& p, int dest, int tag, MPI_Comm comm);
  // Takes the piggyback of the message that came from `source` with `tag` on `comm`; false if
  // none travels (no shadow, MPI_PROC_NULL).
  bool Receive(int source, int tag, MPI_Comm comm, Piggyback* out);

  // Collectives (Sikora et al. 2016 §4.5), on the shadow, non-blocking (the program's collective is
  // not made to wait for another): the root's piggyback to every member, or every member's to
  // `root` (`all` must hold one entry per rank of `comm` at the root). False, and no request,
  // where no piggyback travels (no shadow, an intercommunicator).
  bool IBroadcast(Piggyback* p, int root, MPI_Comm comm, MPI_Request* request);
  bool IGather(const Piggyback* mine, int root, MPI_Comm comm, Piggyback* all,
               MPI_Request* request);
  // The rank of this process in `comm` and the number of ranks (as cached with the shadow).
  int Size(MPI_Comm comm);

  // The rank in MPI_COMM_WORLD of rank `rank` of `comm`, -1 if unknown.
  int WorldRank(MPI_Comm comm, int rank);

  // Waits for every piggyback still in flight and frees the shadows (before MPI_Finalize).
  void Finish();

 private:
  struct ShadowComm {
    MPI_Comm comm = MPI_COMM_NULL;
    bool inter = false;
    std::vector<int> world;  // world rank of each rank of the (remote) group
  };
  ShadowComm* Find(MPI_Comm comm);
  void Reclaim(bool wait_for_one);

  std::unordered_map<MPI_Comm, ShadowComm> shadows_;
  MPI_Comm last_comm_ = MPI_COMM_NULL;  // Sikora et al. 2016's recently-used heuristic
  ShadowComm* last_shadow_ = nullptr;
  // Piggybacks in flight: a ring of buffers with their requests, oldest first. Small messages
  // complete at once, so testing the oldest few frees the ring as it goes.
  struct Slot {
    Piggyback data;
    MPI_Request request = MPI_REQUEST_NULL;
  };
  std::vector<Slot> ring_;
  size_t head_ = 0;  // oldest in flight
  size_t used_ = 0;
};

}  // namespace cw::measure::tag_runtime
