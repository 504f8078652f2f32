// The hotspot candidates (detection.h): the call paths whose instances may pass the hotspot
// filter, decided from the profiles before the walk over the events, and the instances of them
// that the walk collects for the cause analysis (location_walk.h). That the cause analysis finds
// the same from these instances as from every event is checked on every real trace by
// JobAnalysisTest (an analysis job's ranks read every event, one process the instances).
#include <gtest/gtest.h>

#include "analysis/advice/detection.h"
#include "analysis/advice/instance_stats.h"
#include "analysis/advice/location_walk.h"
#include "analysis/generic/construct_map.h"
#include "tests/advice/advice_fixture.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"

namespace cw::analysis {
namespace {

using test::Analysis;

std::vector<GenericType> RegionTypes(const trace::Trace& trace) {
  return ConstructMap::Builtin().ClassifyRegions(trace.defs);
}

// The candidates as "call path" names, in call-path order.
std::vector<std::string> CandidateNames(const Analysis& a, double share) {
  AdviceParameters p;
  p.hotspot_share = share;
  const std::vector<GenericType> types = RegionTypes(a.trace);
  const std::vector<uint8_t> candidates =
      HotspotCandidates(a.trace, types, TotalLocationTime(a.trace), p);
  std::vector<std::string> out;
  for (uint32_t c = 0; c < candidates.size(); ++c) {
    if (candidates[c] != 0) out.push_back(a.trace.CallpathName(c));
  }
  return out;
}

// test::LateSecondSend: main lasts 0..40 on both ranks, so all time is 80 s. By inclusive time
// over both ranks: main 80, main/MPI_Recv 2 + 8 + 1 = 11, main/b 8, main/MPI_Send 3 x 1 = 3,
// main/a and main/c 1 each.
TEST(HotspotCandidatesTest, AreTheCallPathsWhoseInclusiveTimeExceedsTheShare) {
  const Analysis a = AdviseOn(test::LateSecondSend());
  // 20 %: 16 s, main alone (AdviceTest.TheHotspotFilterComesFirst counts one candidate).
  EXPECT_EQ(CandidateNames(a, 0.2), std::vector<std::string>{"main"});
  // 10 %: 8 s, and main/b's 8 s are not above it.
  EXPECT_EQ(CandidateNames(a, 0.1), (std::vector<std::string>{"main", "main/MPI_Recv"}));
  // 1 %: 0.8 s, every call path.
  EXPECT_EQ(CandidateNames(a, 0.01).size(), a.trace.call_tree.size());
}

// At 10 % the walk collects the Enters of main and of rank 1's three receives, in event order:
// rank 1's events are Enter main (0), then per receive its Enter, its record and its Leave (1-3,
// 4-6, 7-9); rank 0's only candidate is main.
TEST(HotspotCandidatesTest, TheWalkCollectsTheirInstancesInEventOrder) {
  const Analysis a = AdviseOn(test::LateSecondSend());
  AdviceParameters p;
  p.hotspot_share = 0.1;
  const std::vector<GenericType> types = RegionTypes(a.trace);
  const std::vector<uint8_t> candidates =
      HotspotCandidates(a.trace, types, TotalLocationTime(a.trace), p);
  const WalkedLocations walked = WalkLocations(a.trace, types, candidates, p, 2);
  ASSERT_EQ(walked.candidate_instances.size(), 2u);
  EXPECT_EQ(walked.candidate_instances[0], std::vector<uint32_t>{0});
  EXPECT_EQ(walked.candidate_instances[1], (std::vector<uint32_t>{0, 1, 4, 7}));
  // Without candidates nothing is collected.
  const WalkedLocations none = WalkLocations(a.trace, types, {}, p, 2);
  for (const std::vector<uint32_t>& l : none.candidate_instances) EXPECT_TRUE(l.empty());
}

// What makes the candidates a superset of the detection's hot call paths: no call path's
// instances measure more in the walk than its inclusive time in the profiles, on any real trace.
TEST(HotspotCandidatesTest, NoCallPathMeasuresMoreThanItsProfileOnAnyRealTrace) {
  for (const std::string& name : test::RealTraceNames()) {
    SCOPED_TRACE(name);
    const Analysis a = test::AnalyzeFile(test::RealTrace(name) + "/traces.otf2");
    const std::vector<GenericType> types = RegionTypes(a.trace);
    const WalkedLocations walked = WalkLocations(a.trace, types, {}, AdviceParameters{}, 2);
    std::vector<uint64_t> inclusive(a.trace.call_tree.size(), 0);
    for (const trace::LocationEvents& ev : a.trace.locations) {
      for (const trace::LocationEvents::CallpathTime& t : ev.profile()) {
        inclusive[t.callpath] += t.inclusive;
      }
    }
    for (uint32_t c = 0; c < walked.stats.size(); ++c) {
      EXPECT_LE(walked.stats[c].total, inclusive[c]) << a.trace.CallpathName(c);
    }
  }
}

}  // namespace
}  // namespace cw::analysis
