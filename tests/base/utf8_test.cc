// ValidUtf8 keeps well-formed UTF-8 and replaces every byte that does not begin a well-formed
// sequence with U+FFFD (RFC 3629).
#include <gtest/gtest.h>

#include "base/utf8.h"

namespace cw {
namespace {

const char kReplacement[] = "\xEF\xBF\xBD";

TEST(Utf8Test, KeepsWellFormedText) {
  for (const char* text :
       {"", "MPI_Send", "main/foo<int>", "caf\xC3\xA9", "\xE2\x82\xAC 5", "\xF0\x9F\x98\x80"}) {
    EXPECT_EQ(ValidUtf8(text), text);
  }
}

TEST(Utf8Test, ReplacesEachBadByte) {
  EXPECT_EQ(ValidUtf8("a\xFF"
                      "b"),
            std::string("a") + kReplacement + "b");
  EXPECT_EQ(ValidUtf8("\xC3"), kReplacement);                                  // truncated
  EXPECT_EQ(ValidUtf8("\xC0\xAF"), std::string(kReplacement) + kReplacement);  // overlong
  EXPECT_EQ(ValidUtf8("\xED\xA0\x80"),                                         // a surrogate
            std::string(kReplacement) + kReplacement + kReplacement);
  EXPECT_EQ(ValidUtf8("\xF4\x90\x80\x80").size(), 4 * std::string(kReplacement).size());
  EXPECT_EQ(ValidUtf8("\x80x"), std::string(kReplacement) + "x");  // a lone continuation byte
}

}  // namespace
}  // namespace cw
