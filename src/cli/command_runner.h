// Running a traced command: the one `causeway trace` traces, and `causeway trace` itself as
// `causeway baseline` runs it. Starts it, waits for it (calling a tick while it runs, for --tag's
// snapshots) and keeps the trace through the signals that end a run early.
//
// A Ctrl-C, a batch system's SIGTERM at a job's time limit or a hang-up ends the command, not
// its trace: this process notes the signal instead of dying of it and waits for the command to
// end (its ranks write what they recorded when the signal reaches them), and the caller then
// writes the trace of what was recorded. A signal sent to the whole process group (the
// terminal's, timeout's) reaches the command as well; one sent to this process alone is passed
// on to the command if the command still runs kForwardAfterSeconds later, and at once when
// another signal comes. SIGUSR1 and SIGUSR2 (a batch script's request that the program write a
// checkpoint before its time limit) are passed on to the command at once, as mpirun passes them
// on to the ranks: their default action would end this process and lose the trace.
//
//   CW_ASSIGN_OR_RETURN(CommandEnd end, RunTracedCommand(command, 0, nullptr));
//   if (end.stop_signal != 0) ...  // interrupted: say so, then write what was recorded
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "base/status.h"

namespace cw::cli {

inline constexpr double kForwardAfterSeconds = 3.0;

struct CommandEnd {
  int exit_status = 0;  // the command's; 128 + N if a signal N ended it
  int stop_signal = 0;  // SIGINT, SIGTERM or SIGHUP if one came while it ran; 0 otherwise
};

// Runs `command` (argv[0] looked up in PATH) with this process's environment. With interval > 0,
// calls tick(seconds since the start) that often while it runs.
Result<CommandEnd> RunTracedCommand(const std::vector<std::string>& command, double interval,
                                    const std::function<void(double)>& tick);

}  // namespace cw::cli
