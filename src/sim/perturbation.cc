#include "sim/perturbation.h"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "base/units.h"

namespace cw::sim {
namespace {

Result<uint32_t> ParseRank(std::string_view text, std::string_view whole) {
  uint32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return MakeError(ErrorCode::kInvalidArgument, "rank list '" + std::string(whole) + "': '" +
                                                      std::string(text) +
                                                      "' is not a rank (write 0-3,8)");
  }
  return value;
}

}  // namespace

bool RankSet::Contains(uint32_t rank) const {
  if (ranges_.empty()) return true;
  for (auto [first, last] : ranges_) {
    if (rank >= first && rank <= last) return true;
  }
  return false;
}

std::string RankSet::Describe() const {
  if (ranges_.empty()) return "all ranks";
  std::string out =
      ranges_.size() == 1 && ranges_[0].first == ranges_[0].second ? "rank " : "ranks ";
  for (size_t i = 0; i < ranges_.size(); ++i) {
    if (i) out += ",";
    out += std::to_string(ranges_[i].first);
    if (ranges_[i].second != ranges_[i].first) out += "-" + std::to_string(ranges_[i].second);
  }
  return out;
}

Result<RankSet> ParseRankSet(std::string_view text) {
  RankSet set;
  std::string_view rest = text;
  if (rest.empty()) {
    return MakeError(ErrorCode::kInvalidArgument, "an empty rank list (write 0-3,8)");
  }
  while (!rest.empty()) {
    size_t comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    size_t dash = item.find('-');
    CW_ASSIGN_OR_RETURN(uint32_t first, ParseRank(item.substr(0, dash), text));
    uint32_t last = first;
    if (dash != std::string_view::npos) {
      CW_ASSIGN_OR_RETURN(last, ParseRank(item.substr(dash + 1), text));
    }
    if (last < first) {
      return MakeError(
          ErrorCode::kInvalidArgument,
          "rank list '" + std::string(text) + "': range " + std::string(item) + " runs backwards");
    }
    set.ranges_.emplace_back(first, last);
  }
  return set;
}

Result<ComputeScale> ParseComputeScale(std::string_view spec) {
  ComputeScale scale;
  std::string_view rest = spec;
  size_t at = rest.rfind('@');
  if (at != std::string_view::npos) {
    CW_ASSIGN_OR_RETURN(scale.ranks, ParseRankSet(rest.substr(at + 1)));
    rest = rest.substr(0, at);
  }
  size_t eq = rest.rfind('=');
  std::string_view factor = rest;
  if (eq != std::string_view::npos) {
    scale.region = std::string(rest.substr(0, eq));
    factor = rest.substr(eq + 1);
    if (scale.region.empty()) {
      return MakeError(ErrorCode::kInvalidArgument,
                       "compute scale '" + std::string(spec) + "': empty region name");
    }
  }
  std::string number(factor);
  char* end = nullptr;
  scale.factor = std::strtod(number.c_str(), &end);
  if (number.empty() || *end != '\0' || !std::isfinite(scale.factor) || scale.factor < 0) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "compute scale '" + std::string(spec) +
                         "': the factor must be a non-negative number (write 0.5, solve=0.5 or "
                         "solve=2@1)");
  }
  return scale;
}

bool Perturbation::Empty() const {
  const NetworkChange& n = network;
  if (n.ideal || n.cost_factor != 1 || n.latency || n.per_byte || n.overhead || n.gap ||
      n.eager_limit) {
    return false;
  }
  for (const ComputeScale& c : compute) {
    if (c.factor != 1) return false;
  }
  for (const ComputeWindow& w : windows) {
    if (w.factor != 1) return false;
  }
  return calls.empty() && !noise.active();
}

std::vector<std::string> Perturbation::Describe() const {
  std::vector<std::string> lines;
  const NetworkChange& n = network;
  if (n.ideal) lines.push_back("network: ideal (no latency, infinite bandwidth)");
  if (n.cost_factor != 1) {
    lines.push_back("network: measured communication costs x" + std::to_string(n.cost_factor));
  }
  if (n.latency) lines.push_back("network latency: " + FormatDuration(*n.latency));
  if (n.per_byte) {
    lines.push_back("network bandwidth: " + std::to_string(1e-9 / *n.per_byte) + " GB/s");
  }
  if (n.overhead) lines.push_back("overhead per message: " + FormatDuration(*n.overhead));
  if (n.gap) lines.push_back("gap between messages: " + FormatDuration(*n.gap));
  if (n.eager_limit) lines.push_back("eager limit: " + std::to_string(*n.eager_limit) + " bytes");
  for (const ComputeScale& c : compute) {
    const std::string what = c.callpath != trace::kNone
                                 ? " of call path " + std::to_string(c.callpath) + " itself"
                             : c.region.empty() ? std::string()
                                                : " in " + c.region;
    const std::string where =
        c.location != trace::kNone ? "location " + std::to_string(c.location) : c.ranks.Describe();
    lines.push_back("computation" + what + " x" + std::to_string(c.factor) + " on " + where);
  }
  if (!windows.empty()) {
    lines.push_back("computation scaled in " + std::to_string(windows.size()) +
                    " intervals of single locations");
  }
  for (const CallChange& c : calls) {
    lines.push_back("calls of call path " + std::to_string(c.callpath) +
                    (c.remove ? std::string(" removed")
                              : " cost at most " + FormatDuration(c.max_cost.value_or(0))));
  }
  if (noise.active()) {
    lines.push_back("noise per computation phase: " + noise.Describe() + " on " +
                    noise_ranks.Describe());
  }
  if (lines.empty()) lines.push_back("none (identity replay)");
  return lines;
}

}  // namespace cw::sim
