// How the network change of a what-if replay alters communication, in ticks.
//
// Measured communication costs are kept and changed by what differs from the traced network:
//   - the cost of a call after its partners were ready is multiplied by `cost_factor` (0 on an
//     ideal network) and grows by the added per-message overhead;
//   - a message's dependency grows by `TransferDelta`: the change of latency plus the change of
//     time per byte times its size; a rendezvous handshake by the latency change;
//   - a collective's dependency grows by the change of its algorithm's critical chain
//     (CollectiveDelta), after the family table of docs/whatif.md.
#pragma once

#include <cstdint>

#include "sim/perturbation.h"
#include "trace/enums.h"

namespace cw::sim::internal {

class NetworkModel {
 public:
  // `ticks_per_second` converts the perturbation's seconds. The traced network's latency and
  // per-byte time must be resolved where the change sets them.
  NetworkModel(const NetworkChange& change, double ticks_per_second);

  int64_t Cost(int64_t measured) const;
  int64_t overhead() const { return overhead_; }
  int64_t gap() const { return gap_; }
  bool has_gap() const { return gap_ > 0; }
  int64_t TransferDelta(uint64_t bytes) const;
  int64_t HandshakeDelta() const { return latency_delta_ticks_; }
  int64_t CollectiveDelta(trace::CollectiveOp op, uint32_t members, uint64_t bytes) const;

  // Whether a send of `bytes` waited (in the measured run) or waits (in the replay) for its
  // receive to be posted.
  bool MeasuredRendezvous(uint64_t bytes) const { return bytes > base_eager_limit_; }
  bool ReplayRendezvous(uint64_t bytes, bool measured_rendezvous) const {
    return eager_limit_given_ ? bytes > eager_limit_ : measured_rendezvous;
  }
  uint64_t smallest_eager_limit() const {
    return eager_limit_given_ && eager_limit_ < base_eager_limit_ ? eager_limit_
                                                                  : base_eager_limit_;
  }

 private:
  double cost_factor_ = 1;
  int64_t overhead_ = 0;
  int64_t gap_ = 0;
  double latency_delta_ = 0;  // ticks
  int64_t latency_delta_ticks_ = 0;
  double per_byte_delta_ = 0;  // ticks per byte
  uint64_t base_eager_limit_ = 0;
  uint64_t eager_limit_ = 0;
  bool eager_limit_given_ = false;
};

}  // namespace cw::sim::internal
