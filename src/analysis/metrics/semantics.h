// Which definitions the root-cause metrics follow.
//
// causeway's own definitions (the default) differ from Scalasca 2.6's in a few deliberate ways
// (docs/metrics.md, "Differs from Scalasca"). `--semantics scalasca` switches to Scalasca's for
// these, so that a report can be checked against Scalasca's value by value (docs/metrics.md: a
// defect of Scalasca's in Late Receiver costs is the one difference left):
//   - the critical path starts at MPI_Init's Enter on the location where it ends up, not at the
//     last process's arrival in MPI_Init;
//   - performance impact and critical-path imbalance are computed from each process's whole
//     trace and from inclusive call-path values, as Scalasca computes them
//     (analysis/critpath/scalasca_impact.h);
//   - Wait at Finalize and Early Scan are not followed by the delay and critical-path analyses,
//     and collective wait states are not classified as direct/indirect or
//     propagating/terminal;
//   - a probe is plain MPI time (Scalasca has no probe support): only receives wait;
//   - point-to-point delay costs are capped at the delayer's excess, and a wait nothing explains
//     is dropped;
//   - an interval that starts at a barrier, an N x N operation, MPI_Init or a broadcast starts
//     after the member's completion as Scalasca measures it (SyncEdges::completions).
// Metrics Scalasca 2.6 reports as zero because it does not read the records (MPI one-sided
// transfers, non-blocking collectives' counts) keep causeway's values.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace cw::analysis {

enum class Semantics : uint8_t { kCauseway, kScalasca };

inline std::string_view SemanticsName(Semantics s) {
  return s == Semantics::kScalasca ? "scalasca" : "causeway";
}
inline std::optional<Semantics> ParseSemantics(std::string_view name) {
  if (name == "causeway") return Semantics::kCauseway;
  if (name == "scalasca") return Semantics::kScalasca;
  return std::nullopt;
}

}  // namespace cw::analysis
