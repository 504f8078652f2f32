#include "cli/trace_problems.h"

#include "report/whatif_report.h"

namespace cw::cli {

void PrintTraceProblems(const Diagnostics& problems, std::FILE* out) {
  if (problems.empty()) {
    std::fputs("Trace problems: none.\n", out);
    return;
  }
  std::fputs("Trace problems (worked around as described):\n", out);
  for (const Diagnostics::Entry& d : problems.Sorted()) {
    std::fputs(report::TraceProblemLine(d).c_str(), out);
  }
}

}  // namespace cw::cli
