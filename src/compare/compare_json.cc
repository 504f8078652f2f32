#include "compare/compare_json.h"

#include <nlohmann/json.hpp>

namespace cw::compare {
namespace {

using nlohmann::json;

json Optional(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json Model(const std::optional<ScalingModel>& m) {
  if (!m) return nullptr;
  return {{"formula", m->Formula()},
          {"terms",
           {{"c0", m->c0},
            {"c1", m->c1},
            {"i", m->i.value()},
            {"i_fraction", std::to_string(m->i.numerator) + "/" + std::to_string(m->i.denominator)},
            {"j", m->j}}},
          {"constant", m->constant},
          {"cv_error", m->cv_error},
          {"r_squared", m->r_squared}};
}

json Pop(const PopFigures& p) {
  return {{"parallel_efficiency", Optional(p.parallel)},
          {"load_balance", Optional(p.load_balance)},
          {"communication_efficiency", Optional(p.communication)},
          {"serialisation_efficiency", Optional(p.serialisation)},
          {"transfer_efficiency", Optional(p.transfer)},
          {"average_computation", Optional(p.average_computation)}};
}

}  // namespace

std::string CompareJson(const Comparison& c) {
  json runs = json::array();
  for (const RunGroup& g : c.groups) {
    json pop = Pop(g.pop);
    pop["computation_scalability"] = Optional(g.computation_scalability);
    runs.push_back({{"label", g.label},
                    {"processes", g.processes},
                    {"repetitions", g.repetitions},
                    {"runtime", g.runtime},
                    {"runtime_min", g.runtime_min},
                    {"runtime_max", g.runtime_max},
                    {"runtime_stddev", g.runtime_stddev},
                    {"efficiency", Optional(g.efficiency)},
                    {"pop", pop}});
  }
  json callpaths = json::array();
  for (const CallpathComparison& p : c.callpaths) {
    json efficiency = json::array();
    for (const std::optional<double>& e : p.efficiency) efficiency.push_back(Optional(e));
    json entry = {{"callpath", p.path},
                  {"setup", p.setup},
                  {"times", p.time.mean},
                  {"stddev", p.time.stddev},
                  {"share", p.share},
                  {"efficiency", c.scaling ? efficiency : json(nullptr)},
                  {"model", p.model ? json(p.model->Formula()) : json(nullptr)},
                  {"terms", p.model ? Model(p.model)["terms"] : json(nullptr)},
                  {"fit", Model(p.model)},
                  {"predicted", Optional(p.predicted)},
                  {"dominant", p.dominant ? json(*p.dominant) : json(nullptr)}};
    callpaths.push_back(std::move(entry));
  }
  json metrics = json::array();
  for (const MetricComparison& m : c.metrics) {
    metrics.push_back({{"metric", m.name},
                       {"totals", m.total.mean},
                       {"stddev", m.total.stddev},
                       {"model", m.model ? json(m.model->Formula()) : json(nullptr)},
                       {"fit", Model(m.model)},
                       {"predicted", Optional(m.predicted)}});
  }
  json categories = json::array();
  for (const CategoryComparison& k : c.categories) {
    categories.push_back({{"metric", k.metric},
                          {"display", k.display},
                          {"seconds", k.seconds.mean},
                          {"stddev", k.seconds.stddev}});
  }
  json changes = json::array();
  for (const Change& ch : c.changes) {
    changes.push_back({{"what", ch.what},
                       {"run", ch.group},
                       {"before", ch.before},
                       {"after", ch.after},
                       {"change", ch.after - ch.before},
                       {"significant", ch.significant},
                       {"confirmed", ch.confirmed}});
  }
  const json out = {{"format", "causeway-compare"},
                    {"version", 1},
                    {"kind", c.scaling ? "scalability" : "revisions"},
                    {"scaling", c.scaling ? (c.weak ? "weak" : "strong") : json(nullptr)},
                    {"runs", runs},
                    {"callpaths", callpaths},
                    {"metrics", metrics},
                    {"categories", categories},
                    {"target_processes", Optional(c.target_processes)},
                    {"runtime_model", Model(c.runtime_model)},
                    {"predicted_runtime", Optional(c.predicted_runtime)},
                    {"changes", changes},
                    {"warnings", c.warnings}};
  return out.dump(1) + "\n";
}

}  // namespace cw::compare
