// The whole report of an MPI analysis job (K ranks as threads of this process) must be one
// process's, report.json and report.html byte for byte, on every real trace: the default
// analysis (root causes, critical path and the bottleneck analysis) for every K from 1 to 4 (4
// alone under the sanitizers), and without the bottleneck analysis, with the wait states only
// and under Scalasca's semantics for K = 3.
#include <gtest/gtest.h>

#include <map>
#include <mutex>
#include <sstream>
#include <tuple>

#include "analysis/pipeline/analysis.h"
#include "comm/local_group.h"
#include "driver/job_analysis.h"
#include "driver/predicted_saving.h"
#include "match/matcher.h"
#include "report/html_report.h"
#include "report/json_writer.h"
#include "sim/trace_source.h"
#include "sim/whatif.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"
#include "tests/distributed/job_scenarios.h"

namespace cw::driver {
namespace {

// The predicted savings of the bottleneck analysis's first findings, replayed.
constexpr size_t kPredictions = 5;

// The rank counts of the sweeps. Under the sanitizers (ThreadSanitizer runs these sweeps, a
// second run of the same code at a tenth of its speed) the largest, the most threads at once;
// 3 ranks, an uneven split, is every sweep's second configuration, and 1 and 2 ranks are
// partitions that the release build checks.
#if CW_SANITIZED
constexpr uint32_t kRankCounts[] = {4};
#else
constexpr uint32_t kRankCounts[] = {1, 2, 3, 4};
#endif

struct Pages {
  std::string json;
  std::string html;
};

// What `causeway analyze [--wait-states-only]` writes, made by one process.
Pages SingleProcessPages(const std::string& anchor, const otf2::ReadOptions& options,
                         bool root_causes,
                         analysis::Semantics semantics = analysis::Semantics::kCauseway,
                         bool advice = false) {
  Result<trace::Trace> trace = otf2::ReadTrace(anchor, options);
  EXPECT_TRUE(trace) << anchor;
  if (!trace) return {};
  const match::SyncGraph graph = match::MatchTrace(*trace, 2);
  analysis::AnalysisOptions analysis_options;
  analysis_options.threads = 2;
  analysis_options.root_causes = root_causes;
  analysis_options.semantics = semantics;
  analysis_options.advice = advice;
  analysis::AnalysisResult analysis = analysis::AnalyzeTrace(*trace, graph, analysis_options);
  if (analysis.advice) {
    // One process replays the fixes over the synchronisation points where it can (the job's
    // first rank streams the events): the same predictions either way.
    EXPECT_TRUE(driver::PredictSavings(*trace, *analysis.advice, kPredictions, 1, &graph));
  }
  if (Result<sim::ReplayResult> ideal = sim::ReplayOnIdealNetwork(sim::TraceInput(*trace))) {
    analysis::AddIdealNetworkRuntime(
        analysis.pop, static_cast<double>(sim::PredictedSpan(*ideal, analysis.pop.locations)));
  }
  const report::Report report = report::BuildReport(*trace, graph, analysis);
  return {report::ToJson(report), report::HtmlReport(report, *trace, graph)};
}

void CheckJobReport(const std::string& anchor, uint32_t ranks, bool root_causes,
                    const Pages& single,
                    analysis::Semantics semantics = analysis::Semantics::kCauseway,
                    bool advice = false) {
  const std::string where = anchor + " on " + std::to_string(ranks) + " ranks" +
                            (root_causes ? "" : " (wait states only)") +
                            (advice ? " with the bottleneck analysis" : "") + " under " +
                            std::string(analysis::SemanticsName(semantics)) + " semantics";
  TraceAnalysisOptions options;
  options.analysis.root_causes = root_causes;
  options.analysis.semantics = semantics;
  options.analysis.advice = advice;
  options.predictions = kPredictions;
  options.read.allow_partial = true;
  options.read.threads = 2;
  std::mutex mutex;
  std::optional<Pages> job;
  comm::LocalGroup::Run(ranks, [&](comm::Communicator& comm) {
    Result<std::optional<JobReport>> mine = AnalyzeAsJobRank(anchor, options, comm);
    ASSERT_TRUE(mine) << where << ": " << mine.error().message();
    ASSERT_EQ(mine->has_value(), comm.rank() == 0) << where << ": only the first rank reports";
    if (!*mine) return;
    const JobReport& r = **mine;
    std::lock_guard<std::mutex> lock(mutex);
    job = Pages{report::ToJson(r.report), report::HtmlReport(r.report, r.trace, r.views)};
  });
  ASSERT_TRUE(job) << where;
  // The first differing line, not the whole page.
  for (const auto& [file, mine, theirs] : {std::tuple{"report.json", &job->json, &single.json},
                                           std::tuple{"report.html", &job->html, &single.html}}) {
    if (*mine == *theirs) continue;
    std::istringstream a(*mine), b(*theirs);
    std::string la, lb;
    int line = 1;
    while (std::getline(a, la) && std::getline(b, lb) && la == lb) ++line;
    ADD_FAILURE() << where << ": " << file << " differs at line " << line
                  << ":\n  job:    " << la.substr(0, 300) << "\n  single: " << lb.substr(0, 300);
  }
}

// The analyses without the bottleneck analysis (--no-advice), with and without the root causes,
// and under Scalasca's semantics (the path walk ends where the first rank may not hold the
// location), on the rank count that splits most traces unevenly. The default analysis, the
// bottleneck analysis with everything it builds on, takes every rank count below.
TEST(JobAnalysisTest, EveryRealTraceWithoutAdviceAndUnderScalascaSemantics) {
  for (const std::string& name : test::RealTraceNames()) {
    otf2::ReadOptions options;
    options.allow_partial = true;
    options.threads = 2;
    const Pages single = SingleProcessPages(test::RealTrace(name), options, true);
    ASSERT_FALSE(single.json.empty()) << name;
    // Not a report without its root causes.
    EXPECT_NE(single.json.find("\"critical_path\": {"), std::string::npos) << name;
    CheckJobReport(test::RealTrace(name), 3, true, single);
    CheckJobReport(test::RealTrace(name), 3, false,
                   SingleProcessPages(test::RealTrace(name), options, false));
    const Pages scalasca =
        SingleProcessPages(test::RealTrace(name), options, true, analysis::Semantics::kScalasca);
    EXPECT_NE(scalasca.json.find("\"semantics\": \"scalasca\""), std::string::npos) << name;
    CheckJobReport(test::RealTrace(name), 3, true, scalasca, analysis::Semantics::kScalasca);
  }
}

TEST(JobAnalysisTest, InconsistentAndOneSidedTracesGiveOneProcessesReportOnOneToFourRanks) {
  // What must be in the reports (each scenario's comment in job_scenarios.cc says why), so
  // that equal pages are not equally empty.
  const std::map<std::string, std::vector<std::string>> expected = {
      {"unmatched", {"\"unmatched_sends\": 1", "\"unmatched_receives\": 1"}},
      {"missing_collective", {"\"incomplete_collectives\": 2"}},
      {"ends_early", {"\"unmatched_receives\": 1", "\"incomplete_collectives\": 1"}},
      {"one_sided",
       {"mpi_rma_sync_late_post", "mpi_rma_early_wait", "mpi_rma_sync_lock_competition",
        "mpi_rma_early_fence"}},
      {"contradictory", {"replay.contradictory_synchronisation", "critpath.cycle"}},
      {"shared_delayer", {"replay.contradictory_synchronisation", "mpi_wait_indirect_collective"}},
      {"senders_waits", {"\"metric\": \"mpi_wait_senders\""}},
      {"nonblocking_senders", {"\"metric\": \"mpi_wait_senders\""}},
      {"hybrid",
       {"\"metric\": \"omp_lock_contention_critical\"", "\"metric\": \"delay_ompbarrier\"",
        "\"metric\": \"delay_latesender_longterm\""}},
      {"competing_transfers", {"\"metric\": \"comms_rma_puts\""}}};
  for (const auto& [name, anchor] : test::WriteJobScenarios()) {
    otf2::ReadOptions options;
    options.allow_partial = true;
    options.threads = 2;
    const Pages single = SingleProcessPages(anchor, options, true);
    for (const std::string& text : expected.at(name)) {
      EXPECT_NE(single.json.find(text), std::string::npos) << name << ": " << text;
    }
    for (uint32_t ranks : kRankCounts) CheckJobReport(anchor, ranks, true, single);
    CheckJobReport(anchor, 3, false, SingleProcessPages(anchor, options, false));
  }
}

// The bottleneck analysis as a job: every finding, its causes and root causes, the three
// load-balance levels, the redundant barriers, the frequency analysis and the predicted savings
// (replayed from the file on the first rank) as one process finds them, on 1 to 4 ranks.
TEST(JobAnalysisTest, TheBottleneckAnalysisIsOneProcessesOnOneToFourRanks) {
  std::vector<std::string> anchors;
  for (const std::string& name : test::RealTraceNames()) anchors.push_back(test::RealTrace(name));
  for (const auto& [name, anchor] : test::WriteJobScenarios()) anchors.push_back(anchor);
  // A Late Sender with an imbalanced call path as its root cause.
  anchors.push_back(test::LateSecondSend().WriteOrDie(cw::testing::MakeTempDir("job-advice")));
  // A Late Sender whose root causes come from the delay analysis (every location's delay costs,
  // gathered on the first rank).
  anchors.push_back(test::TakingTurns().WriteOrDie(cw::testing::MakeTempDir("job-advice-delay")));
  size_t findings = 0;
  for (const std::string& anchor : anchors) {
    otf2::ReadOptions options;
    options.allow_partial = true;
    options.threads = 2;
    const Pages single =
        SingleProcessPages(anchor, options, true, analysis::Semantics::kCauseway, true);
    ASSERT_NE(single.json.find("\"advice\": {"), std::string::npos) << anchor;
    for (size_t at = single.json.find("\"predicted_saving\""); at != std::string::npos;
         at = single.json.find("\"predicted_saving\"", at + 1)) {
      ++findings;
    }
    for (uint32_t ranks : kRankCounts) {
      CheckJobReport(anchor, ranks, true, single, analysis::Semantics::kCauseway, true);
    }
    CheckJobReport(anchor, 3, false,
                   SingleProcessPages(anchor, options, false, analysis::Semantics::kCauseway, true),
                   analysis::Semantics::kCauseway, true);
  }
  EXPECT_GT(findings, 5u);  // equal reports are not equally empty
}

}  // namespace
}  // namespace cw::driver
