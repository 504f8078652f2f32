#include "trace/call_tree.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "trace/trace.h"

namespace cw::trace {
namespace {

TEST(CallTreeTest, InternsPathsAndParentsPrecedeChildren) {
  CallTree tree;
  uint32_t main = tree.Intern(kNone, 10);
  uint32_t foo = tree.Intern(main, 11);
  uint32_t foo_again = tree.Intern(main, 11);
  uint32_t other_foo = tree.Intern(kNone, 11);
  EXPECT_EQ(foo, foo_again);
  EXPECT_NE(foo, other_foo);
  EXPECT_LT(main, foo);
  EXPECT_EQ(tree.Depth(foo), 1u);
  EXPECT_EQ(tree.region(foo), 11u);
  EXPECT_EQ(tree.size(), 3u);
}

TEST(CallTreeTest, LabelsOfDeepPathsKeepTheRootAndTheInnermostFour) {
  // Regions 0..7 named r0..r7, nested in that order.
  CallTree tree;
  std::vector<uint32_t> ids;
  for (uint32_t r = 0; r < 8; ++r) ids.push_back(tree.Intern(r == 0 ? kNone : ids.back(), r));
  auto name = [](uint32_t region) { return "r" + std::to_string(region); };
  // Six regions are shown whole; a seventh shortens the label to the root and the last four.
  EXPECT_EQ(tree.PathLabel(ids[5], name), "r0/r1/r2/r3/r4/r5");
  EXPECT_EQ(tree.PathLabel(ids[6], name), "r0/.../r3/r4/r5/r6");
  EXPECT_EQ(tree.PathLabel(ids[7], name), "r0/.../r4/r5/r6/r7");
  EXPECT_EQ(tree.PathName(ids[7], name), "r0/r1/r2/r3/r4/r5/r6/r7");
  EXPECT_EQ(tree.PathLabel(99, name), "<none>");
}

TEST(CallTreeTest, AssembleMergesLocalTreesDeterministically) {
  // Location 0 knows main/a; location 1 knows main/b and main/a (in that order).
  Trace trace;
  trace.locations.resize(2);
  CallTree local0, local1;
  uint32_t m0 = local0.Intern(kNone, 1);
  local0.Intern(m0, 2);
  uint32_t m1 = local1.Intern(kNone, 1);
  local1.Intern(m1, 3);
  local1.Intern(m1, 2);
  AssembleCallTree(trace, {local0, local1}, 2);
  ASSERT_EQ(trace.call_tree.size(), 3u);
  EXPECT_EQ(trace.call_tree.region(0), 1u);
  EXPECT_EQ(trace.call_tree.region(1), 2u);
  EXPECT_EQ(trace.call_tree.region(2), 3u);
}

}  // namespace
}  // namespace cw::trace
