// Writing the OTF2 archive of `causeway trace` while the traced command is still ending.
//
// Every rank closes its raw files before the barrier in MPI_Finalize; after it, rank 0 marks the
// raw trace complete (DIR/raw/complete). What follows (the rest of MPI_Finalize, the processes'
// exit, the launcher's teardown: about 50 ms for 4 ranks of Open MPI) no longer changes the raw
// files, so the launcher starts the export at the mark instead of at the command's end, and the
// user waits that much less.
//
// The export read the final files only if nothing in DIR/raw changed after it began (a command
// that runs two MPI programs writes the second one's files afterwards): `Finish` compares every
// file's inode, size and modification time with what they were when the export began, and
// reports no result if any differs, or if the export failed; the caller then exports again.
//
//   EarlyExport early(dir);                       // before the command starts
//   ... run the command ...
//   std::optional<EarlyExport::Outcome> done = early.Finish();
//   if (!done) { /* remove the early archive, ExportRawTrace(dir) */ }
#pragma once

#include <atomic>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "base/status.h"
#include "measure/export/raw_export.h"

namespace cw::measure {

// Rank 0's side: when `causeway trace` exports (CAUSEWAY_EXPORT=launcher), marks the raw trace of
// DIR complete; otherwise writes the OTF2 archive itself (a program started without `causeway
// trace`). Called once every rank's files are closed.
void ExportOrMarkComplete(const std::string& dir);

class EarlyExport {
 public:
  struct Outcome {
    ExportSummary summary;
    double seconds = 0;             // how long the export took
    double before_end_seconds = 0;  // of which before the command ended
  };

  // Watches DIR/raw (created if missing) for the mark, on a thread of its own.
  explicit EarlyExport(std::string dir);
  ~EarlyExport();
  EarlyExport(const EarlyExport&) = delete;
  EarlyExport& operator=(const EarlyExport&) = delete;

  // Once the command has ended: stops watching, waits for an export under way, and returns its
  // summary if it succeeded and read the raw files as they are now.
  std::optional<Outcome> Finish();

 private:
  void Watch();
  void Stop();

  std::string dir_;
  std::atomic<bool> stopping_{false};
  int stop_fd_ = -1;  // an eventfd: written once to stop the watch
  std::thread watcher_;
  // Written by the watcher, read after it is joined; result_ is set once an export ran.
  std::string files_before_;  // DIR/raw's files when the export began (Snapshot)
  std::chrono::steady_clock::time_point began_, ended_;
  std::optional<Result<ExportSummary>> result_;
};

}  // namespace cw::measure
