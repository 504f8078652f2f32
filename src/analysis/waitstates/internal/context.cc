#include "analysis/waitstates/internal/context.h"

#include "trace/one_sided_pairing.h"

namespace cw::analysis::internal {

void AddWithAncestors(LocationSeverities& severities, MetricId metric, uint32_t callpath,
                      double value) {
  for (MetricId m : MetricWithAncestors(metric)) severities.Add(m, callpath, value);
}

bool IsMpiWindow(const trace::Definitions& defs, uint32_t window) {
  return trace::WindowParadigm(defs, window) == trace::Paradigm::kMpi;
}

bool IsShmemWindow(const trace::Definitions& defs, uint32_t window) {
  return trace::WindowParadigm(defs, window) == trace::Paradigm::kShmem;
}

CallTimes CallOf(const trace::LocationEvents& ev, uint32_t event) {
  CallTimes call;
  call.enter = ev.pair(event);
  if (call.enter == trace::kNone) {
    // An MPI record outside any region: the record itself is the whole call.
    call.entered = call.left = ev.time(event);
    return call;
  }
  call.entered = ev.time(call.enter);
  call.left = ev.time(ev.pair(call.enter));
  return call;
}

}  // namespace cw::analysis::internal
