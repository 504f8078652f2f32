// Classification of MPI regions by name, as Scalasca does it.
//
// Score-P's region roles are unreliable (MPI_Waitall has role FUNCTION), so what an MPI call does
// is derived from its name alone: "MPI_Waitall" -> point-to-point completion that waits for all
// requests. Names are compared case-insensitively after the "MPI_" prefix, which also covers
// Fortran spellings ("mpi_waitall").
//
//   MpiFunction f = ClassifyMpiRegion("MPI_Bcast");
//   f.category == MpiCategory::kCollective; f.collective == MpiCollective::kOneToAll
#pragma once

#include <cstdint>
#include <string_view>

namespace cw::trace {

// Where the time of a call goes in the time tree (metrics.md, "time").
enum class MpiCategory : uint8_t {
  kNotMpi,
  kInitFinalize,    // MPI_Init, MPI_Init_thread, MPI_Initialized, MPI_Finalize, MPI_Finalized
  kCommMgmt,        // communicator and topology management (Scalasca's list; not MPI_Group_*)
  kFileMgmt,        // MPI_File_open/close/delete/set_view/...
  kWinMgmt,         // MPI_Win_create/allocate/free/attach/detach
  kPointToPoint,    // sends, receives, probes, request completion (not Start, Cancel,
                    // Request_free: Score-P gives them no point-to-point role)
  kCollective,      // blocking and non-blocking collectives
  kRmaSyncActive,   // fence, post, start, complete, wait, test
  kRmaSyncPassive,  // lock, unlock, lock_all, unlock_all, flush*, sync
  kRmaComm,         // put, get, accumulate, atomics
  kIoIndividual,    // non-collective file reads and writes
  kIoCollective,    // collective file reads and writes
  kOther,           // any other MPI call (MPI_Wtime, MPI_Type_commit, MPI_Start, ...)
};

enum class MpiCollective : uint8_t {
  kNotCollective,
  kBarrier,   // MPI_Barrier, MPI_Ibarrier
  kOneToAll,  // Bcast, Scatter, Scatterv
  kAllToOne,  // Reduce, Gather, Gatherv
  kAllToAll,  // Allreduce, Allgather(v), Alltoall(v,w), Reduce_scatter(_block), neighbours
  kScan,      // Scan, Exscan
};

// Bit flags describing point-to-point semantics.
enum MpiP2pFlag : uint16_t {
  kMpiSend = 1 << 0,             // initiates a send (blocking or not)
  kMpiRecv = 1 << 1,             // completes or initiates a receive
  kMpiBlocking = 1 << 2,         // the call itself completes its operation (Send, Recv, Sendrecv)
  kMpiSynchronous = 1 << 3,      // Ssend/Issend: completes only after the receive started
  kMpiWait = 1 << 4,             // Wait*, blocks until completion
  kMpiMultiWait = 1 << 5,        // Waitall/Waitsome: may complete several requests at once
  kMpiTest = 1 << 6,             // Test*, never blocks
  kMpiProbe = 1 << 7,            // Probe/Mprobe (blocking) or Iprobe/Improbe (with kMpiTest)
  kMpiNonBlockingColl = 1 << 8,  // I-variant of a collective
  kMpiInit = 1 << 9,
  kMpiFinalize = 1 << 10,
  kMpiBuffered = 1 << 11,  // Bsend/Ibsend: completes locally, never waits for the receiver
  kMpiReady = 1 << 12,     // Rsend/Irsend: the receive is known to be posted
  kMpiMatched = 1 << 13,   // Mprobe/Improbe/Mrecv/Imrecv: works on a message handle
};

// The calls of general active-target synchronisation (post-start-complete-wait), which write the
// same RmaGroupSync record and differ only by name.
enum class MpiRmaGroupCall : uint8_t {
  kOther,     // any other call
  kPost,      // MPI_Win_post: opens an exposure epoch
  kStart,     // MPI_Win_start: opens an access epoch
  kComplete,  // MPI_Win_complete: closes the access epoch
  kWait,      // MPI_Win_wait: closes the exposure epoch, waiting for it
  kTest,      // MPI_Win_test: closes the exposure epoch if it has ended, never waits
};

struct MpiFunction {
  MpiCategory category = MpiCategory::kNotMpi;
  MpiCollective collective = MpiCollective::kNotCollective;
  uint16_t flags = 0;
  MpiRmaGroupCall rma_group = MpiRmaGroupCall::kOther;

  bool is_mpi() const { return category != MpiCategory::kNotMpi; }
  bool has(MpiP2pFlag flag) const { return (flags & flag) != 0; }
};

// Classifies a region named `name`. Anything not starting with "MPI_" (case-insensitive) is
// kNotMpi; unknown MPI_ names are kOther.
MpiFunction ClassifyMpiRegion(std::string_view name);

}  // namespace cw::trace
