#include "cli/tag_report.h"

#include <cstdio>
#include <utility>
#include <vector>

#include "report/output_file.h"
#include "tag/document/tag_document.h"
#include "tag/online/online_graphs.h"

namespace cw::cli {

Status WriteTagReport(tag::TagDocument& doc, const std::string& directory, bool quiet,
                      std::FILE* messages) {
  tag::AnalyzeGraphs(doc);

  CW_RETURN_IF_ERROR(report::EnsureDirectory(directory));
  const std::string summary = tag::TagSummary(doc);
  CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/summary.txt", summary));
  CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/tag.json", tag::TagJson(doc)));
  CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/ptag.dot", tag::PtagDot(doc)));
  CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/ptag.graphml", tag::PtagGraphml(doc)));
  CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/clusters.dot", tag::ClustersDot(doc)));
  CW_RETURN_IF_ERROR(
      report::WriteTextFile(directory + "/clusters.graphml", tag::ClustersGraphml(doc)));
  CW_RETURN_IF_ERROR(report::WriteTextFile(directory + "/tag.html", tag::TagHtml(doc)));
  if (!quiet) std::fputs(summary.c_str(), messages);
  std::fprintf(messages,
               "\nTask activity graphs written to %s/ (summary.txt, tag.json, tag.html, ptag.dot, "
               "ptag.graphml, clusters.dot, clusters.graphml)\n",
               directory.c_str());
  return OkStatus();
}

Status LoadOnlineRun(const std::string& dir, const std::string& window, uint32_t recursion_depth,
                     unsigned threads, tag::TagDocument& doc) {
  CW_ASSIGN_OR_RETURN(std::vector<tag::OnlineRank> ranks, tag::ReadOnlineRun(dir, window));
  tag::OnlineGraphs graphs =
      tag::BuildOnlineGraphs(ranks, {.recursion_depth = recursion_depth, .threads = threads});
  doc.source = dir;
  doc.online = true;
  doc.window = window;
  doc.recursion_depth = recursion_depth;
  doc.notes = std::move(graphs.notes);
  doc.segment_bytes = std::move(graphs.segment_bytes);
  doc.tool_seconds = std::move(graphs.tool_seconds);
  doc.folded_callpaths = graphs.folded_callpaths;
  doc.processes = std::move(graphs.processes);
  return OkStatus();
}

}  // namespace cw::cli
