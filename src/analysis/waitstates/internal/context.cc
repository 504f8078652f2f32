#include "analysis/waitstates/internal/context.h"

namespace cw::analysis::internal {

void AddWithAncestors(LocationSeverities& severities, MetricId metric, uint32_t callpath,
                      double value) {
  std::optional<MetricId> m = metric;
  while (m) {
    severities.Add(*m, callpath, value);
    m = Metric(*m).parent;
  }
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

const trace::MpiFunction& MpiOf(const trace::Trace& trace, const trace::LocationEvents& ev,
                                uint32_t enter) {
  static const trace::MpiFunction kNotMpi;
  if (enter == trace::kNone) return kNotMpi;
  uint32_t region = trace.CallpathRegion(ev.ref(enter));
  return region < trace.defs.regions.size() ? trace.defs.regions[region].mpi : kNotMpi;
}

}  // namespace cw::analysis::internal
