#include "cli/trace_problems.h"

#include <string>

#include "base/utf8.h"

namespace cw::cli {

void PrintTraceProblems(const Diagnostics& problems, std::FILE* out) {
  if (problems.empty()) {
    std::fputs("Trace problems: none.\n", out);
    return;
  }
  std::fputs("Trace problems (worked around as described):\n", out);
  for (const Diagnostics::Entry& d : problems.Sorted()) {
    std::string line = "  [" + std::string(SeverityName(d.kind->severity)) + "] " +
                       std::string(d.kind->name) + " x" + std::to_string(d.count) + ": " +
                       std::string(d.kind->description);
    if (!d.example.empty()) line += " (first: " + DisplayText(d.example) + ")";
    std::fputs((line + "\n").c_str(), out);
  }
}

}  // namespace cw::cli
