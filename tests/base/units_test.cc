#include "base/units.h"

#include <gtest/gtest.h>

namespace cw {
namespace {

TEST(UnitsTest, DurationsInEveryUnit) {
  EXPECT_DOUBLE_EQ(*ParseDuration("2"), 2.0);
  EXPECT_DOUBLE_EQ(*ParseDuration("2s"), 2.0);
  EXPECT_DOUBLE_EQ(*ParseDuration("2.5ms"), 2.5e-3);
  EXPECT_DOUBLE_EQ(*ParseDuration("5us"), 5e-6);
  EXPECT_DOUBLE_EQ(*ParseDuration("5 \xC2\xB5s"), 5e-6);
  EXPECT_DOUBLE_EQ(*ParseDuration("340ns"), 340e-9);
  EXPECT_FALSE(ParseDuration("5 min").has_value());
  EXPECT_FALSE(ParseDuration("-1us").has_value());
  EXPECT_FALSE(ParseDuration("us").has_value());
  EXPECT_FALSE(ParseDuration("inf").has_value());
  EXPECT_FALSE(ParseDuration("nan").has_value());
}

TEST(UnitsTest, BandwidthsInBytesAndBits) {
  EXPECT_DOUBLE_EQ(*ParseBandwidth("10GB/s"), 1e10);
  EXPECT_DOUBLE_EQ(*ParseBandwidth("1GiB/s"), 1073741824.0);
  EXPECT_DOUBLE_EQ(*ParseBandwidth("100Gb/s"), 12.5e9);
  EXPECT_DOUBLE_EQ(*ParseBandwidth("100Gbit/s"), 12.5e9);
  EXPECT_FALSE(ParseBandwidth("0GB/s").has_value());
  EXPECT_FALSE(ParseBandwidth("10GB").has_value());
}

TEST(UnitsTest, ByteCountsAreWhole) {
  EXPECT_EQ(*ParseByteCount("64KiB"), 65536u);
  EXPECT_EQ(*ParseByteCount("4KB"), 4000u);
  EXPECT_EQ(*ParseByteCount("12"), 12u);
  EXPECT_FALSE(ParseByteCount("1.5").has_value());
  EXPECT_FALSE(ParseByteCount("1e30").has_value());
}

TEST(UnitsTest, FormatPicksAReadableUnit) {
  EXPECT_EQ(FormatDuration(2.5e-3), "2.5 ms");
  EXPECT_EQ(FormatDuration(12e-6), "12 us");
  EXPECT_EQ(FormatDuration(3), "3 s");
  EXPECT_EQ(FormatByteCount(12), "12 B");
  EXPECT_EQ(FormatByteCount(640 * 1024), "640 KiB");
  EXPECT_EQ(FormatByteCount(3ull << 29), "1.5 GiB");
  EXPECT_EQ(FormatDuration(340e-9), "340 ns");
}

}  // namespace
}  // namespace cw
