// The files of a task activity graph report, each formatted from a TagDocument that
// tag/document's AnalyzeGraphs filled: nothing here computes.
#pragma once

#include <string>

#include "tag/document/tag_document.h"

namespace cw::tag {

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
