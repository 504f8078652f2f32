#include "analysis/waitstates/waitstate_analysis.h"

#include <memory>

#include "analysis/waitstates/internal/collective_patterns.h"
#include "analysis/waitstates/internal/context.h"
#include "analysis/waitstates/internal/init_finalize.h"
#include "analysis/waitstates/internal/p2p_patterns.h"
#include "analysis/waitstates/time_categories.h"
#include "base/parallel.h"
#include "trace/profile.h"

namespace cw::analysis {
namespace {

// The time tree and visits from the call-path profile of one location.
void AddProfile(const internal::Context& ctx, uint32_t location, LocationSeverities& severities) {
  trace::LocationProfile profile = trace::ComputeLocationProfile(ctx.trace, location);
  for (uint32_t cp = 0; cp < profile.exclusive.size(); ++cp) {
    if (profile.visits[cp] == 0 && profile.exclusive[cp] == 0) continue;
    MetricId category = ctx.time_category[ctx.trace.CallpathRegion(cp)];
    internal::AddWithAncestors(severities, category, cp,
                               static_cast<double>(profile.exclusive[cp]));
    severities.Add(MetricId::kVisits, cp, static_cast<double>(profile.visits[cp]));
  }
}

}  // namespace

WaitStateResult AnalyzeWaitStates(const trace::Trace& trace, const match::SyncGraph& graph,
                                  const WaitStateOptions& options) {
  const std::vector<MetricId> categories = TimeCategories(trace.defs);
  const internal::Context ctx{trace, graph, categories};
  const unsigned threads = options.threads == 0 ? 1 : options.threads;

  const std::vector<internal::MemberOutcome> collective = internal::EvaluateCollectives(ctx, threads);
  const internal::InitFinalize init_finalize = internal::FindInitFinalize(ctx, threads);

  const uint32_t n = trace.location_count();
  std::vector<std::unique_ptr<internal::LocationOutput>> outputs(n);
  ParallelFor(n, threads, [&](size_t index) {
    uint32_t loc = static_cast<uint32_t>(index);
    auto out = std::make_unique<internal::LocationOutput>(trace.call_tree.size(),
                                                          options.instances_per_metric);
    AddProfile(ctx, loc, out->severities);
    internal::AnalyzePointToPoint(ctx, loc, *out);
    internal::ApplyCollectiveOutcomes(ctx, loc, collective, *out);
    internal::CountCollectiveAndRmaTraffic(ctx, loc, *out);
    internal::ApplyInitFinalize(ctx, loc, init_finalize, *out);
    outputs[index] = std::move(out);
  });

  WaitStateResult result;
  result.severities.reserve(n);
  InstanceCollector instances(options.instances_per_metric);
  for (uint32_t loc = 0; loc < n; ++loc) {
    internal::LocationOutput& out = *outputs[loc];
    result.violations.p2p += out.violations.p2p;
    result.violations.collective += out.violations.collective;
    instances.Merge(out.instances);
    result.severities.push_back(std::move(out.severities));
    outputs[loc].reset();
  }
  result.instances = instances.Sorted();
  result.instance_counts.resize(kMetricCount);
  for (int m = 0; m < kMetricCount; ++m) {
    result.instance_counts[static_cast<size_t>(m)] = instances.Offered(static_cast<MetricId>(m));
  }
  return result;
}

}  // namespace cw::analysis
