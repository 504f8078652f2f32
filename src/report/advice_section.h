// The automatic bottleneck analysis in the reports (analysis/advice/): the model in report
// units (report.json's `advice`, json_writer.cc) and the "Bottlenecks and what to do" section
// of summary.txt. docs/report-format.md documents every field.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analysis/advice/advice_types.h"
#include "trace/trace.h"

namespace cw::report {

struct Report;

struct AdviceCauseEntry {
  uint32_t location = 0;
  std::optional<uint32_t> callpath;
  double time = 0;  // seconds of waiting it caused
  uint64_t instances = 0;
  double first = 0;  // seconds since the trace's global offset
};

struct RootCauseEntry {
  uint32_t callpath = 0;
  uint32_t location = 0;
  double time = 0;  // seconds of computation on that location
  double mean = 0;  // seconds: per process (imbalance), without the excess (delay)
  analysis::RootCauseSource source = analysis::RootCauseSource::kImbalance;
  double delay = 0;  // seconds of delay costs charged to it (source kDelay)
};

struct AdviceFindingEntry {
  analysis::AdvicePattern pattern = analysis::AdvicePattern::kNoRemoteCause;
  uint32_t callpath = 0;
  analysis::GenericType type = analysis::GenericType::kLocal;
  analysis::DetectionFilter filter = analysis::DetectionFilter::kNone;
  std::vector<uint32_t> locations;
  double time = 0;                    // seconds, all instances
  double bottleneck_time = 0;         // seconds, its bottleneck instances
  double excess = 0;                  // seconds beyond what was expected of them
  double mean = 0, min = 0, max = 0;  // seconds per instance
  std::optional<double> expected;     // seconds per instance
  uint64_t instances = 0;
  uint64_t bottleneck_instances = 0;
  std::vector<std::pair<analysis::AdvicePattern, uint64_t>> pattern_counts;  // non-zero ones
  std::vector<std::pair<analysis::AdvicePattern, double>> pattern_time;      // seconds, non-zero
  std::vector<AdviceCauseEntry> causes;
  std::vector<RootCauseEntry> root_causes;
  uint64_t imbalanced_blocks = 0;
  uint8_t unseen = 0;      // possibly redundant barriers: analysis::UnseenDependency bits
  double caused_wait = 0;  // seconds: transfer runs, what their targets waited for them
  std::vector<uint32_t> completed_by;  // transfer runs: call paths of the calls completing them
  std::vector<std::string> hints;
  std::optional<double> predicted_saving;  // seconds
  std::string no_prediction;               // why predicted_saving is empty
  std::optional<uint32_t> same_fix_as;     // the earlier finding whose fix this is too
};

struct ProcessBalanceEntry {
  uint32_t location = 0;
  double computation = 0, communication = 0, synchronisation = 0, other = 0;  // seconds
};
struct BlockBalanceEntry {
  uint32_t index = 0;
  std::optional<uint32_t> closing;  // call path of the synchronisation that ends it
  double begin = 0;                 // seconds since the trace's global offset
  double mean = 0, max = 0;         // seconds per process
  uint32_t max_location = 0;
};
struct CallpathBalanceEntry {
  uint32_t callpath = 0;
  double mean = 0, max = 0;  // seconds per process
  uint32_t max_location = 0;
  uint32_t processes = 0;
};
struct RedundantBarrierEntry {
  uint32_t callpath = 0;
  uint64_t instances = 0;
  double time = 0;     // seconds, over every member
  uint8_t unseen = 0;  // analysis::UnseenDependency bits: set, only possibly redundant
};

struct AdviceReport {
  analysis::AdviceParameters parameters;
  std::optional<std::string> baselines;
  double total_time = 0;  // seconds
  uint64_t candidates = 0;
  std::vector<AdviceFindingEntry> findings;
  uint64_t findings_left_out = 0;
  std::vector<uint32_t> saving_nothing;  // call paths of findings predicted to save nothing
  std::vector<ProcessBalanceEntry> processes;
  double computation_imbalance = 0;
  std::vector<uint32_t> bottleneck_processes;
  std::vector<BlockBalanceEntry> blocks;
  uint64_t block_count = 0;
  std::vector<CallpathBalanceEntry> callpath_balance;
  std::vector<RedundantBarrierEntry> redundant_barriers;
};

AdviceReport SummarizeAdvice(const analysis::Advice& advice, const trace::Trace& trace);

// summary.txt's "Bottlenecks and what to do" (nothing without the analysis).
void AdviceTextSection(const Report& report, std::string& out);

}  // namespace cw::report
