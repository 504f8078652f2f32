#include "analysis/pop/pop_efficiency.h"

#include <algorithm>
#include <limits>

#include "trace/thread_teams.h"

namespace cw::analysis {
namespace {

double Total(const WaitStateResult& waitstates, uint32_t location, MetricId metric) {
  double total = 0;
  if (location < waitstates.severities.size()) {
    if (const std::vector<double>* values = waitstates.severities[location].Values(metric)) {
      for (double v : *values) total += v;
    }
  }
  return total;
}

// POP's hybrid model (pop_efficiency.h), where some process has more than one thread of those
// `pop` considers.
void AddHybridEfficiencies(const trace::Definitions& defs, const WaitStateResult& waitstates,
                           PopEfficiency& pop) {
  const std::vector<uint32_t> masters = trace::MastersOfThreads(defs);
  std::vector<bool> considered(defs.locations.size(), false);
  for (uint32_t l : pop.locations) considered[l] = true;
  std::vector<bool> has_thread(defs.locations.size(), false);
  bool hybrid = false;
  for (uint32_t l : pop.locations) {
    if (masters[l] != trace::kNone && considered[masters[l]]) {
      has_thread[masters[l]] = hybrid = true;
    }
  }
  if (!hybrid || pop.runtime <= 0) return;
  PopHybrid h;
  double sum = 0;
  for (uint32_t l : pop.locations) {
    if (masters[l] != trace::kNone) continue;  // a worker thread
    const double outside = std::max(0.0, pop.runtime - Total(waitstates, l, MetricId::kMpi));
    h.masters.push_back(l);
    h.outside_mpi.push_back(outside);
    sum += outside;
    if (h.max_master == trace::kNone || outside > h.max_outside_mpi) {
      h.max_outside_mpi = outside;
      h.max_master = l;
    }
  }
  h.average_outside_mpi = sum / static_cast<double>(h.masters.size());
  if (h.max_outside_mpi > 0) h.mpi_load_balance = h.average_outside_mpi / h.max_outside_mpi;
  h.mpi_communication_efficiency = h.max_outside_mpi / pop.runtime;
  h.mpi_parallel_efficiency = h.mpi_load_balance * h.mpi_communication_efficiency;
  if (h.mpi_load_balance > 0) h.omp_load_balance = pop.load_balance / h.mpi_load_balance;
  if (h.max_outside_mpi > 0)
    h.omp_communication_efficiency = pop.max_computation / h.max_outside_mpi;
  h.omp_parallel_efficiency = h.omp_load_balance * h.omp_communication_efficiency;
  pop.hybrid = std::move(h);
}

}  // namespace

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
    pop.locations.push_back(l);
    pop.computation.push_back(Total(waitstates, l, MetricId::kComp));
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
  AddHybridEfficiencies(defs, waitstates, pop);
  return pop;
}

void AddIdealNetworkRuntime(PopEfficiency& pop, double ideal_runtime) {
  if (pop.runtime <= 0 || ideal_runtime <= 0) return;
  pop.ideal_runtime = ideal_runtime;
  pop.serialisation_efficiency = pop.max_computation / ideal_runtime;
  pop.transfer_efficiency = ideal_runtime / pop.runtime;
}

}  // namespace cw::analysis
