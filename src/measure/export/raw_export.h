// Turns the raw files of a traced run (measure/raw/raw_format.h) into one OTF2 archive in
// Score-P's conventions: MPI regions with their roles and the source file "MPI", one location
// group "MPI Rank r" with a "Master thread" per rank under its node, MPI_COMM_WORLD and every
// communicator unified across ranks (by the id its members agreed on, or by its members), and
// timestamps of other nodes moved onto rank 0's clock by interpolating the offsets their first
// rank measured at MPI_Init and MPI_Finalize (ranks on rank 0's node share its clock as it is).
//
// Runs in rank 0's MPI_Finalize, or from `causeway trace` (early_export.h: once rank 0 marked
// the files complete, or after the command when ranks died): a rank whose files end early (a
// crash, MPI_Abort, a kill) contributes every event it flushed, its open regions are closed at
// its last timestamp, and the summary says what happened.
//
//   CW_ASSIGN_OR_RETURN(ExportSummary s, ExportRawTrace("run1"));   // writes run1/traces.otf2
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"

namespace cw::measure {

struct RankEnding {
  int rank = 0;
  std::string how;  // "finalized", "signal 11", "abort", "exit without MPI_Finalize", "no end"
};

struct ExportSummary {
  std::string anchor;  // the traces.otf2 written
  uint32_t ranks = 0;
  uint64_t events = 0;            // events written to OTF2
  uint64_t raw_bytes = 0;         // size of the raw event files read
  uint64_t truncated_bytes = 0;   // a record cut short by a crash, dropped
  uint64_t closed_regions = 0;    // Leaves added for regions open when a rank ended early
  uint64_t unrecorded_calls = 0;  // MPI calls from threads other than the main one
  // Threads that called MPI after another thread of their rank had ended, and went on in its
  // location (an OTF2 location is then several threads, one after the other).
  uint64_t reused_thread_slots = 0;
  uint64_t unbalanced_regions = 0;  // user-region ends that did not match (ignored), and
                                    // regions still open at MPI_Finalize (closed there)
  // Not recorded (`causeway trace --openmp-serial`): OpenMP parallel regions whose team had one
  // thread, and lock acquisitions while a process had one OpenMP thread only.
  uint64_t openmp_serial_teams = 0;
  uint64_t openmp_solo_locks = 0;
  uint64_t flushes = 0;  // buffer flushes while the program ran, all ranks
  uint64_t flush_nanoseconds = 0;
  uint64_t samples = 0;                 // stack samples of the computation (--callpaths sampled)
  uint64_t lost_samples = 0;            // dropped: a thread's buffer was full between two calls
  uint64_t samples_inside_regions = 0;  // left out: the walks of samples taken inside user
                                        // regions and instrumented functions
  uint64_t walks = 0;  // stack walks at calls (--callpaths), and what they cost, all ranks
  uint64_t walk_nanoseconds = 0;
  uint64_t sample_nanoseconds = 0;  // what taking and writing them cost, all ranks
  bool lost = false;                // a rank failed to write its buffer
  uint64_t invalid_records = 0;     // records of unknown kind or undefined region, left out
  // Functions of walked call paths that no symbol names (shown as module+offset), by module.
  std::map<std::string, std::set<std::string>> unnamed_functions;
  std::vector<std::string> problems;  // damaged or missing files, and what was done about them
  std::vector<RankEnding> endings;    // ranks that did not reach MPI_Finalize
};

// Reads DIR/raw/ and writes DIR/traces.otf2 (with DIR/traces/ and DIR/traces.def), the ranks'
// events on up to `threads` threads (default: the CPUs this process may use). The trace is the
// same for every thread count.
Result<ExportSummary> ExportRawTrace(const std::string& dir);
Result<ExportSummary> ExportRawTrace(const std::string& dir, unsigned threads);

// True if DIR holds raw files of a run (the rank-0 definitions).
bool HasRawTrace(const std::string& dir);

}  // namespace cw::measure
