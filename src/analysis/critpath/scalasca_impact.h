// Scalasca 2.6's definitions of the performance-impact metrics and of the critical-path
// imbalance (`causeway analyze --semantics scalasca`), from Scalasca's trace analyser and the
// derived metrics of its Cube remapping specification. With
//   cp_l(c)  the time of call path c on the critical path on location l, cp(c) = Σ_l cp_l(c);
//   t_l(c)   l's exclusive time in c over its whole trace (the `time` metric), w_l(c) its wait
//            states there (the wait metrics its critical-path imbalance formula
//            subtracts: Late Sender, Late Receiver, the collective waits, Wait at Finalize, RMA);
//   d_l(c) = t_l(c) − min(t_l(c), w_l(c)), l's non-waiting time in c;
// on every participating location l and call path c:
//   critical_path                 cp_l(c), as under causeway's semantics (the path is longer);
//   critical_path_activities      min(cp(c), d_l(c)) where cp(c) > 0;
//   non_critical_path_activities  d_l(c) − cp(c) where positive;
//   critical_imbalance_impact     cp_l(c) / cp(c) · Σ_k s_k · max(cp(c) − d_k(c), 0), with
//                                 s_k = (Σ cp − Σ d_k) / Σ_c max(cp(c) − d_k(c), 0): each
//                                 process's waiting spread over the call paths longer on the path
//                                 than on it; only where positive;
//   inter_partition_imbalance     cp_l(c) / cp(c) · Σ_k h_k(c), where h_k(c) = 0 for the call
//                                 paths k runs and, for those it never runs (d_k(c) = 0),
//                                 cp(c) · (Σ cp − Σ_{c' run by k} max(d_k(c'), cp(c'))) /
//                                 Σ_{c' not run by k} cp(c'); only where positive;
//   intra_partition_imbalance     critical_imbalance_impact − inter_partition_imbalance;
//   critical_path_imbalance       cp_l(c) · max(0, 1 − (T(c) − W(c)) / (N · CP(c))), where
//                                 CP, T and W are cp, t and w inclusive along the call tree
//                                 and summed over all N locations.
// Where Scalasca divides by zero its sums over processes become NaN and it writes no value: a
// process with no excess time on any critical call path (the one that runs the whole path, when
// its time after the window makes up for its time before) leaves no imbalance costs at all, and
// a process that runs every critical call path leaves no inter-partition imbalance. The same
// happens here, so that the values stay Scalasca's.
// These differ from causeway's (critical_path.h) in counting a process's whole trace rather than
// the analysis window, and the imbalance from inclusive values; docs/metrics.md says where.
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/metrics/severity.h"
#include "analysis/syncpoints/time_map.h"
#include "trace/call_tree.h"

namespace cw::analysis {

// Adds the metrics above (critical_path included) to `severities` (indexed by location; they must
// already hold `time` and the wait states). `on_path`: the critical path's time per call path, by
// location.
void WriteScalascaImpact(const trace::CallTree& tree, uint32_t location_count,
                         const std::vector<uint32_t>& participants,
                         const std::vector<TimeVector>& on_path,
                         std::vector<LocationSeverities>& severities);

}  // namespace cw::analysis
