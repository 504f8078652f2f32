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

void LocationEvents::ReplaceTimes(std::span<const uint64_t> times) {
  TimeColumn column;
  column.reserve(times.size());
  for (uint64_t t : times) column.push_back(t);
  time_ = std::move(column);
  // Inclusive and exclusive time per call path from the Enter/Leave nesting, as the builder
  // measured them while reading; visits do not change.
  for (CallpathTime& p : profile_) p.inclusive = p.exclusive = 0;
  auto entry = [&](uint32_t callpath) -> CallpathTime* {
    auto it = std::lower_bound(profile_.begin(), profile_.end(), callpath,
                               [](const CallpathTime& p, uint32_t cp) { return p.callpath < cp; });
    return it != profile_.end() && it->callpath == callpath ? &*it : nullptr;
  };
  std::vector<uint32_t> open;  // call paths of the open regions
  std::vector<int64_t> exclusive(profile_.size(), 0);
  for (uint32_t i = 0; i < size(); ++i) {
    if (kind_[i] == EventKind::kEnter) {
      open.push_back(ref_[i]);
    } else if (kind_[i] == EventKind::kLeave && !open.empty()) {
      open.pop_back();
      uint64_t duration = time_[i] - time_[pair_[i]];
      if (CallpathTime* p = entry(ref_[i])) {
        p->inclusive += duration;
        exclusive[static_cast<size_t>(p - profile_.data())] += static_cast<int64_t>(duration);
      }
      if (!open.empty()) {
        if (CallpathTime* parent = entry(open.back())) {
          exclusive[static_cast<size_t>(parent - profile_.data())] -=
              static_cast<int64_t>(duration);
        }
      }
    }
  }
  for (size_t k = 0; k < profile_.size(); ++k) {
    profile_[k].exclusive = static_cast<uint64_t>(std::max<int64_t>(exclusive[k], 0));
  }
}

}  // namespace cw::trace
