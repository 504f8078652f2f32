#include "sim/internal/network_model.h"

#include <bit>
#include <cmath>

namespace cw::sim::internal {
namespace {

int64_t Ticks(double value) { return static_cast<int64_t>(std::llround(value)); }

double CeilLog2(uint32_t p) { return p <= 1 ? 0 : static_cast<double>(std::bit_width(p - 1)); }

}  // namespace

NetworkModel::NetworkModel(const NetworkChange& change, double ticks_per_second) {
  cost_factor_ = change.ideal ? 0 : change.cost_factor;
  overhead_ = change.overhead ? Ticks(*change.overhead * ticks_per_second) : 0;
  gap_ = change.gap ? Ticks(*change.gap * ticks_per_second) : 0;
  if (change.latency) {
    latency_delta_ = (*change.latency - change.base_latency.value_or(0)) * ticks_per_second;
  }
  if (change.per_byte) {
    per_byte_delta_ = (*change.per_byte - change.base_per_byte.value_or(0)) * ticks_per_second;
  }
  latency_delta_ticks_ = Ticks(latency_delta_);
  base_eager_limit_ = change.base_eager_limit;
  eager_limit_given_ = change.eager_limit.has_value();
  eager_limit_ = change.eager_limit.value_or(base_eager_limit_);
}

int64_t NetworkModel::Cost(int64_t measured) const {
  if (cost_factor_ == 1) return measured;
  return Ticks(static_cast<double>(measured) * cost_factor_);
}

int64_t NetworkModel::TransferDelta(uint64_t bytes) const {
  return Ticks(latency_delta_ + per_byte_delta_ * static_cast<double>(bytes));
}

int64_t NetworkModel::CollectiveDelta(trace::CollectiveOp op, uint32_t members,
                                      uint64_t bytes) const {
  if (latency_delta_ == 0 && per_byte_delta_ == 0) return 0;
  using trace::CollectiveOp;
  double p = members;
  double b = static_cast<double>(bytes);
  double rounds = 0;  // latencies on the critical chain
  double volume = 0;  // bytes on the critical chain
  switch (op) {
    case CollectiveOp::kBcast:
    case CollectiveOp::kReduce:
    case CollectiveOp::kScan:
    case CollectiveOp::kExscan:  // binomial tree
      rounds = CeilLog2(members);
      volume = rounds * b;
      break;
    case CollectiveOp::kAllreduce:
      if (bytes <= base_eager_limit_) {  // recursive doubling
        rounds = CeilLog2(members);
        volume = rounds * b;
      } else {  // ring: reduce-scatter, then allgather
        rounds = 2 * (p - 1);
        volume = 2 * (p - 1) / p * b;
      }
      break;
    case CollectiveOp::kGather:
    case CollectiveOp::kGatherv:
    case CollectiveOp::kScatter:
    case CollectiveOp::kScatterv:
    case CollectiveOp::kAlltoall:
    case CollectiveOp::kAlltoallv:
    case CollectiveOp::kAlltoallw:  // linear: one message per partner; `bytes` is the total
      rounds = p - 1;
      volume = b;
      break;
    case CollectiveOp::kAllgather:
    case CollectiveOp::kAllgatherv:
    case CollectiveOp::kReduceScatter:
    case CollectiveOp::kReduceScatterBlock:  // ring over the gathered total
      rounds = p - 1;
      volume = (p - 1) / p * b;
      break;
    default:  // barrier, window creation and freeing: dissemination
      rounds = CeilLog2(members);
      break;
  }
  return Ticks(rounds * latency_delta_ + volume * per_byte_delta_);
}

}  // namespace cw::sim::internal
