#include "trace/profile.h"

#include <gtest/gtest.h>

#include "tests/common/analysis_fixture.h"

namespace cw::trace {
namespace {

// One rank: main [0, 100] calls foo [10, 40] twice-nested bar [20, 30], then foo again [50, 60].
TEST(ProfileTest, ExclusiveInclusiveAndVisits) {
  testing::Scenario s(1);
  s.rank(0)
      .Enter(0, "main")
      .Enter(10, "foo")
      .Call(20, 30, "bar")
      .Leave(40, "foo")
      .Call(50, 60, "foo")
      .Leave(100, "main");
  test::Analysis a = test::AnalyzeScenario(s);
  uint32_t main = a.Callpath("main"), foo = a.Callpath("main/foo"),
           bar = a.Callpath("main/foo/bar");
  LocationProfile p = ComputeLocationProfile(a.trace, 0);
  // main: 100 inclusive, minus foo (30 + 10) = 60 exclusive.
  EXPECT_EQ(p.inclusive[main], 100u);
  EXPECT_EQ(p.exclusive[main], 60u);
  // foo: 30 + 10 inclusive; minus bar 10 = 30 exclusive.
  EXPECT_EQ(p.inclusive[foo], 40u);
  EXPECT_EQ(p.exclusive[foo], 30u);
  EXPECT_EQ(p.exclusive[bar], 10u);
  EXPECT_EQ(p.visits[foo], 2u);
  EXPECT_EQ(p.total, 100u);
}

}  // namespace
}  // namespace cw::trace
