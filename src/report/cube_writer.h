// `report.cubex`: the report in the CUBE4 format that Cube (CubeGUI, CubeLib's tools), TAU
// ParaProf and Extra-P read.
//
// A .cubex file is an uncompressed tar archive of `anchor.xml` (the metric tree, the regions and
// call tree, the system tree of machine, nodes, processes and threads) and, per metric, a
// `<id>.index` / `<id>.data` pair holding its values per (call-tree node, thread). It follows the
// layout of Score-P's profile.cubex: the element names, attributes and binary headers are theirs.
// Values keep causeway's conventions, which are Cube's: a value includes its children in the
// metric tree (as Scalasca stores them) and is exclusive along the call tree (every metric is of
// type EXCLUSIVE), so Cube shows the numbers of report.json.
#pragma once

#include <string>

#include "base/status.h"
#include "report/report.h"
#include "trace/trace.h"

namespace cw::report {

// Writes `report` (built from `trace`) to `path` (a temporary file renamed into place).
Status WriteCubex(const Report& report, const trace::Trace& trace, const std::string& path);

}  // namespace cw::report
