#include "base/diagnostics.h"

#include <gtest/gtest.h>

namespace cw {
namespace {

constexpr DiagnosticKind kA{"test.a", Severity::kInfo, "a"};
constexpr DiagnosticKind kB{"test.b", Severity::kError, "b"};

TEST(DiagnosticsTest, CountsAndKeepsFirstExample) {
  Diagnostics d;
  d.Report(kA, "first");
  d.Report(kA, "second");
  d.Report(kA, "", 3);
  EXPECT_EQ(d.Count(kA), 5u);
  EXPECT_EQ(d.Count(kB), 0u);
  ASSERT_EQ(d.Sorted().size(), 1u);
  EXPECT_EQ(d.Sorted()[0].example, "first");
}

TEST(DiagnosticsTest, MergeAddsAndSortsWorstFirst) {
  Diagnostics a, b;
  a.Report(kA, "x");
  b.Report(kB, "y", 2);
  b.Report(kA, "z");
  a.Merge(b);
  EXPECT_EQ(a.Count(kA), 2u);
  EXPECT_EQ(a.Count(kB), 2u);
  std::vector<Diagnostics::Entry> sorted = a.Sorted();
  ASSERT_EQ(sorted.size(), 2u);
  EXPECT_EQ(sorted[0].kind->name, "test.b");
  EXPECT_EQ(sorted[1].example, "x");
}

TEST(DiagnosticsTest, ZeroCountIsIgnored) {
  Diagnostics d;
  d.Report(kA, "x", 0);
  EXPECT_TRUE(d.empty());
}

}  // namespace
}  // namespace cw
