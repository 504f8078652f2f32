// What `causeway trace` says of the trace it wrote: where, how much, what recording cost the
// ranks (flushes, stack walks, samples), how ranks that did not finalize ended, and every problem
// the export met. On standard error: the command's own output stays as it was.
#pragma once

#include <optional>

#include "measure/export/raw_export.h"

namespace cw::cli {

// The traced command's run, when this process ran it (not for `causeway trace --finish`).
struct CommandRun {
  double seconds = 0;
  int exit_status = 0;
};

void PrintTraceWritten(const measure::ExportSummary& s, const std::optional<CommandRun>& run,
                       double export_seconds, double export_before_end);

}  // namespace cw::cli
