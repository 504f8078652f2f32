// Quantities with units, as users type them on the command line: "5us", "10GB/s", "64KiB".
//
// Every parser accepts a plain number too (seconds, bytes per second, bytes) and rejects what is
// not a finite, non-negative quantity with a message that names the accepted units.
//
//   Result<double> s = ParseDuration("2.5ms");        // 0.0025
//   Result<double> bw = ParseBandwidth("10GB/s");     // 1e10
//   Result<uint64_t> b = ParseByteCount("64KiB");     // 65536
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace cw {

// Seconds; units s, ms, us (or µs), ns.
Result<double> ParseDuration(std::string_view text);
// Bytes per second; units B/s, KB/s, MB/s, GB/s, TB/s (powers of 1000), KiB/s ... TiB/s, and
// the same in bits: Kb/s, Mb/s, Gb/s, Tb/s (also "Gbit/s").
Result<double> ParseBandwidth(std::string_view text);
// Bytes; units B, KB, MB, GB (powers of 1000), KiB, MiB, GiB (powers of 1024).
Result<uint64_t> ParseByteCount(std::string_view text);

// "2.5 ms", "12 us", "340 ns": a duration in the unit that keeps 1 to 3 digits before the point.
std::string FormatDuration(double seconds);
// "1.5 GiB", "640 KiB", "12 B": bytes in the binary unit that keeps 1 to 3 digits before the point.
std::string FormatByteCount(uint64_t bytes);

}  // namespace cw
