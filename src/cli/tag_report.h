// The files of a task activity graph report, written by `causeway tag` (from a trace or an
// online run) and by `causeway trace --tag` when its run ends: tag::AnalyzeGraphs computes the
// report from the processes' graphs, the writers of tag/output format it.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "base/status.h"
#include "tag/output/tag_writers.h"

namespace cw::cli {

// Fills in the document from doc.processes (tag::AnalyzeGraphs) and writes summary.txt,
// tag.json, ptag.dot/.graphml and clusters.dot/.graphml to `directory`; prints the summary
// unless `quiet`, and where the files went, to `messages` (`causeway trace --tag` gives
// standard error: the program's own output keeps standard output to itself).
Status WriteTagReport(tag::TagDocument& doc, const std::string& directory, bool quiet,
                      std::FILE* messages = stdout);

// A run recorded by `causeway trace --tag` (the graphs of its end, or of `window` "A:B" between
// two snapshots) into doc's processes and its online fields.
Status LoadOnlineRun(const std::string& dir, const std::string& window, uint32_t recursion_depth,
                     unsigned threads, tag::TagDocument& doc);

}  // namespace cw::cli
