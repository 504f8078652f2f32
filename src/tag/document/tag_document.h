// Everything `causeway tag` writes, gathered once: the process graphs, the PTAG's inter-process
// edges, the behavioural classes, sections, findings and communication views, with the
// parameters that made them. AnalyzeGraphs computes all of it from the process graphs, in one
// place for every caller; the writers (tag/output) only format it.
//
//   TagDocument doc;
//   doc.processes = ...;                  // from a trace, an online run or an analysis job
//   AnalyzeGraphs(doc);
//   WriteTextFile(dir + "/tag.json", TagJson(doc));
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tag/graph/clustering.h"
#include "tag/graph/parallel_graph.h"
#include "tag/graph/sections.h"
#include "tag/graph/tendencies.h"
#include "tag/model/activity_graph.h"

namespace cw::tag {

// Messages between two behaviour classes (the communication view on the clustered graph,
// Sikora et al. 2016 §5.3): indices into TagDocument::clusters.
struct ClassEdge {
  size_t from_class = 0;
  size_t to_class = 0;
  uint64_t count = 0;
  uint64_t bytes = 0;
};

// Why a behaviour class is not part of an earlier one: the earlier class it comes closest to
// (times closer than counts, counts than structure; among times, the smallest share of the
// allowed distance), how they differ and, for times, by how much.
struct ClassContrast {
  uint32_t closest = 0;  // index of the earlier class
  Difference difference = Difference::kStructure;
  TimeDistance distance;  // kTimes: the representatives' distance and its allowances
};

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
  std::map<std::string, SectionSpread> section_spreads;  // by section key
  std::vector<PhaseEdge> communication_view;             // one node per process
  std::vector<ClassEdge> class_communication_view;       // one node per behaviour class
  // Per class, why it is not one of the classes before it (none for the first).
  std::vector<ClassContrast> class_contrasts;
  double tolerance = 0.02;
  double noise_sigmas = 3;  // ClusterOptions::noise_sigmas
  uint32_t recursion_depth = 0;
  uint64_t folded_callpaths = 0;
  std::vector<std::string> regions;  // the user regions asked for as nodes
};

// Fills everything but the processes and the recording's fields from doc.processes: the PTAG's
// edges, the classes (at doc.tolerance and doc.noise_sigmas) and their contrasts, the sections and
// their classes and spreads, the findings, and the communication views.
void AnalyzeGraphs(TagDocument& doc);

// "1–3, 5": ranks in ascending order, runs of consecutive ranks joined.
std::string RankList(std::vector<uint32_t> ranks);
// The ranks of a class's members.
std::vector<uint32_t> MemberRanks(const TagDocument& doc, const Cluster& cluster);

}  // namespace cw::tag
