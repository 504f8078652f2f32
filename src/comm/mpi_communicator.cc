#include "comm/mpi_communicator.h"

#include <mpi.h>

#include <algorithm>
#include <cstdlib>
#include <limits>

#include "base/check.h"

namespace cw::comm {
namespace {

// MPI counts are ints: large buffers travel in pieces of at most 1 GiB.
constexpr uint64_t kPiece = uint64_t{1} << 30;

class MpiCommunicator final : public Communicator {
 public:
  MpiCommunicator() {
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    rank_ = static_cast<uint32_t>(rank);
    size_ = static_cast<uint32_t>(size);
  }

  uint32_t rank() const override { return rank_; }
  uint32_t size() const override { return size_; }

  std::vector<Bytes> Exchange(std::vector<Bytes> outgoing) override {
    outgoing.resize(size_);
    ++traffic_.exchanges;
    std::vector<uint64_t> send_sizes(size_), recv_sizes(size_);
    for (uint32_t r = 0; r < size_; ++r) send_sizes[r] = outgoing[r].size();
    MPI_Alltoall(send_sizes.data(), 1, MPI_UINT64_T, recv_sizes.data(), 1, MPI_UINT64_T,
                 MPI_COMM_WORLD);
    std::vector<Bytes> incoming(size_);
    std::vector<MPI_Request> requests;
    for (uint32_t r = 0; r < size_; ++r) {
      if (r == rank_) {
        incoming[r] = std::move(outgoing[r]);
        continue;
      }
      incoming[r].resize(recv_sizes[r]);
      PostPieces(incoming[r].data(), recv_sizes[r], r, /*send=*/false, requests);
      traffic_.bytes_sent += send_sizes[r];
      PostPieces(outgoing[r].data(), send_sizes[r], r, /*send=*/true, requests);
    }
    MPI_Waitall(static_cast<int>(requests.size()), requests.data(), MPI_STATUSES_IGNORE);
    return incoming;
  }

  uint64_t AllReduce(uint64_t value, ReduceOp op) override {
    MPI_Op mpi_op = op == ReduceOp::kSum ? MPI_SUM : op == ReduceOp::kMin ? MPI_MIN : MPI_MAX;
    uint64_t result = 0;
    MPI_Allreduce(&value, &result, 1, MPI_UINT64_T, mpi_op, MPI_COMM_WORLD);
    return result;
  }

  std::vector<Bytes> Gather(Bytes mine, uint32_t root) override {
    std::vector<Bytes> out(size_);
    out[root] = std::move(mine);
    std::vector<Bytes> in = Exchange(std::move(out));
    if (rank_ != root) in.clear();
    return in;
  }

  Bytes Broadcast(Bytes data, uint32_t root) override {
    uint64_t size = data.size();
    MPI_Bcast(&size, 1, MPI_UINT64_T, static_cast<int>(root), MPI_COMM_WORLD);
    data.resize(size);
    for (uint64_t at = 0; at < size; at += kPiece) {
      MPI_Bcast(data.data() + at, static_cast<int>(std::min(kPiece, size - at)), MPI_BYTE,
                static_cast<int>(root), MPI_COMM_WORLD);
    }
    return data;
  }

 private:
  void PostPieces(std::byte* data, uint64_t size, uint32_t peer, bool send,
                  std::vector<MPI_Request>& requests) {
    // Piece k of a buffer travels with tag k, so pieces cannot be confused.
    int tag = 0;
    for (uint64_t at = 0; at < size; at += kPiece, ++tag) {
      MPI_Request request;
      int count = static_cast<int>(std::min(kPiece, size - at));
      if (send) {
        MPI_Isend(data + at, count, MPI_BYTE, static_cast<int>(peer), tag, MPI_COMM_WORLD,
                  &request);
      } else {
        MPI_Irecv(data + at, count, MPI_BYTE, static_cast<int>(peer), tag, MPI_COMM_WORLD,
                  &request);
      }
      requests.push_back(request);
    }
  }

  uint32_t rank_ = 0;
  uint32_t size_ = 1;
};

}  // namespace

MpiSession::MpiSession() : world_(std::make_unique<MpiCommunicator>()) {}

Result<std::unique_ptr<MpiSession>> MpiSession::Start() {
  int provided = 0;
  if (MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
    return MakeError(ErrorCode::kInternal, "MPI could not be initialised");
  }
  // Errors of MPI calls end the job (MPI's default handler): causeway cannot continue a
  // collective exchange that failed on one rank.
  return std::unique_ptr<MpiSession>(new MpiSession());
}

MpiSession::~MpiSession() {
  world_.reset();
  MPI_Finalize();
}

void MpiSession::Abort(int exit_code) {
  MPI_Abort(MPI_COMM_WORLD, exit_code);
  std::_Exit(exit_code);
}

}  // namespace cw::comm
