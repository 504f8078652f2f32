// The outputs of `causeway whatif`: summary.txt (what a person reads) and whatif.json (format
// `causeway-whatif`, version 1, documented in docs/report-format.md).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "sim/whatif.h"

namespace cw::report {

struct WhatIfContext {
  std::string trace_path;
  uint64_t seed = 1;
  std::vector<std::string> location_names;  // by location, as the trace names them (whatif.json)
  std::vector<std::optional<uint32_t>> location_ranks;  // by location: its process's rank
  std::vector<std::string> location_labels;             // "rank 3" (summary.txt, LocationLabelOf)
  std::function<std::string(uint32_t)> callpath;        // "main/solve/MPI_Waitall" (whatif.json)
  std::function<std::string(uint32_t)> callpath_label;  // shortened if deep (summary.txt)
  // The simulated trace of the first run, when it was written (empty path otherwise).
  std::string simulated_trace;
  uint64_t simulated_records = 0;
  uint64_t simulated_left_out = 0;  // metric, I/O, parameter, calling-context records not written
};

std::string ToWhatIfText(const sim::WhatIfResult& result, const WhatIfContext& context);

// "  [warning] trace.time_reversed x3: <description> (first: <example>)\n": how every text output
// lists a trace problem, its example escaped for display.
std::string TraceProblemLine(const Diagnostics::Entry& problem);

// Every problem of the trace the replay worked around, one short phrase each (the reader's
// diagnostics by name, the replay's repairs with their counts): empty for a sound trace.
std::vector<std::string> WhatIfProblems(const sim::WhatIfResult& result);
std::string ToWhatIfJson(const sim::WhatIfResult& result, const WhatIfContext& context);

}  // namespace cw::report
