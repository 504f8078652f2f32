#include "analysis/metrics/severity.h"

#include <algorithm>

namespace cw::analysis {
namespace {

// "a is more severe than b" with a deterministic tie break.
bool MoreSevere(const Instance& a, const Instance& b) {
  if (a.value != b.value) return a.value > b.value;
  if (a.time != b.time) return a.time < b.time;
  if (a.location != b.location) return a.location < b.location;
  if (a.callpath != b.callpath) return a.callpath < b.callpath;
  return a.metric < b.metric;  // one event may be an instance of several metrics
}

}  // namespace

double LocationSeverities::Total(MetricId metric) const {
  const std::vector<double>* values = Values(metric);
  double total = 0.0;
  if (values != nullptr) {
    for (double v : *values) total += v;
  }
  return total;
}

void InstanceCollector::Offer(const Instance& instance) {
  if (instance.value <= 0) return;
  ++offered_[static_cast<size_t>(instance.metric)];
  if (capacity_ == 0) return;
  std::vector<Instance>& heap = heaps_[static_cast<size_t>(instance.metric)];
  // The heap's front is the least severe kept instance.
  if (heap.size() < capacity_) {
    heap.push_back(instance);
    std::push_heap(heap.begin(), heap.end(), MoreSevere);
  } else if (MoreSevere(instance, heap.front())) {
    std::pop_heap(heap.begin(), heap.end(), MoreSevere);
    heap.back() = instance;
    std::push_heap(heap.begin(), heap.end(), MoreSevere);
  }
}

void InstanceCollector::Merge(const InstanceCollector& other) {
  for (const std::vector<Instance>& heap : other.heaps_) {
    for (const Instance& instance : heap) Offer(instance);
  }
  // Offer() counted the kept ones again; count what `other` saw instead.
  for (size_t m = 0; m < offered_.size(); ++m) {
    offered_[m] += other.offered_[m] - other.heaps_[m].size();
  }
}

void InstanceCollector::Absorb(std::span<const Instance> kept, std::span<const uint64_t> offered) {
  for (const Instance& instance : kept) Offer(instance);
  for (const Instance& instance : kept) --offered_[static_cast<size_t>(instance.metric)];
  for (size_t m = 0; m < offered_.size() && m < offered.size(); ++m) offered_[m] += offered[m];
}

std::vector<Instance> InstanceCollector::Sorted() const {
  std::vector<Instance> all;
  for (const std::vector<Instance>& heap : heaps_) all.insert(all.end(), heap.begin(), heap.end());
  std::sort(all.begin(), all.end(), MoreSevere);
  return all;
}

}  // namespace cw::analysis
