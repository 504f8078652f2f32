#include "analysis/pipeline/memory_estimate.h"

#include <algorithm>

#include "trace/partition.h"

namespace cw::analysis {
namespace {

// Event counts come from the trace's definitions, which a damaged or hostile trace can set to
// anything (2^63 events): the estimate saturates instead of wrapping to a small number.
uint64_t SaturatingAdd(uint64_t a, uint64_t b) {
  uint64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

uint64_t SaturatingMultiply(uint64_t a, uint64_t b) {
  uint64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? UINT64_MAX : product;
}

}  // namespace

uint64_t EstimateAnalysisBytes(const trace::Definitions& defs, std::span<const uint32_t> locations,
                               bool root_causes, const MemoryModel& model) {
  const uint64_t per_event = root_causes ? model.per_event : model.per_event_wait_states;
  uint64_t bytes = model.fixed;
  for (uint32_t loc : locations) {
    bytes = SaturatingAdd(bytes, model.per_location);
    bytes = SaturatingAdd(bytes, SaturatingMultiply(per_event, defs.locations[loc].event_count));
  }
  return bytes;
}

uint64_t EstimatePerRankBytes(const trace::Definitions& defs, uint32_t ranks, bool root_causes,
                              const MemoryModel& model) {
  const trace::Partition partition = trace::PartitionLocations(defs, ranks);
  uint64_t heaviest = 0;
  for (uint32_t rank = 0; rank < partition.owned.size(); ++rank) {
    uint64_t bytes = EstimateAnalysisBytes(defs, partition.owned[rank], root_causes, model);
    if (ranks > 1) bytes = SaturatingAdd(bytes, model.mpi_per_rank);
    if (rank == 0 && ranks > 1) {
      bytes = SaturatingAdd(
          bytes, SaturatingMultiply(model.first_rank_per_location, defs.locations.size()));
    }
    heaviest = std::max(heaviest, bytes);
  }
  return heaviest;
}

uint32_t RanksNeeded(const trace::Definitions& defs, uint64_t limit, bool root_causes,
                     const MemoryModel& model) {
  const uint32_t most = std::max<uint32_t>(1, static_cast<uint32_t>(defs.locations.size()));
  auto fits = [&](uint32_t ranks) {
    return EstimatePerRankBytes(defs, ranks, root_causes, model) <= limit;
  };
  if (fits(1)) return 1;  // one process carries none of the first rank's extra costs
  if (!fits(most)) return 0;
  // The heaviest share shrinks as ranks are added (up to the whole-node preference of the
  // partition, which costs at most 5%): search for the first rank count that fits.
  uint32_t lo = 1, hi = most;
  while (lo < hi) {
    uint32_t mid = lo + (hi - lo) / 2;
    if (fits(mid)) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

}  // namespace cw::analysis
