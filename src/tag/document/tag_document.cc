#include "tag/document/tag_document.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <utility>

namespace cw::tag {
namespace {

// The per-process communication view summed per pair of behaviour classes.
std::vector<ClassEdge> ClassCommunicationView(const TagDocument& doc) {
  std::map<uint32_t, size_t> class_of_rank;
  for (size_t c = 0; c < doc.clusters.size(); ++c) {
    for (uint32_t r : MemberRanks(doc, doc.clusters[c])) class_of_rank[r] = c;
  }
  std::map<std::pair<size_t, size_t>, ClassEdge> pairs;
  for (const PhaseEdge& e : doc.communication_view) {
    auto from = class_of_rank.find(e.from_rank), to = class_of_rank.find(e.to_rank);
    if (from == class_of_rank.end() || to == class_of_rank.end()) continue;
    ClassEdge& sum = pairs[{from->second, to->second}];
    sum.from_class = from->second;
    sum.to_class = to->second;
    sum.count += e.count;
    sum.bytes += e.bytes;
  }
  std::vector<ClassEdge> view;
  for (const auto& [ends, sum] : pairs) view.push_back(sum);
  return view;
}

// For each class after the first, the earlier class its representative comes closest to.
std::vector<ClassContrast> ContrastClasses(const TagDocument& doc, const ClusterOptions& options) {
  std::vector<ClassContrast> contrasts;
  for (size_t i = 1; i < doc.clusters.size(); ++i) {
    std::optional<ClassContrast> best;
    // How close: times before counts before structure; among times, the smaller share of the
    // allowed distance.
    auto closeness = [](const ClassContrast& c) {
      const int rank = c.difference == Difference::kTimes    ? 0
                       : c.difference == Difference::kCounts ? 1
                                                             : 2;
      const double share = rank == 0 && c.distance.allowed() > 0
                               ? c.distance.ticks / c.distance.allowed()
                               : std::numeric_limits<double>::infinity();
      return std::pair{rank, share};
    };
    for (size_t j = 0; j < i; ++j) {
      ClassContrast c;
      c.closest = static_cast<uint32_t>(j);
      c.difference = Compare(doc.processes, doc.clusters[j].representative,
                             doc.clusters[i].representative, options, &c.distance);
      if (!best || closeness(c) < closeness(*best)) best = c;
    }
    contrasts.push_back(*best);
  }
  return contrasts;
}

}  // namespace

void AnalyzeGraphs(TagDocument& doc) {
  const ClusterOptions options{.tolerance = doc.tolerance, .noise_sigmas = doc.noise_sigmas};
  doc.ptag = InterProcessEdges(doc.processes);
  doc.clusters = ClusterProcesses(doc.processes, options);
  doc.class_contrasts = ContrastClasses(doc, options);
  doc.sections.clear();
  for (const ProcessGraph& g : doc.processes) doc.sections.push_back(FindSections(g));
  doc.section_classes = ClusterSections(doc.processes, doc.sections, options);
  doc.section_spreads = SpreadOfSections(doc.processes, doc.sections);
  doc.findings = FindTendencies(doc.processes, doc.clusters);
  doc.communication_view = CommunicationPhaseView(doc.ptag);
  doc.class_communication_view = ClassCommunicationView(doc);
}

std::string RankList(std::vector<uint32_t> ranks) {
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  std::string text;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1) ++j;
    if (!text.empty()) text += ", ";
    text += std::to_string(ranks[i]);
    if (j > i) text += (j == i + 1 ? ", " : "\u2013") + std::to_string(ranks[j]);
    i = j + 1;
  }
  return text;
}

std::vector<uint32_t> MemberRanks(const TagDocument& doc, const Cluster& cluster) {
  std::vector<uint32_t> ranks;
  for (uint32_t m : cluster.members) ranks.push_back(doc.processes[m].rank);
  return ranks;
}

}  // namespace cw::tag
