#include "comm/local_group.h"

#include <algorithm>
#include <barrier>
#include <memory>
#include <thread>

namespace cw::comm {
namespace {

// What the ranks of a group share: a slot per (sender, receiver) pair and a barrier. Every
// collective is write your slots, wait, read the slots meant for you, wait.
struct Shared {
  explicit Shared(uint32_t n) : ranks(n), slots(size_t{n} * n), values(n), sync(n) {}
  uint32_t ranks;
  std::vector<Bytes> slots;  // [from * ranks + to]
  std::vector<uint64_t> values;
  std::barrier<> sync;
};

class LocalCommunicator final : public Communicator {
 public:
  LocalCommunicator(Shared& shared, uint32_t rank) : shared_(shared), rank_(rank) {}

  uint32_t rank() const override { return rank_; }
  uint32_t size() const override { return shared_.ranks; }

  std::vector<Bytes> Exchange(std::vector<Bytes> outgoing) override {
    outgoing.resize(shared_.ranks);
    ++traffic_.exchanges;
    for (uint32_t to = 0; to < shared_.ranks; ++to) {
      if (to != rank_) traffic_.bytes_sent += outgoing[to].size();
      shared_.slots[Slot(rank_, to)] = std::move(outgoing[to]);
    }
    shared_.sync.arrive_and_wait();
    std::vector<Bytes> incoming(shared_.ranks);
    for (uint32_t from = 0; from < shared_.ranks; ++from) {
      incoming[from] = std::move(shared_.slots[Slot(from, rank_)]);
    }
    shared_.sync.arrive_and_wait();
    return incoming;
  }

  uint64_t AllReduce(uint64_t value, ReduceOp op) override {
    shared_.values[rank_] = value;
    shared_.sync.arrive_and_wait();
    uint64_t result = shared_.values[0];
    for (uint32_t r = 1; r < shared_.ranks; ++r) {
      uint64_t v = shared_.values[r];
      switch (op) {
        case ReduceOp::kSum:
          result += v;
          break;
        case ReduceOp::kMin:
          result = std::min(result, v);
          break;
        case ReduceOp::kMax:
          result = std::max(result, v);
          break;
      }
    }
    shared_.sync.arrive_and_wait();
    return result;
  }

  std::vector<Bytes> Gather(Bytes mine, uint32_t root) override {
    std::vector<Bytes> out(shared_.ranks);
    out[root] = std::move(mine);
    std::vector<Bytes> in = Exchange(std::move(out));
    if (rank_ != root) in.clear();
    return in;
  }

  Bytes Broadcast(Bytes data, uint32_t root) override {
    std::vector<Bytes> out(shared_.ranks);
    if (rank_ == root) {
      for (uint32_t to = 0; to < shared_.ranks; ++to) out[to] = data;
    }
    return std::move(Exchange(std::move(out))[root]);
  }

 private:
  size_t Slot(uint32_t from, uint32_t to) const { return size_t{from} * shared_.ranks + to; }

  Shared& shared_;
  uint32_t rank_;
};

}  // namespace

void LocalGroup::Run(uint32_t ranks, const std::function<void(Communicator&)>& body) {
  Shared shared(std::max<uint32_t>(ranks, 1));
  std::vector<std::thread> threads;
  for (uint32_t r = 1; r < shared.ranks; ++r) {
    threads.emplace_back([&shared, &body, r] {
      LocalCommunicator comm(shared, r);
      body(comm);
    });
  }
  LocalCommunicator comm(shared, 0);
  body(comm);
  for (std::thread& t : threads) t.join();
}

}  // namespace cw::comm
