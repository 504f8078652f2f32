#include "trace/location_events.h"

#include <algorithm>

namespace cw::trace {
namespace {
template <typename T>
size_t Bytes(const std::vector<T>& v) {
  return v.capacity() * sizeof(T);
}
}  // namespace

std::span<const EventAttribute> LocationEvents::AttributesOf(uint32_t i) const {
  auto first = std::lower_bound(attributes_.begin(), attributes_.end(), i,
                                [](const EventAttribute& a, uint32_t e) { return a.event < e; });
  auto last = first;
  while (last != attributes_.end() && last->event == i) ++last;
  return {first, last};
}

uint64_t LocationEvents::RequestId(uint32_t i) const {
  uint32_t stored;
  switch (PayloadFamilyOf(kind_[i])) {
    case PayloadFamily::kRequest:
      stored = ref_[i];
      break;
    case PayloadFamily::kP2p: {
      // The request id lives with the linked request record; requests without one keep it in
      // the overflow table.
      EventKind k = kind_[i];
      if (k != EventKind::kMpiIsend && k != EventKind::kMpiIrecv) return kNoRequest;
      uint32_t link = p2p_[ref_[i]].request_link;
      if (link != kNone) return RequestId(link);
      stored = kWideRequest32;
      break;
    }
    case PayloadFamily::kCollective:
      stored = collective_[ref_[i]].request;
      break;
    default:
      return kNoRequest;
  }
  if (stored == kNoRequest32) return kNoRequest;
  if (stored == kWideRequest32) {
    auto it = wide_requests_.find(i);
    return it == wide_requests_.end() ? kNoRequest : it->second;
  }
  return stored;
}

size_t LocationEvents::MemoryBytes() const {
  return time_.MemoryBytes() + kind_.MemoryBytes() + ref_.MemoryBytes() + pair_.MemoryBytes() +
         p2p_.MemoryBytes() + collective_.MemoryBytes() + rma_.MemoryBytes() +
         thread_.MemoryBytes() + metric_.MemoryBytes() + Bytes(metric_values_) +
         Bytes(metric_types_) + program_.MemoryBytes() + Bytes(program_args_) +
         generic_.MemoryBytes() + Bytes(attributes_) + Bytes(synthetic_) +
         wide_requests_.size() * 32 + Bytes(profile_);
}

}  // namespace cw::trace
