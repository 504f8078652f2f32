// Properties that must hold on every real trace: the metric tree adds up, wait states never
// exceed the time of the calls they occur in, and results do not depend on the thread count.
#include <cmath>
#include <filesystem>
#include <map>

#include <gtest/gtest.h>

#include "clock/controlled_logical_clock.h"
#include "match/matcher.h"
#include "otf2/trace_reader.h"
#include "report/json_writer.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"
#include "tests/common/root_cause_invariants.h"

namespace cw::test {
namespace {

namespace fs = std::filesystem;
using analysis::MetricId;

// value(metric, callpath, location) as a dense lookup.
class Values {
 public:
  explicit Values(const report::Report& r) {
    for (const report::Value& v : r.values) map_[{v.metric, v.callpath, v.location}] = v.value;
  }
  double Get(MetricId m, uint32_t cp, uint32_t loc) const {
    auto it = map_.find({m, cp, loc});
    return it == map_.end() ? 0.0 : it->second;
  }

 private:
  std::map<std::tuple<MetricId, uint32_t, uint32_t>, double> map_;
};

void ExpectSum(const Values& v, MetricId parent, std::initializer_list<MetricId> children,
               uint32_t cp, uint32_t loc, bool exact) {
  double sum = 0;
  for (MetricId c : children) sum += v.Get(c, cp, loc);
  double p = v.Get(parent, cp, loc);
  if (exact) {
    EXPECT_NEAR(p, sum, 1e-9 * (1 + std::fabs(p))) << analysis::Metric(parent).name;
  } else {
    EXPECT_GE(p + 1e-9 * (1 + std::fabs(p)), sum) << analysis::Metric(parent).name;
  }
}

TEST(InvariantsTest, MetricTreeAddsUpAndWaitsFitInTheirCalls) {
  for (const std::string& name : RealTraceNames()) {
    SCOPED_TRACE(name);
    Analysis a = AnalyzeFile(RealTrace(name));
    Values v(a.report);
    for (uint32_t loc = 0; loc < a.report.locations.size(); ++loc) {
      for (uint32_t cp = 0; cp < a.report.callpaths.size(); ++cp) {
        using M = MetricId;
        ExpectSum(v, M::kTime, {M::kExecution, M::kOverhead, M::kOmpIdleThreads}, cp, loc, true);
        ExpectSum(v, M::kOmpIdleThreads, {M::kOmpLimitedParallelism}, cp, loc, false);
        ExpectSum(v, M::kExecution,
                  {M::kComp, M::kMpi, M::kOmpTime, M::kPthreadTime, M::kCudaTime, M::kOpenClTime,
                   M::kOpenAccTime},
                  cp, loc, true);
        ExpectSum(v, M::kMpi,
                  {M::kMpiManagement, M::kMpiSynchronization, M::kMpiCommunication, M::kMpiIo}, cp,
                  loc, false);
        ExpectSum(v, M::kMpiPoint2Point, {M::kMpiLateSender, M::kMpiLateReceiver}, cp, loc, false);
        ExpectSum(v, M::kMpiLateSender, {M::kMpiLateSenderWo}, cp, loc, false);
        ExpectSum(v, M::kMpiLateSenderWo, {M::kMpiLswoSame, M::kMpiLswoDifferent}, cp, loc, true);
        ExpectSum(v, M::kMpiSyncCollective, {M::kMpiBarrierWait, M::kMpiBarrierCompletion}, cp, loc,
                  false);
        ExpectSum(v, M::kMpiCollective,
                  {M::kMpiWaitNxn, M::kMpiNxnCompletion, M::kMpiLateBroadcast, M::kMpiEarlyReduce,
                   M::kMpiEarlyScan},
                  cp, loc, false);
        ExpectSum(v, M::kMpiInitExit, {M::kMpiInitCompletion, M::kMpiFinalizeWait}, cp, loc, false);
        ExpectSum(v, M::kSyncs, {M::kSyncsP2p, M::kSyncsColl}, cp, loc, true);
        ExpectSum(v, M::kComms, {M::kCommsP2p, M::kCommsColl, M::kCommsRma}, cp, loc, true);
        ExpectSum(v, M::kBytes, {M::kBytesP2p, M::kBytesColl, M::kBytesRma}, cp, loc, true);
        ExpectSum(v, M::kBytesP2p, {M::kBytesSent, M::kBytesRcvd}, cp, loc, true);
        ExpectSum(v, M::kSyncsRecv, {M::kMpiSlsCount}, cp, loc, false);
        ExpectSum(v, M::kCommsRecv, {M::kMpiClsCount}, cp, loc, false);
      }
    }
    // No location is busy longer than the trace lasts.
    std::vector<double> time = a.report.PerLocation(MetricId::kTime);
    for (double t : time) EXPECT_LE(t, a.report.trace.duration * (1 + 1e-12));
    // Every received message was sent: received bytes never exceed sent bytes.
    EXPECT_LE(a.Total("bytes_rcvd"), a.Total("bytes_sent"));
  }
}

// Delay costs add up to the waiting time, every wait is split in full, the critical path spans
// the analysis window and the performance impacts add up to processes x window.
TEST(InvariantsTest, RootCauseAnalysesAccountForAllWaitingAndTheWholeRun) {
  for (const std::string& name : RealTraceNames()) {
    SCOPED_TRACE(name);
    Analysis a = AnalyzeFile(RealTrace(name));
    InvariantOptions options;
    options.clock_condition_holds =
        a.report.trace.clock_violations_p2p == 0 && a.report.trace.clock_violations_collective == 0;
    ExpectRootCauseInvariants(a, options);
  }
}

// After --time-correct no clock-condition violation is left, local order and distances are kept
// (within γ), and the root-cause invariants hold with the clock condition.
TEST(InvariantsTest, TimeCorrectionLeavesNoViolations) {
  for (const std::string& name : RealTraceNames()) {
    SCOPED_TRACE(name);
    Analysis original = AnalyzeFile(RealTrace(name));
    Analysis a = AnalyzeFile(RealTrace(name), 2, /*time_correct=*/true);
    ASSERT_TRUE(a.correction.has_value());
    EXPECT_EQ(a.correction->after.total(), 0u);
    EXPECT_EQ(a.correction->unresolved, 0u);
    EXPECT_EQ(a.report.trace.clock_violations_p2p + a.report.trace.clock_violations_collective +
                  a.report.trace.clock_violations_probe,
              0u);
    if (a.correction->before.total() == 0) {
      EXPECT_EQ(a.correction->corrected_events, 0u);
    }
    const double gamma = clock::ClockOptions{}.gamma;
    for (uint32_t l = 0; l < a.trace.location_count(); ++l) {
      const trace::LocationEvents& before = original.trace.location(l);
      const trace::LocationEvents& after = a.trace.location(l);
      ASSERT_EQ(before.size(), after.size());
      for (uint32_t i = 1; i < after.size(); ++i) {
        ASSERT_GE(static_cast<double>(after.time(i) - after.time(i - 1)),
                  std::ceil(gamma * static_cast<double>(before.time(i) - before.time(i - 1))))
            << "location " << l << " event " << i;
      }
    }
    std::printf("%s: %llu violations before correction, %llu events moved, max shift %.3g s\n",
                name.c_str(), static_cast<unsigned long long>(a.correction->before.total()),
                static_cast<unsigned long long>(a.correction->corrected_events),
                a.report.clock_correction->max_shift);
    ExpectRootCauseInvariants(a, InvariantOptions{});
  }
}

// The same with violations injected: the clock of the first location runs 200 µs ahead.
TEST(InvariantsTest, TimeCorrectionRepairsAnInjectedClockSkew) {
  for (const std::string& name : RealTraceNames()) {
    SCOPED_TRACE(name);
    Result<trace::Trace> read = otf2::ReadTrace(RealTrace(name), otf2::ReadOptions{});
    ASSERT_TRUE(read) << read.error().message();
    trace::Trace& t = *read;
    const uint64_t skew = 200 * t.defs.clock.resolution / 1000000;
    std::vector<uint64_t> times(t.location(0).size());
    for (uint32_t i = 0; i < times.size(); ++i) times[i] = t.location(0).time(i) + skew;
    t.locations[0].ReplaceTimes(times);
    match::SyncGraph g = match::MatchTrace(t, 2);
    clock::ClockCorrection c = clock::CorrectTimestamps(t, g, clock::ClockOptions{});
    std::printf("%s: %llu violations injected\n", name.c_str(),
                static_cast<unsigned long long>(c.before.total()));
    EXPECT_EQ(c.after.total(), 0u);
    EXPECT_EQ(c.unresolved, 0u);
    g = match::MatchTrace(t, 2);
    EXPECT_EQ(clock::CountViolations(t, clock::BuildClockCondition(t, g)).total(), 0u);
  }
}

TEST(InvariantsTest, ResultsDoNotDependOnTheThreadCount) {
  for (const std::string& name : RealTraceNames()) {
    SCOPED_TRACE(name);
    std::string one = report::ToJson(AnalyzeFile(RealTrace(name), 1).report);
    std::string four = report::ToJson(AnalyzeFile(RealTrace(name), 4).report);
    EXPECT_EQ(one, four);
    // Two workers split differently again; the sanitizer build's run checks memory, not this.
    if (!CW_SANITIZED) {
      EXPECT_EQ(one, report::ToJson(AnalyzeFile(RealTrace(name), 2).report));
    }
  }
}

}  // namespace
}  // namespace cw::test
