// report.json: the machine-readable report (format "causeway-report", version 1).
// docs/report-format.md documents every field; tests read it back with nlohmann::json.
#pragma once

#include <string>

#include "base/status.h"
#include "report/report.h"

namespace cw::report {

inline constexpr int kReportFormatVersion = 1;

// The report as JSON text.
std::string ToJson(const Report& report);

Status WriteJson(const Report& report, const std::string& path);

}  // namespace cw::report
