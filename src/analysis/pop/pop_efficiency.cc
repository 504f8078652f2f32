#include "analysis/pop/pop_efficiency.h"

#include <algorithm>
#include <limits>

namespace cw::analysis {

PopEfficiency ComputePopEfficiency(const trace::Trace& trace, const WaitStateResult& waitstates) {
  return ComputePopEfficiency(trace.defs, trace::LocationSpans(trace), waitstates);
}

PopEfficiency ComputePopEfficiency(const trace::Definitions& defs,
                                   std::span<const trace::LocationSpan> spans,
                                   const WaitStateResult& waitstates) {
  PopEfficiency pop;
  uint64_t first = std::numeric_limits<uint64_t>::max();
  uint64_t last = 0;
  for (uint32_t l = 0; l < spans.size(); ++l) {
    const trace::LocationType type = defs.locations[l].type;
    if (spans[l].empty ||
        (type != trace::LocationType::kCpuThread && type != trace::LocationType::kUnknown)) {
      continue;
    }
    first = std::min(first, spans[l].first);
    last = std::max(last, spans[l].last);
    double computation = 0;
    if (l < waitstates.severities.size()) {
      if (const std::vector<double>* comp = waitstates.severities[l].Values(MetricId::kComp)) {
        for (double v : *comp) computation += v;
      }
    }
    pop.locations.push_back(l);
    pop.computation.push_back(computation);
  }
  if (pop.locations.empty() || last <= first) return pop;
  pop.runtime = static_cast<double>(last - first);
  double sum = 0;
  for (size_t k = 0; k < pop.computation.size(); ++k) {
    sum += pop.computation[k];
    if (pop.max_location == trace::kNone || pop.computation[k] > pop.max_computation) {
      pop.max_computation = pop.computation[k];
      pop.max_location = pop.locations[k];
    }
  }
  pop.average_computation = sum / static_cast<double>(pop.computation.size());
  if (pop.max_computation > 0) pop.load_balance = pop.average_computation / pop.max_computation;
  pop.communication_efficiency = pop.max_computation / pop.runtime;
  pop.parallel_efficiency = pop.load_balance * pop.communication_efficiency;
  return pop;
}

void AddIdealNetworkRuntime(PopEfficiency& pop, double ideal_runtime) {
  if (pop.runtime <= 0 || ideal_runtime <= 0) return;
  pop.ideal_runtime = ideal_runtime;
  pop.serialisation_efficiency = pop.max_computation / ideal_runtime;
  pop.transfer_efficiency = ideal_runtime / pop.runtime;
}

}  // namespace cw::analysis
