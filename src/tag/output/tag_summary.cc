#include <algorithm>
#include <cstdio>
#include <map>
#include <string>

#include "base/units.h"
#include "base/utf8.h"
#include "tag/graph/sections.h"
#include "tag/model/loops.h"
#include "tag/output/tag_writers.h"

namespace cw::tag {
namespace {

std::string Percent(double share) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.0f%%", 100.0 * share);
  return buffer;
}

// The class in words: its dominant loop, where its time goes, its heaviest computation.
// Why class `index` is not an earlier one ("" for the first): a line.
std::string ContrastText(const TagDocument& doc, size_t index) {
  if (index == 0 || index - 1 >= doc.class_contrasts.size()) return "";
  const ClassContrast& contrast = doc.class_contrasts[index - 1];
  const std::string other = "class " + std::to_string(contrast.closest + 1);
  switch (contrast.difference) {
    case Difference::kStructure:
    case Difference::kEquivalent:
      return "  not " + other + ": other activities, edges or partners\n";
    case Difference::kCounts:
      return "  not " + other + ": the same graph, run other numbers of times\n";
    case Difference::kTimes:
      break;
  }
  const ProcessGraph& g = doc.processes[doc.clusters[index].representative];
  const TimeDistance& d = contrast.distance;
  return "  not " + other + ": the same graph and counts, times " +
         FormatDuration(g.Seconds(d.ticks)) + " apart where " +
         FormatDuration(g.Seconds(d.allowed())) + " are allowed (" +
         FormatDuration(g.Seconds(d.share_allowance)) + " by the tolerance, " +
         FormatDuration(g.Seconds(d.noise_allowance)) + " by the visits' scatter)\n";
}

std::string DescribeClass(const TagDocument& doc, const Cluster& c, size_t index) {
  const ProcessGraph& g = doc.processes[c.representative];
  const double total = g.TotalTicks();
  auto share = [&](double ticks) { return total > 0 ? ticks / total : 0.0; };
  std::vector<uint32_t> ranks = MemberRanks(doc, c);
  std::string text = "Class " + std::to_string(index + 1) + ": " +
                     (ranks.size() == 1 ? "rank " + RankList(ranks) + " behaves on its own"
                                        : "ranks " + RankList(ranks) + " behave alike");
  // Its heaviest loop, named as the sections name it (by the program's marker where it has one).
  const std::vector<Section> sections =
      c.representative < doc.sections.size() ? doc.sections[c.representative] : FindSections(g);
  const Section* heaviest = nullptr;
  for (const Section& s : sections) {
    if (s.kind == SectionKind::kLoop && (heaviest == nullptr || s.ticks > heaviest->ticks)) {
      heaviest = &s;
    }
  }
  if (heaviest != nullptr) {
    text += ": " + DisplayText(heaviest->label) + ", " + std::to_string(heaviest->iterations) +
            " iterations (" + Percent(share(heaviest->ticks)) + " of the time)";
  }
  uint32_t top = kNoNode;
  for (uint32_t v = 0; v < g.nodes.size(); ++v) {
    if (top == kNoNode || g.nodes[v].time.total > g.nodes[top].time.total) top = v;
  }
  if (top != kNoNode && g.nodes[top].time.total > 0) {
    text += ", " + Percent(share(g.nodes[top].time.total)) + " of the time in " +
            DisplayText(g.nodes[top].name);
  }
  text += "\n" + ContrastText(doc, index);
  text += "  time per process " + FormatDuration(g.Seconds(c.min_ticks));
  if (c.max_ticks > c.min_ticks) text += " to " + FormatDuration(g.Seconds(c.max_ticks));
  text += "; " + std::to_string(g.nodes.size()) + " nodes, " + std::to_string(g.edges.size()) +
          " edges\n";

  // The heaviest activities and computations of the representative.
  struct Item {
    double ticks;
    std::string what;
  };
  std::vector<Item> items;
  for (const Node& n : g.nodes) {
    if (n.time.total > 0) {
      items.push_back({n.time.total, DisplayText(NodeLabel(n)) + " (" +
                                         std::to_string(n.time.count) + " calls)"});
    }
  }
  for (const Edge& e : g.edges) {
    if (e.kind == EdgeKind::kFlow && e.time.total > 0) {
      items.push_back({e.time.total, "computing between " + DisplayText(g.nodes[e.from].name) +
                                         " and " + DisplayText(g.nodes[e.to].name) + " (" +
                                         std::to_string(e.time.count) + " times)"});
    }
  }
  std::stable_sort(items.begin(), items.end(),
                   [](const Item& a, const Item& b) { return a.ticks > b.ticks; });
  for (size_t i = 0; i < items.size() && i < 3; ++i) {
    char line[64];
    std::snprintf(line, sizeof line, "  %5.1f%%  ", 100.0 * share(items[i].ticks));
    text += line + items[i].what + "\n";
  }
  return text;
}

// The causal paths of each class's marked loops (Sikora et al. 2016 §3.7): the distinct sequences
// of activities and partners its representative's iterations took, the most frequent first.
std::string PathsText(const TagDocument& doc) {
  std::string text;
  for (size_t c = 0; c < doc.clusters.size(); ++c) {
    const ProcessGraph& g = doc.processes[doc.clusters[c].representative];
    std::map<uint32_t, std::vector<const CausalPath*>> by_loop;
    for (const CausalPath& p : g.paths) by_loop[p.loop].push_back(&p);
    for (auto& [loop, paths] : by_loop) {
      std::stable_sort(paths.begin(), paths.end(), [](const CausalPath* a, const CausalPath* b) {
        return a->time.count > b->time.count;
      });
      uint64_t iterations = 0;
      for (const CausalPath* p : paths) iterations += p->time.count;
      text += "  class " + std::to_string(c + 1) + ", loop " + DisplayText(g.nodes[loop].name) +
              ": " + std::to_string(paths.size()) + (paths.size() == 1 ? " path" : " paths") +
              " in " + std::to_string(iterations) + " iterations\n";
      for (size_t i = 0; i < paths.size() && i < 3; ++i) {
        std::string steps;
        for (const PathStep& s : paths[i]->steps) {
          if (!steps.empty()) steps += ", ";
          steps += DisplayText(g.nodes[s.node].name);
          if (s.peer != kNoRank) steps += " (" + std::to_string(s.peer) + ")";
          if (steps.size() > 160) {
            steps += ", ...";
            break;
          }
        }
        char count[32];
        std::snprintf(count, sizeof count, "    %6llux  ",
                      static_cast<unsigned long long>(paths[i]->time.count));
        text +=
            count + steps + " (mean " + FormatDuration(g.Seconds(paths[i]->time.mean())) + ")\n";
      }
    }
  }
  return text.empty()
             ? ""
             : "Causal paths of the marked loops (activity (partner rank))\n" + text + "\n";
}

// Each section's classes and spread (Sikora et al. 2016 §5.2: sub-classes per phase).
std::string SectionsText(const TagDocument& doc) {
  if (doc.section_classes.empty()) return "";
  const std::map<std::string, SectionSpread>& spreads = doc.section_spreads;
  std::string text = "Sections (the processes compared loop by loop)\n";
  for (const SectionClasses& sc : doc.section_classes) {
    auto it = spreads.find(sc.key);
    if (it == spreads.end()) continue;
    const SectionSpread& sp = it->second;
    std::string classes;
    for (const Cluster& c : sc.classes) {
      classes += (classes.empty() ? "{" : ", {") + RankList(MemberRanks(doc, c)) + "}";
    }
    text += "  " + DisplayText(sc.label) + ": " + std::to_string(sc.classes.size()) +
            (sc.classes.size() == 1 ? " class " : " classes ") + classes + "; " +
            FormatDuration(sp.min_seconds);
    if (sp.max_seconds > sp.min_seconds) {
      text += " to " + FormatDuration(sp.max_seconds) + " (slowest rank " +
              std::to_string(sp.slowest_rank) + ")";
    }
    text += " per process\n";
  }
  return text + "\n";
}

}  // namespace

std::string TagSummary(const TagDocument& doc) {
  std::string text = "Task activity graphs of " + DisplayText(doc.source) +
                     (doc.online ? " (recorded online)" : "") + "\n";
  if (!doc.window.empty()) {
    text += "Window " + DisplayText(doc.window) +
            ": what happened between these snapshots (minima and maxima are of the run so "
            "far)\n";
  }
  for (const std::string& note : doc.notes) text += "Note: " + DisplayText(note) + "\n";
  size_t nodes = 0, edges = 0;
  for (const ProcessGraph& g : doc.processes) {
    nodes += g.nodes.size();
    edges += g.edges.size();
  }
  char tolerance[96];
  if (doc.noise_sigmas > 0) {
    std::snprintf(tolerance, sizeof tolerance, "%g%% or %g times the visits' scatter",
                  100.0 * doc.tolerance, doc.noise_sigmas);
  } else {
    std::snprintf(tolerance, sizeof tolerance, "%g%%", 100.0 * doc.tolerance);
  }
  text += std::to_string(doc.processes.size()) + " processes, " + std::to_string(nodes) +
          " nodes and " + std::to_string(edges) + " edges in all, " +
          std::to_string(doc.ptag.size()) + " inter-process edges; " +
          std::to_string(doc.clusters.size()) + " behaviour classes (time tolerance " + tolerance +
          ")\n\n";
  for (size_t i = 0; i < doc.clusters.size(); ++i) {
    text += DescribeClass(doc, doc.clusters[i], i) + "\n";
  }
  text += SectionsText(doc);
  text += PathsText(doc);
  const double tps = doc.processes.empty() ? 1 : doc.processes.front().ticks_per_second;
  const std::vector<Tendency>& tendencies = doc.findings.tendencies;
  if (!tendencies.empty()) text += "Waiting, from the message edges\n";
  for (size_t i = 0; i < tendencies.size() && i < 5; ++i) {
    const Tendency& t = tendencies[i];
    const ProcessGraph& g = doc.processes[t.process];
    text += "  rank " + std::to_string(g.rank) + " " + DisplayText(NodeLabel(g.nodes[t.node]));
    if (t.kind == TendencyKind::kLateSender) {
      text += std::string(t.many_senders ? " waits for many late senders ("
                                         : " waits for a late sender (") +
              RankList(t.peers) + "): " + std::to_string(t.late) + " of " +
              std::to_string(t.messages) + " messages, about " + FormatDuration(t.ticks / tps) +
              "\n";
    } else {
      text += " receives late from " + RankList(t.peers) + ": " + std::to_string(t.late) + " of " +
              std::to_string(t.messages) + " messages were sent " + FormatDuration(t.ticks / tps) +
              " earlier in all\n";
    }
  }
  if (!tendencies.empty()) text += "\n";
  const std::vector<ClassSpread>& spreads = doc.findings.class_spreads;
  if (!spreads.empty()) text += "Imbalance within classes\n";
  for (size_t i = 0; i < spreads.size() && i < 5; ++i) {
    const ClassSpread& s = spreads[i];
    text += "  class " + std::to_string(s.cluster + 1) + " " + DisplayText(s.callpath) + ": " +
            FormatDuration(s.min_ticks / tps) + " to " + FormatDuration(s.max_ticks / tps) +
            " (mean " + FormatDuration(s.mean_ticks / tps) + "), slowest rank " +
            std::to_string(s.slowest_rank) + "\n";
  }
  if (!spreads.empty()) text += "\n";
  if (!doc.tool_seconds.empty()) {
    // What recording cost the program: the ranks' own time in the tool, against their run.
    double most = 0, share = 0;
    for (size_t p = 0; p < doc.tool_seconds.size() && p < doc.processes.size(); ++p) {
      most = std::max(most, doc.tool_seconds[p]);
      const double run = doc.processes[p].Seconds(doc.processes[p].TotalTicks());
      if (run > 0) share = std::max(share, doc.tool_seconds[p] / run);
    }
    char line[160];
    std::snprintf(line, sizeof line,
                  "Recording the graphs took at most %s of a rank's time (%.2f%% of its run)\n",
                  FormatDuration(most).c_str(), 100 * share);
    text += line;
  }
  if (doc.folded_callpaths > 0) {
    text += "Recursion: " + std::to_string(doc.folded_callpaths) + " call paths went deeper than " +
            std::to_string(doc.recursion_depth) +
            " calls of one region and were counted at that depth (--recursion-depth)\n";
  }
  return text;
}

}  // namespace cw::tag
