#include "analysis/advice/transfer_runs.h"

namespace cw::analysis {

TransferRunFinder::TransferRunFinder(const trace::Trace& trace,
                                     std::span<const GenericType> callpath_types,
                                     const AdviceParameters& p)
    : callpath_types_(callpath_types),
      // Transfers are consecutive when back to back: no longer apart than a short operation
      // takes (`frequent_mean`). Transfers with computation between them cannot simply be
      // merged.
      short_gap_(p.frequent_mean * static_cast<double>(trace.defs.clock.resolution)),
      runs_(p, tallies_) {}

std::vector<FrequencyShare::Runs> TransferRunFinder::Finish(uint32_t location) {
  runs_.Break();
  std::vector<FrequencyShare::Runs> out;
  for (const auto& [key, tally] : tallies_) {
    out.push_back(FrequencyShare::Runs{
        location, key.first, key.second, tally.runs, tally.transfers, tally.time,
        std::vector<uint32_t>(tally.completed_by.begin(), tally.completed_by.end())});
  }
  tallies_.clear();
  return out;
}

}  // namespace cw::analysis
