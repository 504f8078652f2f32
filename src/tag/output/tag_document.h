// Everything `causeway tag` writes, gathered once: the process graphs, the PTAG's inter-process
// edges and the behavioural classes, with the parameters that made them. The writers only
// format it.
//
//   TagDocument doc{...};
//   WriteTextFile(dir + "/tag.json", TagJson(doc));
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tag/graph/clustering.h"
#include "tag/graph/parallel_graph.h"
#include "tag/graph/tendencies.h"
#include "tag/model/activity_graph.h"

namespace cw::tag {

struct TagDocument {
  std::string source;   // the trace the graphs were built from, or the online run's directory
  bool online = false;  // recorded by `causeway trace --tag`
  std::string window;   // online: "A:B" if the graphs are what happened between two snapshots
  std::vector<std::string> notes;       // what the reader must know about the recording
  std::vector<uint64_t> segment_bytes;  // online: per process, its compacted segment's bytes
  std::vector<double> tool_seconds;     // online: per process, the tool's own time
  std::vector<ProcessGraph> processes;
  std::vector<PtagEdge> ptag;
  std::vector<Cluster> clusters;
  std::vector<std::vector<Section>> sections;   // per process
  std::vector<SectionClasses> section_classes;  // per section key
  GraphFindings findings;
  double tolerance = 0.02;
  uint32_t recursion_depth = 0;
  uint64_t folded_callpaths = 0;
  std::vector<std::string> regions;  // the user regions asked for as nodes
};

// "1–3, 5": ranks in ascending order, runs of consecutive ranks joined.
std::string RankList(std::vector<uint32_t> ranks);
// The ranks of a class's members.
std::vector<uint32_t> MemberRanks(const TagDocument& doc, const Cluster& cluster);

// tag.json (docs/report-format.md, "tag.json").
std::string TagJson(const TagDocument& doc);
// summary.txt: the classes in words, each class's heaviest activities and loops.
std::string TagSummary(const TagDocument& doc);
// Graphviz DOT and GraphML of the PTAG (every process, with the inter-process edges) and of the
// clustered graph (one representative per class, labelled with its members).
std::string PtagDot(const TagDocument& doc);
std::string ClustersDot(const TagDocument& doc);
std::string PtagGraphml(const TagDocument& doc);
std::string ClustersGraphml(const TagDocument& doc);
// tag.html: one self-contained page drawing tag.json (d3 inlined): the classes, each class's
// graph in layers, sections, causal paths, the communication matrix.
std::string TagHtml(const TagDocument& doc);

}  // namespace cw::tag
