#include "compare/comparison.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace cw::compare {
namespace {

double Mean(const std::vector<double>& v) {
  double sum = 0;
  for (double x : v) sum += x;
  return v.empty() ? 0 : sum / static_cast<double>(v.size());
}

// The sample standard deviation (0 for fewer than two values).
double Stddev(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = Mean(v);
  double sum = 0;
  for (double x : v) sum += (x - m) * (x - m);
  return std::sqrt(sum / static_cast<double>(v.size() - 1));
}

std::optional<double> MeanOf(const std::vector<const RunSummary*>& runs,
                             std::optional<double> PopFigures::*field) {
  std::vector<double> known;
  for (const RunSummary* r : runs) {
    if (r->pop.*field) known.push_back(*(r->pop.*field));
  }
  if (known.empty()) return std::nullopt;
  return Mean(known);
}

// Parallel efficiency of `t` on `p` processes against `t0` on `p0`.
std::optional<double> Efficiency(double t0, double p0, double t, double p, bool weak) {
  if (t <= 0 || t0 <= 0 || p <= 0 || p0 <= 0) return std::nullopt;
  return weak ? t0 / t : (t0 / t) / (p / p0);
}

// Runs of different programs share few call paths: compare what they share, and say so.
void CheckSamePrograms(const std::vector<RunSummary>& runs, std::vector<std::string>& warnings) {
  for (size_t r = 1; r < runs.size(); ++r) {
    size_t shared = 0;
    for (const auto& [path, t] : runs[r].callpaths) shared += runs[0].callpaths.count(path);
    const size_t smaller = std::min(runs[0].callpaths.size(), runs[r].callpaths.size());
    if (smaller > 0 && 2 * shared < smaller) {
      warnings.push_back(runs[r].label + " (" + runs[r].source + ") shares " +
                         std::to_string(shared) + " of its call paths with " + runs[0].label +
                         ": runs of different programs? Only the shared call paths are compared");
    }
  }
}

// The runs by group, in the groups' order: by process count (scaling, ascending) or by label
// (revisions, in order of first appearance).
using Groups = std::vector<std::vector<const RunSummary*>>;

Groups GroupRuns(const std::vector<RunSummary>& runs, bool scaling) {
  Groups members;
  std::vector<std::string> keys;
  for (const RunSummary& r : runs) {
    const std::string key = scaling ? std::to_string(r.processes) : r.label;
    auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end()) {
      keys.push_back(key);
      members.emplace_back();
      it = keys.end() - 1;
    }
    members[static_cast<size_t>(it - keys.begin())].push_back(&r);
  }
  if (scaling) {
    std::stable_sort(members.begin(), members.end(), [](const auto& a, const auto& b) {
      return a.front()->processes < b.front()->processes;
    });
  }
  return members;
}

RunGroup SummariseGroup(const std::vector<const RunSummary*>& group) {
  RunGroup g;
  g.processes = group.front()->processes;
  g.repetitions = group.size();
  std::vector<double> times;
  std::vector<std::string> labels;
  for (const RunSummary* r : group) {
    times.push_back(r->runtime);
    if (std::find(labels.begin(), labels.end(), r->label) == labels.end()) {
      labels.push_back(r->label);
    }
  }
  for (const std::string& l : labels) g.label += (g.label.empty() ? "" : ", ") + l;
  g.runtime = Mean(times);
  g.runtime_min = *std::min_element(times.begin(), times.end());
  g.runtime_max = *std::max_element(times.begin(), times.end());
  g.runtime_stddev = Stddev(times);
  g.pop.parallel = MeanOf(group, &PopFigures::parallel);
  g.pop.load_balance = MeanOf(group, &PopFigures::load_balance);
  g.pop.communication = MeanOf(group, &PopFigures::communication);
  g.pop.serialisation = MeanOf(group, &PopFigures::serialisation);
  g.pop.transfer = MeanOf(group, &PopFigures::transfer);
  g.pop.average_computation = MeanOf(group, &PopFigures::average_computation);
  return g;
}

// A value of each run as a series over the groups, and as the points the scaling models fit.
class GroupSeries {
 public:
  explicit GroupSeries(const Groups& members) : members_(members) {}

  template <typename ValueOf>
  Series Of(ValueOf value_of) const {
    Series s;
    for (const std::vector<const RunSummary*>& group : members_) {
      std::vector<double> v;
      for (const RunSummary* r : group) v.push_back(value_of(*r));
      s.mean.push_back(Mean(v));
      s.stddev.push_back(Stddev(v));
    }
    return s;
  }
  // Each process count's mean over its repetitions (leaving one repetition out would leave its
  // siblings in: no cross-validation).
  template <typename ValueOf>
  std::vector<std::pair<double, double>> Points(ValueOf value_of) const {
    std::vector<std::pair<double, double>> p;
    const Series s = Of(value_of);
    for (size_t g = 0; g < members_.size(); ++g)
      p.emplace_back(members_[g].front()->processes, s.mean[g]);
    return p;
  }

 private:
  const Groups& members_;
};

// The call paths every run has (the others are not comparable).
std::set<std::string> SharedPaths(const std::vector<RunSummary>& runs) {
  std::set<std::string> shared;
  for (const auto& [path, t] : runs.front().callpaths) shared.insert(path);
  for (const RunSummary& r : runs) {
    std::set<std::string> keep;
    for (const std::string& p : shared) {
      if (r.callpaths.count(p)) keep.insert(p);
    }
    shared = std::move(keep);
  }
  return shared;
}

void CompareCallpaths(const std::vector<RunSummary>& runs, const GroupSeries& series, bool models,
                      const CompareOptions& options, Comparison& out) {
  const RunGroup& base = out.groups.front();
  for (const std::string& path : SharedPaths(runs)) {
    CallpathComparison c;
    c.path = path;
    c.setup = runs.front().setup.count(path) > 0;
    auto time_of = [&path](const RunSummary& r) { return r.callpaths.at(path).max; };
    c.time = series.Of(time_of);
    for (size_t g = 0; g < out.groups.size(); ++g) {
      c.share.push_back(out.groups[g].runtime > 0 ? c.time.mean[g] / out.groups[g].runtime : 0);
      if (out.scaling) {
        c.efficiency.push_back(Efficiency(c.time.mean.front(), base.processes, c.time.mean[g],
                                          out.groups[g].processes, options.weak));
      }
    }
    if (models) {
      c.model = FitScalingModel(series.Points(time_of));
      c.predicted = std::max(0.0, c.model->At(*out.target_processes));
    }
    out.callpaths.push_back(std::move(c));
  }
  // Scaling: the call paths that will dominate at the target size first (else those that take
  // the most time at the largest size); revisions: the most time in any group first.
  auto weight = [&](const CallpathComparison& c) {
    if (c.predicted) return *c.predicted;
    return out.scaling ? c.time.mean.back()
                       : *std::max_element(c.time.mean.begin(), c.time.mean.end());
  };
  std::stable_sort(out.callpaths.begin(), out.callpaths.end(),
                   [&](const CallpathComparison& a, const CallpathComparison& b) {
                     if (a.setup != b.setup) return b.setup;
                     return weight(a) > weight(b);
                   });
  if (!models || !out.predicted_runtime) return;
  // A path predicted at a few microseconds dominates nothing: those below 1 % of the predicted
  // runtime (or of the largest group's, if that is more) are not said to.
  double largest = 0;
  for (const RunGroup& g : out.groups) largest = std::max(largest, g.runtime);
  const double floor = 0.01 * std::max(*out.predicted_runtime, largest);
  int place = 0;
  for (CallpathComparison& c : out.callpaths) {
    if (place == kDominantPaths) break;
    if (!c.setup && c.predicted && *c.predicted >= floor) c.dominant = ++place;
  }
}

void CompareMetrics(const std::vector<RunSummary>& runs, const GroupSeries& series, bool models,
                    Comparison& out) {
  std::set<std::string> metric_names;
  for (const RunSummary& r : runs) {
    for (const auto& [name, total] : r.metrics) metric_names.insert(name);
  }
  for (const std::string& name : metric_names) {
    MetricComparison m;
    m.name = name;
    auto total_of = [&name](const RunSummary& r) {
      auto it = r.metrics.find(name);
      return it == r.metrics.end() ? 0.0 : it->second;
    };
    m.total = series.Of(total_of);
    if (models) {
      m.model = FitScalingModel(series.Points(total_of));
      m.predicted = std::max(0.0, m.model->At(*out.target_processes));
    }
    out.metrics.push_back(std::move(m));
  }
}

void CompareCategories(const std::vector<RunSummary>& runs, const GroupSeries& series,
                       Comparison& out) {
  std::vector<std::pair<std::string, std::string>> categories;  // (metric, display)
  for (const RunSummary& r : runs) {
    for (const Category& k : r.categories) {
      const bool known = std::any_of(categories.begin(), categories.end(),
                                     [&k](const auto& c) { return c.first == k.metric; });
      if (!known) categories.emplace_back(k.metric, k.display);
    }
  }
  for (const auto& [metric, display] : categories) {
    CategoryComparison k;
    k.metric = metric;
    k.display = display;
    const std::string name = metric;  // (lambdas cannot name a binding)
    k.seconds = series.Of([&name](const RunSummary& r) {
      for (const Category& c : r.categories) {
        if (c.metric == name) return c.seconds;
      }
      return 0.0;
    });
    // Categories the program never used (OpenACC in an MPI code) would only crowd the legend.
    if (std::any_of(k.seconds.mean.begin(), k.seconds.mean.end(), [](double v) { return v > 0; })) {
      out.categories.push_back(std::move(k));
    }
  }
}

// Revisions: each later revision against the first (the runtime, the top call paths, every
// metric), significant changes first, then by size.
void RevisionChanges(const GroupSeries& series, const CompareOptions& options, Comparison& out) {
  auto change = [&](const std::string& what, const Series& s, size_t g) {
    Change c;
    c.what = what;
    c.group = g;
    c.before = s.mean.front();
    c.after = s.mean[g];
    const double delta = std::fabs(c.after - c.before);
    const size_t n0 = out.groups.front().repetitions, n1 = out.groups[g].repetitions;
    c.confirmed = n0 >= 2 && n1 >= 2;
    if (c.confirmed) {
      // Beyond twice the standard error of the difference of the means.
      const double error = std::sqrt(s.stddev.front() * s.stddev.front() / static_cast<double>(n0) +
                                     s.stddev[g] * s.stddev[g] / static_cast<double>(n1));
      c.significant = delta > 2 * error && delta > 0;
    } else {
      c.significant = delta >= options.change_threshold * std::fabs(c.before) && delta > 0;
    }
    return c;
  };
  const Series runtime = series.Of([](const RunSummary& r) { return r.runtime; });
  for (size_t g = 1; g < out.groups.size(); ++g) {
    out.changes.push_back(change("runtime", runtime, g));
    for (size_t k = 0; k < out.callpaths.size() && k < options.top_callpaths; ++k) {
      out.changes.push_back(change(out.callpaths[k].path, out.callpaths[k].time, g));
    }
    for (const MetricComparison& m : out.metrics) {
      out.changes.push_back(change("metric " + m.name, m.total, g));
    }
  }
  std::stable_sort(out.changes.begin(), out.changes.end(), [](const Change& a, const Change& b) {
    if (a.significant != b.significant) return a.significant;
    return std::fabs(a.after - a.before) > std::fabs(b.after - b.before);
  });
}

}  // namespace

Result<Comparison> Compare(const std::vector<RunSummary>& runs, const CompareOptions& options) {
  if (runs.size() < 2) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "compare needs at least two runs (traces or report directories)");
  }
  Comparison out;
  out.weak = options.weak;
  std::set<uint32_t> counts;
  for (const RunSummary& r : runs) counts.insert(r.processes);
  out.scaling = counts.size() > 1;
  CheckSamePrograms(runs, out.warnings);

  const Groups members = GroupRuns(runs, out.scaling);
  for (const std::vector<const RunSummary*>& group : members)
    out.groups.push_back(SummariseGroup(group));
  const RunGroup& base = out.groups.front();
  const double base_computation = base.pop.average_computation.value_or(0) * base.processes;
  for (RunGroup& g : out.groups) {
    if (g.pop.average_computation && *g.pop.average_computation > 0 && base_computation > 0) {
      const double total = *g.pop.average_computation * g.processes;
      g.computation_scalability =
          options.weak ? base_computation / base.processes / *g.pop.average_computation
                       : base_computation / total;
    }
  }
  if (out.scaling) {
    for (RunGroup& g : out.groups) {
      g.efficiency = Efficiency(base.runtime, base.processes, g.runtime, g.processes, options.weak);
    }
    out.target_processes = options.predict ? *options.predict : 4.0 * *counts.rbegin();
  }
  const GroupSeries series(members);
  const bool models = out.scaling && counts.size() >= 3;
  if (models) {
    out.runtime_model =
        FitScalingModel(series.Points([](const RunSummary& r) { return r.runtime; }));
    out.predicted_runtime = out.runtime_model->At(*out.target_processes);
  }
  CompareCallpaths(runs, series, models, options, out);
  CompareMetrics(runs, series, models, out);
  CompareCategories(runs, series, out);
  if (!out.scaling) RevisionChanges(series, options, out);
  return out;
}

}  // namespace cw::compare
