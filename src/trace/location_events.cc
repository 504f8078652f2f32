#include "trace/location_events.h"

namespace cw::trace {
namespace {
template <typename T>
size_t Bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}
}  // namespace

size_t LocationEvents::MemoryBytes() const {
  return Bytes(time_) + Bytes(kind_) + Bytes(ref_) + Bytes(pair_) + Bytes(p2p_) +
         Bytes(request_ids_) + Bytes(collective_) + Bytes(rma_) + Bytes(thread_) +
         Bytes(metric_) + Bytes(metric_values_) + Bytes(metric_types_) + Bytes(program_) +
         Bytes(program_args_) + Bytes(generic_) + Bytes(attributes_) + Bytes(synthetic_);
}

}  // namespace cw::trace
