// Reading an OTF2 archive into a trace::Trace.
//
// Accepts the anchor file or its directory (anchor.h), reads the global definitions, then the
// events of all locations in parallel: locations are assigned to worker threads by their declared
// event counts, and each worker reads its share through its own OTF2 reader. The result does not
// depend on the number of threads.
//
//   otf2::ReadOptions options;
//   options.threads = 4;
//   CW_ASSIGN_OR_RETURN(trace::Trace trace, otf2::ReadTrace("run1", options));
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "trace/thread_teams.h"
#include "trace/trace.h"

namespace cw::otf2 {

struct ReadOptions {
  unsigned threads = 0;  // 0: one per hardware thread
  // Analyse what can be read when event files are missing or truncated (reported as data-loss
  // diagnostics) instead of failing.
  bool allow_partial = false;
  std::atomic<uint64_t>* progress = nullptr;  // incremented with the events read, if set
  // Report what the definitions hold (a rank that ended early, an oversubscribed run, ...). An
  // analysis job's ranks other than the first leave them out: each reads the same definitions,
  // and the job counts them once, as one process does.
  bool definition_diagnostics = true;
};

inline constexpr DiagnosticKind kUndefinedLocationGroup{
    "otf2.undefined_location_group", Severity::kError,
    "a location belongs to a location group (process) that is not defined; it is counted in no "
    "process and its rank is unknown"};
inline constexpr DiagnosticKind kRankEndedEarly{
    "trace.rank_ended_early", Severity::kWarning,
    "a rank's recording ended other than by finishing normally (MPI_Finalize or shmem_finalize): "
    "an abort, a signal, the fatal error handler, an exit without finalizing, the size limit of "
    "causeway trace --max-size, or nothing noted; "
    "its events up to then are in the trace, and what its partners waited for afterwards is "
    "unmatched"};
inline constexpr DiagnosticKind kOversubscribed{
    "run.oversubscribed", Severity::kWarning,
    "the run had more processes and threads on a node than it has CPUs: ranks waited for the "
    "scheduler, which shows as wait states, slow operations and a low transfer efficiency that "
    "neither the program nor the network causes; measure on enough CPUs (or pin one process or "
    "thread per CPU) before acting on them"};
inline constexpr DiagnosticKind kCpuContention{
    "run.cpu_contention", Severity::kWarning,
    "a rank's main thread waited 10 % or more of the time it could run for a CPU, on a node the "
    "run did not oversubscribe, or a hypervisor gave 10 % or more of a node's CPU time to other "
    "virtual machines (steal time): other processes or machines took the CPUs, and the run's "
    "waits and slow operations may be theirs; measure on a quiet node (or pinned to CPUs of its "
    "own) before acting on them"};
inline constexpr DiagnosticKind kUnresolvedCommunicator{
    "otf2.unresolved_communicator", Severity::kError,
    "a communicator's group could not be mapped to locations; its messages cannot be matched"};

Result<trace::Trace> ReadTrace(const std::string& path, const ReadOptions& options);

// ReadTrace in two halves, for an analysis rank of an MPI job that reads only the locations it
// owns (src/job_read/). ReadLocations reads the events of `only` (all if nullptr); each
// location's call paths are still its own. FinishTrace names the program regions, merges the
// call trees in location order and moves thread communicators (AssignCommunicatorsToThreads,
// from `comm_users` if given, else from the events at hand). Given every location's call tree,
// program name and communicator users, it makes the same call-path and region ids as ReadTrace,
// whichever locations were read.
struct LocationReads {
  trace::Trace trace;                        // events only of the locations read
  std::vector<trace::CallTree> local_trees;  // per location; empty if not read
  std::vector<uint32_t> program_names;       // per location: its program's name string, or kNone
  uint32_t program_region = trace::kNone;    // the reader's placeholder program region
};
Result<LocationReads> ReadLocations(const std::string& path, const ReadOptions& options,
                                    const std::vector<uint32_t>* only);
trace::Trace FinishTrace(LocationReads reads, unsigned threads,
                         const std::vector<std::pair<uint32_t, uint32_t>>* comm_users = nullptr);

// Hangs each team that the worker threads `workers` (read) ran below their master's call path
// at the fork that started it (trace/thread_teams.h), from `forks` (by master location).
// ReadLocations does so for every worker whose master it read (an analysis rank reads a process's
// threads together: trace/partition.h).
void GraftTeams(LocationReads& reads, std::span<const uint32_t> workers,
                const std::map<uint32_t, std::vector<trace::ForkPoint>>& forks, unsigned threads);

// Reads only the global definitions (cheap; used to size work before reading events).
Result<trace::Definitions> ReadDefinitions(const std::string& path, Diagnostics& diagnostics);

// Splits `locations` into `parts` lists of similar total event count (longest first, greedy).
std::vector<std::vector<uint32_t>> BalanceLocations(const trace::Definitions& defs,
                                                    std::span<const uint32_t> locations,
                                                    unsigned parts);

}  // namespace cw::otf2
