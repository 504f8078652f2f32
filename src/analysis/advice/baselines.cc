#include "analysis/advice/baselines.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <tuple>

namespace cw::analysis {
namespace {

// Linear between the points around `x` (sorted by x), clamped to the first and last.
template <typename Point, typename X, typename Y>
double Interpolate(const std::vector<Point>& points, double x, X x_of, Y y_of) {
  if (x <= x_of(points.front())) return y_of(points.front());
  if (x >= x_of(points.back())) return y_of(points.back());
  for (size_t k = 1; k < points.size(); ++k) {
    const double x1 = x_of(points[k]);
    if (x > x1) continue;
    const double x0 = x_of(points[k - 1]);
    const double y0 = y_of(points[k - 1]);
    if (x1 == x0) return y0;
    return y0 + (y_of(points[k]) - y0) * (x - x0) / (x1 - x0);
  }
  return y_of(points.back());
}

}  // namespace

Result<Baselines> Baselines::Read(const std::string& path) {
  std::ifstream in(path);
  if (!in) return MakeError(ErrorCode::kNotFound, "cannot read the baselines " + path);
  std::stringstream text;
  text << in.rdbuf();
  return Parse(text.str(), path);
}

Result<Baselines> Baselines::Parse(std::string_view text, std::string_view origin) {
  Baselines b;
  std::istringstream in{std::string(text)};
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (const size_t hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::string construct;
    if (!(fields >> construct)) continue;
    double processes = 0, bytes = 0, seconds = 0;
    std::string rest;
    if (!(fields >> processes >> bytes >> seconds) || (fields >> rest) || processes < 1 ||
        processes != std::floor(processes) || processes > 1e9 || bytes < 0 || bytes > 1e18 ||
        !(seconds >= 0) || !std::isfinite(seconds)) {
      return MakeError(ErrorCode::kInvalidArgument,
                       std::string(origin) + ":" + std::to_string(number) +
                           ": expected 'CONSTRUCT PROCESSES BYTES SECONDS' (processes a whole "
                           "number >= 1, bytes and seconds >= 0)");
    }
    b.entries_[construct].push_back(
        Entry{static_cast<uint32_t>(processes), static_cast<uint64_t>(bytes), seconds});
  }
  for (auto& [construct, entries] : b.entries_) {
    std::sort(entries.begin(), entries.end(), [](const Entry& x, const Entry& y) {
      return std::tie(x.processes, x.bytes) < std::tie(y.processes, y.bytes);
    });
  }
  return b;
}

std::optional<double> Baselines::Seconds(std::string_view construct, uint32_t processes,
                                         double bytes) const {
  auto it = entries_.find(construct);
  if (it == entries_.end() || it->second.empty()) return std::nullopt;
  // Per process count measured, the baseline at `bytes`; then between the process counts.
  std::vector<std::pair<double, double>> by_processes;  // (processes, seconds at `bytes`)
  const std::vector<Entry>& entries = it->second;
  for (size_t first = 0; first < entries.size();) {
    size_t last = first;
    while (last < entries.size() && entries[last].processes == entries[first].processes) ++last;
    const std::vector<Entry> sizes(entries.begin() + static_cast<std::ptrdiff_t>(first),
                                   entries.begin() + static_cast<std::ptrdiff_t>(last));
    by_processes.emplace_back(
        entries[first].processes,
        Interpolate(
            sizes, bytes, [](const Entry& e) { return static_cast<double>(e.bytes); },
            [](const Entry& e) { return e.seconds; }));
    first = last;
  }
  return Interpolate(
      by_processes, processes, [](const auto& p) { return p.first; },
      [](const auto& p) { return p.second; });
}

}  // namespace cw::analysis
