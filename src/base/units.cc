#include "base/units.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <utility>

namespace cw {
namespace {

struct Unit {
  std::string_view name;
  double factor;
};

// Splits "2.5ms" into 2.5 and "ms"; the number must be finite and not negative.
Result<std::pair<double, std::string_view>> SplitQuantity(std::string_view text,
                                                          std::string_view what) {
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  double value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "'" + std::string(text) + "' is not a " + std::string(what));
  }
  if (!std::isfinite(value) || value < 0) {
    return MakeError(
        ErrorCode::kInvalidArgument,
        "'" + std::string(text) + "': a " + std::string(what) + " must be finite and not negative");
  }
  std::string_view unit = text.substr(static_cast<size_t>(end - text.data()));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  return std::make_pair(value, unit);
}

template <size_t N>
Result<double> Scale(std::string_view text, std::string_view what, const Unit (&units)[N],
                     std::string_view accepted) {
  CW_ASSIGN_OR_RETURN(auto split, SplitQuantity(text, what));
  auto [value, unit] = split;
  for (const Unit& u : units) {
    if (unit == u.name) return value * u.factor;
  }
  return MakeError(ErrorCode::kInvalidArgument,
                   "'" + std::string(text) + "': unknown unit '" + std::string(unit) + "' of a " +
                       std::string(what) + " (use " + std::string(accepted) + ")");
}

}  // namespace

Result<double> ParseDuration(std::string_view text) {
  static constexpr Unit kUnits[] = {
      {"", 1}, {"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"\xC2\xB5s", 1e-6}, {"ns", 1e-9}};
  return Scale(text, "duration", kUnits, "s, ms, us or ns");
}

Result<double> ParseBandwidth(std::string_view text) {
  static constexpr Unit kUnits[] = {{"", 1},
                                    {"B/s", 1},
                                    {"KB/s", 1e3},
                                    {"MB/s", 1e6},
                                    {"GB/s", 1e9},
                                    {"TB/s", 1e12},
                                    {"KiB/s", 1024.0},
                                    {"MiB/s", 1048576.0},
                                    {"GiB/s", 1073741824.0},
                                    {"TiB/s", 1099511627776.0},
                                    {"Kb/s", 1e3 / 8},
                                    {"Mb/s", 1e6 / 8},
                                    {"Gb/s", 1e9 / 8},
                                    {"Tb/s", 1e12 / 8},
                                    {"Kbit/s", 1e3 / 8},
                                    {"Mbit/s", 1e6 / 8},
                                    {"Gbit/s", 1e9 / 8},
                                    {"Tbit/s", 1e12 / 8}};
  CW_ASSIGN_OR_RETURN(double value,
                      Scale(text, "bandwidth", kUnits, "B/s, KB/s, MB/s, GB/s, GiB/s or Gb/s"));
  if (value <= 0) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "'" + std::string(text) + "': a bandwidth must be greater than zero");
  }
  return value;
}

Result<uint64_t> ParseByteCount(std::string_view text) {
  static constexpr Unit kUnits[] = {
      {"", 1},     {"B", 1},        {"KB", 1e3},        {"MB", 1e6},
      {"GB", 1e9}, {"KiB", 1024.0}, {"MiB", 1048576.0}, {"GiB", 1073741824.0}};
  CW_ASSIGN_OR_RETURN(double value,
                      Scale(text, "byte count", kUnits, "B, KB, MB, GB, KiB, MiB or GiB"));
  if (value > 1e18 || value != std::floor(value)) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "'" + std::string(text) + "' is not a whole number of bytes");
  }
  return static_cast<uint64_t>(value);
}

std::string FormatDuration(double seconds) {
  static constexpr Unit kUnits[] = {{"s", 1}, {"ms", 1e-3}, {"us", 1e-6}, {"ns", 1e-9}};
  double magnitude = std::fabs(seconds);
  for (const Unit& u : kUnits) {
    if (magnitude >= u.factor || u.name == "ns") {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%.4g %s", seconds / u.factor,
                    std::string(u.name).c_str());
      return buffer;
    }
  }
  return "0 s";
}

std::string FormatByteCount(uint64_t bytes) {
  static constexpr Unit kUnits[] = {
      {"TiB", 1099511627776.0}, {"GiB", 1073741824.0}, {"MiB", 1048576.0}, {"KiB", 1024.0}};
  for (const Unit& u : kUnits) {
    if (static_cast<double>(bytes) >= u.factor) {
      char buffer[64];
      std::snprintf(buffer, sizeof buffer, "%.3g %s", static_cast<double>(bytes) / u.factor,
                    std::string(u.name).c_str());
      return buffer;
    }
  }
  return std::to_string(bytes) + " B";
}

}  // namespace cw
