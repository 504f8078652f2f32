#include "base/status.h"

#include <gtest/gtest.h>

namespace cw {
namespace {

Result<int> Parse(int v) {
  if (v < 0) return MakeError(ErrorCode::kInvalidArgument, "negative");
  return v * 2;
}

Result<int> Twice(int v) {
  CW_ASSIGN_OR_RETURN(int doubled, Parse(v));
  return doubled * 2;
}

Status Check(int v) {
  CW_RETURN_IF_ERROR(Parse(v));
  return OkStatus();
}

TEST(StatusTest, ValuesPassThrough) {
  Result<int> r = Twice(3);
  ASSERT_TRUE(r);
  EXPECT_EQ(*r, 12);
  EXPECT_TRUE(Check(1));
}

TEST(StatusTest, ErrorsPropagateWithCodeAndMessage) {
  Result<int> r = Twice(-1);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(r.error().message(), "negative");
  EXPECT_FALSE(Check(-5));
}

TEST(StatusTest, ContextReadsOutsideIn) {
  Error e(ErrorCode::kCorrupt, "unknown region 99");
  e.AddContext("event 4711").AddContext("reading location 12");
  EXPECT_EQ(e.message(), "reading location 12: event 4711: unknown region 99");
  EXPECT_STREQ(ErrorCodeName(ErrorCode::kCorrupt), "corrupt input");
}

}  // namespace
}  // namespace cw
