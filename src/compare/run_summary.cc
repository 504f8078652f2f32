#include "compare/run_summary.h"

#include <algorithm>
#include <vector>

namespace cw::compare {
namespace {

Status Refuse(const std::string& source, const std::string& why) {
  return MakeError(ErrorCode::kInvalidArgument, source + ": not a causeway report: " + why);
}

std::optional<double> Number(const nlohmann::json& j, const char* key) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return std::nullopt;
  return j[key].get<double>();
}

}  // namespace

Result<RunSummary> ReadRunSummary(const nlohmann::json& report, std::string label,
                                  std::string source) {
  if (!report.is_object() || report.value("format", "") != "causeway-report") {
    CW_RETURN_IF_ERROR(Refuse(source, "its \"format\" is not \"causeway-report\""));
  }
  RunSummary run;
  run.label = std::move(label);
  run.source = std::move(source);
  const nlohmann::json& trace = report.contains("trace") ? report["trace"] : nlohmann::json();
  const std::optional<double> processes = Number(trace, "processes");
  if (!processes || *processes < 1) CW_RETURN_IF_ERROR(Refuse(run.source, "no process count"));
  run.processes = static_cast<uint32_t>(*processes);
  const nlohmann::json& pop = report.contains("pop") ? report["pop"] : nlohmann::json();
  const std::optional<double> runtime = Number(pop, "runtime");
  const std::optional<double> duration = Number(trace, "duration");
  if (!runtime && !duration) CW_RETURN_IF_ERROR(Refuse(run.source, "no runtime"));
  run.runtime = runtime ? *runtime : *duration;
  run.pop.parallel = Number(pop, "parallel_efficiency");
  run.pop.load_balance = Number(pop, "load_balance");
  run.pop.communication = Number(pop, "communication_efficiency");
  run.pop.serialisation = Number(pop, "serialisation_efficiency");
  run.pop.transfer = Number(pop, "transfer_efficiency");
  run.pop.average_computation = Number(pop, "average_computation");

  // Call paths by region path. Parents come before their children in the list, but a path is
  // built by walking up, which needs no order (and stops at a cycle of a broken report).
  if (!report.contains("callpaths") || !report["callpaths"].is_array()) {
    CW_RETURN_IF_ERROR(Refuse(run.source, "no \"callpaths\""));
  }
  const nlohmann::json& callpaths = report["callpaths"];
  std::vector<std::string> names(callpaths.size());
  for (size_t c = 0; c < callpaths.size(); ++c) {
    std::vector<std::string> regions;
    size_t at = c;
    for (size_t steps = 0; steps <= callpaths.size(); ++steps) {
      const nlohmann::json& node = callpaths[at];
      regions.push_back(node.value("region", std::string("?")));
      if (!node.contains("parent") || !node["parent"].is_number_unsigned()) break;
      at = node["parent"].get<size_t>();
      if (at >= callpaths.size()) break;
    }
    std::reverse(regions.begin(), regions.end());
    for (const std::string& r : regions) names[c] += (names[c].empty() ? "" : "/") + r;
    const std::string type = callpaths[c].value("generic_type", std::string());
    if (type == "initialization" || type == "termination") run.setup.insert(names[c]);
  }
  if (!report.contains("values") || !report["values"].is_array()) {
    CW_RETURN_IF_ERROR(Refuse(run.source, "no \"values\""));
  }
  // Per call path and location, the exclusive time; then the slowest location per call path.
  std::map<std::pair<size_t, uint64_t>, double> time;
  for (const nlohmann::json& v : report["values"]) {
    if (!v.is_object() || !v.contains("metric") || !v["metric"].is_string()) continue;
    const std::optional<double> value = Number(v, "value");
    if (!value) continue;
    const std::string metric = v["metric"].get<std::string>();
    run.metrics[metric] += *value;
    if (metric != "time" || !v.contains("callpath") || !v["callpath"].is_number_unsigned()) {
      continue;
    }
    const size_t c = v["callpath"].get<size_t>();
    if (c >= names.size()) continue;
    const uint64_t location = v.value("location", uint64_t{0});
    time[{c, location}] += *value;
  }
  for (const auto& [key, seconds] : time) {
    CallpathTime& t = run.callpaths[names[key.first]];
    t.max = std::max(t.max, seconds);
    t.sum += seconds;
  }
  // The categories of the time: the children of `execution`, each with its subtree's total
  // (the values are exclusive, as in Cube). Children come after their parents in the list.
  if (report.contains("metrics") && report["metrics"].is_array()) {
    const nlohmann::json& metrics = report["metrics"];
    std::map<std::string, double> inclusive;
    for (auto it = metrics.rbegin(); it != metrics.rend(); ++it) {
      if (!it->is_object() || !it->contains("name") || !(*it)["name"].is_string()) continue;
      const std::string name = (*it)["name"].get<std::string>();
      auto own = run.metrics.find(name);
      inclusive[name] += own == run.metrics.end() ? 0.0 : own->second;
      if (it->contains("parent") && (*it)["parent"].is_string()) {
        inclusive[(*it)["parent"].get<std::string>()] += inclusive[name];
      }
    }
    for (const nlohmann::json& m : metrics) {
      if (!m.is_object() || !m.contains("parent") || m["parent"] != "execution") continue;
      const std::string name = m.value("name", std::string());
      run.categories.push_back(Category{name, m.value("display", name), inclusive[name]});
    }
  }
  return run;
}

}  // namespace cw::compare
