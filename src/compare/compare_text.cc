#include "compare/compare_text.h"

#include <cmath>
#include <cstdio>

namespace cw::compare {
namespace {

std::string Seconds(double s) {
  char b[32];
  if (std::fabs(s) >= 1) {
    std::snprintf(b, sizeof(b), "%.3g s", s);
  } else if (std::fabs(s) >= 1e-3) {
    std::snprintf(b, sizeof(b), "%.3g ms", s * 1e3);
  } else {
    std::snprintf(b, sizeof(b), "%.3g us", s * 1e6);
  }
  return b;
}

std::string Percent(const std::optional<double>& v) {
  if (!v) return "     -";
  char b[16];
  std::snprintf(b, sizeof(b), "%5.1f%%", 100 * *v);
  return b;
}

}  // namespace

std::string CompareSummaryText(const Comparison& c) {
  std::string out = "causeway comparison: ";
  out += c.scaling ? std::string(c.weak ? "weak" : "strong") + " scaling over " +
                         std::to_string(c.groups.size()) + " process counts\n\n"
                   : std::to_string(c.groups.size()) + " revisions on " +
                         std::to_string(c.groups.front().processes) + " processes\n\n";
  for (const std::string& w : c.warnings) out += "warning: " + w + "\n";
  if (!c.warnings.empty()) out += "\n";

  char line[512];
  std::snprintf(line, sizeof(line), "%-24s %6s %5s %12s %10s %7s %7s %7s %7s %7s\n", "run", "procs",
                "reps", "runtime", "spread", "effic.", "par.", "load", "comm.", "transf.");
  out += line;
  for (const RunGroup& g : c.groups) {
    std::string label = g.label.size() > 24 ? g.label.substr(0, 21) + "..." : g.label;
    std::snprintf(line, sizeof(line), "%-24s %6u %5zu %12s %10s %7s %7s %7s %7s %7s\n",
                  label.c_str(), g.processes, g.repetitions, Seconds(g.runtime).c_str(),
                  g.repetitions > 1 ? ("+-" + Seconds(g.runtime_stddev)).c_str() : "-",
                  Percent(g.efficiency).c_str(), Percent(g.pop.parallel).c_str(),
                  Percent(g.pop.load_balance).c_str(), Percent(g.pop.communication).c_str(),
                  Percent(g.pop.transfer).c_str());
    out += line;
  }
  out += "\n";

  if (c.scaling) {
    if (c.predicted_runtime) {
      out += "Runtime model: " + c.runtime_model->Formula() + "; predicted at " +
             std::to_string(static_cast<long long>(*c.target_processes)) +
             " processes: " + Seconds(*c.predicted_runtime) + "\n\n";
    }
    // The call paths that scale worst: lowest efficiency at the largest count.
    std::vector<const CallpathComparison*> worst;
    for (const CallpathComparison& p : c.callpaths) {
      if (!p.setup && p.efficiency.back() && p.time.mean.back() > 0.01 * c.groups.back().runtime) {
        worst.push_back(&p);
      }
    }
    std::stable_sort(worst.begin(), worst.end(), [](const auto* a, const auto* b) {
      return *a->efficiency.back() < *b->efficiency.back();
    });
    out += "Call paths that scale worst (efficiency at " +
           std::to_string(c.groups.back().processes) +
           " processes; those above 1 % of the runtime):\n";
    for (size_t k = 0; k < worst.size() && k < 10; ++k) {
      const CallpathComparison& p = *worst[k];
      out += " " + std::to_string(k + 1) + ". " + p.path + "\n    efficiency " +
             Percent(p.efficiency.back()) + ", " + Seconds(p.time.mean.front()) + " -> " +
             Seconds(p.time.mean.back()) + " (share " + Percent(p.share.front()) + " -> " +
             Percent(p.share.back()) + ")";
      if (p.model) out += "\n    model " + p.model->Formula();
      out += "\n";
    }
    if (c.target_processes && c.predicted_runtime) {
      out += "\nAt " + std::to_string(static_cast<long long>(*c.target_processes)) +
             " processes these will dominate (predicted time of the slowest process; those above "
             "1 % of the runtime):\n";
      bool any = false;
      for (const CallpathComparison& p : c.callpaths) {
        if (!p.dominant) continue;
        any = true;
        out += " " + std::to_string(*p.dominant) + ". " + p.path + ": " + Seconds(*p.predicted) +
               " (" + p.model->Formula() + ")\n";
      }
      if (!any) out += " (none above 1 % of the runtime)\n";
    } else {
      out += "\n(Scaling models need three or more process counts.)\n";
    }
    return out;
  }

  out += "Changes against " + c.groups.front().label + ":\n";
  size_t shown = 0;
  for (const Change& ch : c.changes) {
    if (!ch.significant) continue;
    const bool better = ch.after < ch.before;
    const bool time_like = ch.what.rfind("metric ", 0) != 0 || ch.what == "metric time";
    std::string verdict =
        time_like ? (better ? "improved" : "got worse") : (better ? "decreased" : "increased");
    out += "  " + c.groups[ch.group].label + ": " + ch.what + " " + verdict + ", " +
           Seconds(ch.before) + " -> " + Seconds(ch.after) +
           (ch.confirmed ? "" : " (no repetitions: beyond the threshold, not confirmed)") + "\n";
    if (++shown == 20) break;
  }
  if (shown == 0) out += "  none beyond the noise\n";
  return out;
}

}  // namespace cw::compare
