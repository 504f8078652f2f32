#include "analysis/advice/advice.h"

#include <algorithm>
#include <tuple>

#include "analysis/advice/barrier_redundancy.h"
#include "analysis/advice/cause_analysis.h"
#include "analysis/advice/detection.h"
#include "analysis/advice/frequency.h"
#include "analysis/advice/hints.h"
#include "analysis/advice/instance_stats.h"
#include "analysis/advice/load_balance.h"

namespace cw::analysis {
namespace {

uint32_t ProcessCount(const trace::Definitions& defs) {
  uint32_t processes = 0;
  for (const trace::LocationGroup& g : defs.location_groups) {
    if (g.defined && g.rank != trace::kNone) ++processes;
  }
  return std::max<uint32_t>(processes, 1);
}

}  // namespace

double ExcessTime(const AdviceFinding& f) {
  const double expected = f.expected ? *f.expected : f.mean;
  return std::max(0.0, static_cast<double>(f.bottleneck_time) -
                           expected * static_cast<double>(f.bottleneck_instances));
}

Advice AnalyzeAdvice(const AdviceInput& in, const AdviceParameters& parameters) {
  Advice advice;
  advice.parameters = parameters;
  if (in.baselines != nullptr) advice.baselines = in.baselines_path;
  const trace::Trace& trace = *in.trace;
  const std::vector<InstanceStats> stats = CollectInstanceStats(trace, in.region_types, in.threads);
  advice.total_time = TotalLocationTime(trace);

  DetectionInput detect;
  detect.trace = &trace;
  detect.stats = stats;
  detect.region_types = in.region_types;
  detect.total_time = advice.total_time;
  detect.baselines = in.baselines;
  detect.processes = ProcessCount(trace.defs);
  const std::vector<DetectedBottleneck> bottlenecks =
      DetectBottlenecks(detect, parameters, &advice.candidates);

  CauseInput causes;
  causes.trace = &trace;
  causes.graph = in.graph;
  causes.edges = in.edges;
  causes.region_types = in.region_types;
  causes.bottlenecks = bottlenecks;
  causes.threads = in.threads;
  std::vector<AdviceFinding> findings = AnalyzeCauses(causes);
  for (AdviceFinding& f : findings) {
    const InstanceStats& s = stats[f.callpath];
    const uint32_t region = trace.CallpathRegion(f.callpath);
    f.type = region < in.region_types.size() ? in.region_types[region] : GenericType::kLocal;
    f.time = s.total;
    f.mean = s.Mean();
    f.min = s.min;
    f.max = s.max;
    f.instances = s.count;
    f.hints = HintsFor(f.pattern, f.type);
  }
  std::erase_if(findings, [](const AdviceFinding& f) { return f.bottleneck_instances == 0; });

  GlobalInput global;
  global.trace = &trace;
  global.graph = in.graph;
  global.region_types = in.region_types;
  global.severities = in.severities;
  global.total_time = advice.total_time;
  global.threads = in.threads;
  const std::vector<uint32_t> member_instance = MemberInstances(*in.graph);
  global.member_instance = member_instance;
  advice.load_balance = AnalyzeLoadBalance(global, parameters, findings);
  advice.redundant_barriers = FindRedundantBarriers(global, findings);
  AnalyzeFrequency(global, parameters, in.threads, findings);

  // By the time their bottleneck instances took beyond what was expected of them.
  std::stable_sort(findings.begin(), findings.end(),
                   [](const AdviceFinding& a, const AdviceFinding& b) {
                     return std::make_tuple(-ExcessTime(a), a.callpath) <
                            std::make_tuple(-ExcessTime(b), b.callpath);
                   });
  if (findings.size() > parameters.max_findings) {
    advice.findings_left_out = findings.size() - parameters.max_findings;
    findings.resize(parameters.max_findings);
  }
  advice.findings = std::move(findings);
  return advice;
}

}  // namespace cw::analysis
