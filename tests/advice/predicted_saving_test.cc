// What fixing a finding saves, predicted by the what-if replay (advice_savings/), on a
// hand-built trace with the derivation beside it (one tick is one second).
#include <gtest/gtest.h>

#include "advice_savings/predicted_saving.h"
#include "tests/common/analysis_fixture.h"

namespace cw::analysis {
namespace {

// advice_test.cc's trace: rank 0 runs a (0..1), sends, b (2..10), sends, c (11..12), sends;
// rank 1's second receive (3..11) waits 7 s for the send after b.
testing::Scenario LateSecondSend() {
  testing::Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Call(0, 1, "a")
      .Send(1, 2, 1, 0, 8)
      .Call(2, 10, "b")
      .Send(10, 11, 1, 0, 8)
      .Call(11, 12, "c")
      .Send(12, 13, 1, 0, 8)
      .Leave(40, "main");
  s.rank(1)
      .Enter(0, "main")
      .Recv(0, 2, 0, 0, 8)
      .Recv(3, 11, 0, 0, 8)
      .Recv(12, 13, 0, 0, 8)
      .Leave(40, "main");
  return s;
}

TEST(PredictedSavingTest, BalancingAnImbalancedCallPathIsReplayed) {
  AnalysisOptions options;
  options.threads = 2;
  options.advice = true;
  test::Analysis a = test::AnalyzeScenarioWith(LateSecondSend(), options);
  Advice& advice = *a.result.advice;
  ASSERT_EQ(advice.findings.size(), 2u);
  ASSERT_TRUE(advice_savings::PredictSavings(a.trace, advice, 5).has_value());
  // b at its mean over the two processes (4 s of 8) on rank 0: b ends at 6, the second send
  // runs 6..7, c 7..8, the third send 8..9 and main ends 27 s later, at 36. Rank 1's second
  // receive is ready at 6 and leaves at 7 (its 1 s after the send's Enter); the third, entered
  // 1 s later (8), leaves with its send at 9; main ends at 36. The run is 4 s shorter.
  const AdviceFinding& first = advice.findings[0];
  EXPECT_EQ(first.pattern, AdvicePattern::kImbalancedCallpath);
  ASSERT_TRUE(first.predicted_saving.has_value());
  EXPECT_DOUBLE_EQ(*first.predicted_saving, 4.0);
  // The Late Sender's fix is not modelled: no prediction, ranked after.
  EXPECT_EQ(advice.findings[1].pattern, AdvicePattern::kLateSender);
  EXPECT_FALSE(advice.findings[1].predicted_saving.has_value());
  // No replay at all: nothing predicted, the order by excess kept.
  test::Analysis b = test::AnalyzeScenarioWith(LateSecondSend(), options);
  ASSERT_TRUE(advice_savings::PredictSavings(b.trace, *b.result.advice, 0).has_value());
  EXPECT_EQ(b.result.advice->findings[0].pattern, AdvicePattern::kLateSender);
  EXPECT_FALSE(b.result.advice->findings[1].predicted_saving.has_value());
}

}  // namespace
}  // namespace cw::analysis
