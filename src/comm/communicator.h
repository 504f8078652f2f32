// The analysis ranks of an MPI analysis job, as the components that exchange data see them.
//
// causeway runs as one process, or as K analysis processes started by mpirun or srun that each
// own a share of a trace's locations (trace/partition.h). Everything that crosses between them
// goes through this interface, in a few bulk-synchronous calls: the replay passes exchange the
// values of their cross-rank edges once per round, the gathers collect results on rank 0. Two
// implementations: MpiCommunicator (comm/mpi_communicator.h) and LocalGroup (comm/local_group.h:
// K ranks as threads of one process, for tests of the distributed algorithms).
//
// Every call is collective: all ranks make the same calls in the same order, from one thread
// per rank.
//
//   std::vector<Bytes> in = comm.Exchange(std::move(out));   // out[r] goes to rank r
//   uint64_t total = comm.AllReduce(mine, ReduceOp::kSum);
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cw::comm {

using Bytes = std::vector<std::byte>;

enum class ReduceOp { kSum, kMin, kMax };

// What crossed between ranks, for the benchmarks and the report of a distributed run.
struct TrafficStats {
  uint64_t bytes_sent = 0;  // payload this rank sent to other ranks (its own share not counted)
  uint64_t exchanges = 0;   // Exchange calls
};

class Communicator {
 public:
  virtual ~Communicator() = default;

  virtual uint32_t rank() const = 0;
  virtual uint32_t size() const = 0;

  // Personalised all-to-all: `outgoing[r]` (size() buffers, possibly empty) goes to rank r; the
  // result holds at [r] what rank r sent to this one.
  virtual std::vector<Bytes> Exchange(std::vector<Bytes> outgoing) = 0;
  virtual uint64_t AllReduce(uint64_t value, ReduceOp op) = 0;
  // Rank `root` receives every rank's buffer, in rank order; the others receive nothing.
  virtual std::vector<Bytes> Gather(Bytes mine, uint32_t root) = 0;
  // Every rank receives `root`'s buffer (`data` is ignored elsewhere).
  virtual Bytes Broadcast(Bytes data, uint32_t root) = 0;

  // Every rank receives every rank's buffer, in rank order (an Exchange of `mine` to all).
  std::vector<Bytes> AllGather(const Bytes& mine) {
    return Exchange(std::vector<Bytes>(size(), mine));
  }

  const TrafficStats& traffic() const { return traffic_; }

 protected:
  TrafficStats traffic_;
};

}  // namespace cw::comm
