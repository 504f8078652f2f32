// summary.txt: what a performance engineer reads first.
//
// The time breakdown, then the wait states ranked by their total time with the call paths and
// ranks that suffer them and the worst instances, then matching, clock and trace diagnostics.
#pragma once

#include <string>

#include "base/status.h"
#include "report/report.h"

namespace cw::report {

std::string ToSummaryText(const Report& report);

Status WriteSummary(const Report& report, const std::string& path);

// "12.3 ms", "4.50 s", "350 ns": three significant digits in a readable unit.
std::string FormatSeconds(double seconds);
// "1.2 MB", "512 B".
std::string FormatBytes(double bytes);

}  // namespace cw::report
