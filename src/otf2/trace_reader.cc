#include "otf2/trace_reader.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <numeric>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <otf2/otf2.h>

#include "base/parallel.h"
#include "otf2/anchor.h"
#include "otf2/anchor_header.h"
#include "otf2/definitions_reader.h"
#include "otf2/event_reader.h"
#include "otf2/internal/event_callbacks.h"
#include "otf2/internal/reader_support.h"
#include "otf2/library_errors.h"
#include "otf2/reader_regions.h"
#include "trace/scheduling.h"

namespace cw::otf2 {
namespace {

struct ReaderCloser {
  void operator()(OTF2_Reader* reader) const { OTF2_Reader_Close(reader); }
};

// Regions are MPI calls when Score-P says so (paradigm MPI, or the source file "MPI" that every
// Score-P MPI region carries); only then does the name decide what kind of call it is.
void ClassifyRegions(trace::Definitions& defs) {
  for (trace::Region& region : defs.regions) {
    if (!region.defined) continue;
    bool mpi = region.paradigm == trace::Paradigm::kMpi || defs.str(region.file) == "MPI";
    region.mpi = mpi ? trace::ClassifyMpiRegion(defs.str(region.name)) : trace::MpiFunction{};
  }
}

// The lines of the archive property `property` (causeway's tracer writes a line per rank).
std::vector<std::string> PropertyLines(const AnchorHeader& header, const std::string& property) {
  std::vector<std::string> out;
  for (const auto& [name, value] : header.properties) {
    if (name != property) continue;
    std::istringstream lines(value);
    std::string line;
    while (std::getline(lines, line)) out.push_back(line);
  }
  return out;
}

// causeway's tracer notes how each rank's recording ended (otf2_writer's kRankEndingsProperty:
// a line "RANK HOW" per rank); a rank that did not finish normally is a warning every report
// shows.
void ReadRankEndings(const AnchorHeader& header, trace::Definitions& defs,
                     Diagnostics& diagnostics) {
  for (const std::string& line : PropertyLines(header, "CAUSEWAY::RANK_ENDINGS")) {
    std::istringstream words(line);
    uint32_t rank = 0;
    std::string how;
    if (!(words >> rank) || !std::getline(words >> std::ws, how) || how.empty()) continue;
    defs.rank_endings.emplace_back(rank, how);
    if (how != "finalized") {
      diagnostics.Report(kRankEndedEarly, "rank " + std::to_string(rank) + ": " + how);
    }
  }
  // By rank, for Definitions::RankEndedEarly's search; a rank named twice keeps its first line.
  std::stable_sort(defs.rank_endings.begin(), defs.rank_endings.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
}

// causeway's tracer notes where each rank ran (otf2_writer's kRankSchedulingProperty: a line
// "RANK HOST CPUS_ALLOWED CPUS_ONLINE RAN_NS WAITED_NS [NODE_NS STOLEN_NS [MEASURED_NS
// DESCHEDULED_NS]]" per rank; traces of earlier versions lack the later pairs). Lines that do not
// parse are left out; a pair out of range stays unknown.
void ReadRankSchedules(const AnchorHeader& header, trace::Definitions& defs) {
  for (const std::string& line : PropertyLines(header, "CAUSEWAY::RANK_SCHEDULING")) {
    std::istringstream words(line);
    trace::Definitions::RankSchedule r;
    if (!(words >> r.rank >> r.host >> r.cpus_allowed >> r.cpus_online >> r.ran_ns >>
          r.waited_ns)) {
      continue;
    }
    int64_t node = -1, stolen = -1;
    if (words >> node >> stolen && node > 0 && stolen >= 0 && stolen <= node) {
      r.node_ns = node;
      r.node_stolen_ns = stolen;
    }
    int64_t measured = -1, descheduled = -1;
    if (words >> measured >> descheduled && measured >= 0 && descheduled >= 0 &&
        descheduled <= measured) {
      r.computation_measured_ns = measured;
      r.computation_descheduled_ns = descheduled;
    }
    defs.rank_schedules.push_back(std::move(r));
  }
}

Result<trace::Definitions> ReadDefinitionsFromAnchor(const std::string& anchor,
                                                     Diagnostics& diagnostics) {
  // Checked before the library sees it: libotf2 aborts the process on some corrupt anchors.
  CW_ASSIGN_OR_RETURN(const AnchorHeader header, ReadAnchorHeader(anchor));
  // libotf2 says only "Could not get global definition reader" for a missing or unreadable file.
  const std::string definitions = internal::ArchiveDirectory(anchor) + ".def";
  if (::access(definitions.c_str(), R_OK) != 0) {
    return MakeError(ErrorCode::kCorrupt, "cannot read the global definitions " + definitions +
                                              ": " + std::strerror(errno));
  }
  PrepareLibrary();
  std::unique_ptr<OTF2_Reader, ReaderCloser> reader(OTF2_Reader_Open(anchor.c_str()));
  if (!reader) {
    return MakeError(ErrorCode::kCorrupt,
                     "cannot open " + anchor + " as an OTF2 archive: " + TakeLastLibraryMessage());
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(reader.get());
  trace::Definitions defs;
  uint8_t major = 0, minor = 0, bugfix = 0;
  if (OTF2_Reader_GetVersion(reader.get(), &major, &minor, &bugfix) == OTF2_SUCCESS) {
    defs.otf2_version =
        std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(bugfix);
  }
  char* creator = nullptr;
  if (OTF2_Reader_GetCreator(reader.get(), &creator) == OTF2_SUCCESS && creator != nullptr) {
    defs.creator = creator;
    free(creator);
  }
  Result<uint64_t> records = ReadGlobalDefinitions(reader.get(), defs, diagnostics);
  if (!records) {
    Error error = records.error();
    return tl::unexpected(error.AddContext(anchor));
  }
  if (defs.locations.empty()) {
    return MakeError(ErrorCode::kCorrupt, anchor + ": the definitions declare no locations");
  }
  // The anchor counts the archive's locations and global definition records: an anchor copied
  // from another trace (or definitions of another run beside it) disagrees with what was read.
  if (header.locations != defs.locations.size() || header.global_definitions != *records) {
    return MakeError(ErrorCode::kCorrupt,
                     anchor + ": the anchor declares " + std::to_string(header.locations) +
                         " locations and " + std::to_string(header.global_definitions) +
                         " global definitions, but the definitions file holds " +
                         std::to_string(defs.locations.size()) + " and " +
                         std::to_string(*records) +
                         ": the anchor and the definitions belong to different traces");
  }
  for (const trace::Location& loc : defs.locations) {
    if (loc.group >= defs.location_groups.size() || !defs.location_groups[loc.group].defined) {
      diagnostics.Report(kUndefinedLocationGroup, "location " + std::to_string(loc.otf2_id) +
                                                      ", group " + std::to_string(loc.group));
    }
  }
  ReadRankEndings(header, defs, diagnostics);
  ReadRankSchedules(header, defs);
  defs.IndexLocations();
  if (trace::Oversubscribed(defs)) {
    const std::string descheduled = trace::DescheduledText(defs);
    diagnostics.Report(kOversubscribed, trace::OversubscriptionText(defs) +
                                            (descheduled.empty() ? "" : "; " + descheduled));
  }
  if (trace::ContendedForCpus(defs)) {
    diagnostics.Report(kCpuContention, trace::CpuContentionText(defs));
  }
  ClassifyRegions(defs);
  size_t unresolved = defs.ResolveComms();
  if (unresolved > 0) diagnostics.Report(kUnresolvedCommunicator, {}, unresolved);
  return defs;
}

}  // namespace

std::vector<std::vector<uint32_t>> BalanceLocations(const trace::Definitions& defs,
                                                    std::span<const uint32_t> locations,
                                                    unsigned parts) {
  parts = std::max(1u, std::min<unsigned>(parts, static_cast<unsigned>(locations.size())));
  std::vector<uint32_t> order(locations.begin(), locations.end());
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return defs.locations[a].event_count > defs.locations[b].event_count;
  });
  std::vector<std::vector<uint32_t>> assignment(parts);
  std::vector<uint64_t> load(parts, 0);
  for (uint32_t loc : order) {
    size_t lightest =
        static_cast<size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    assignment[lightest].push_back(loc);
    load[lightest] += std::max<uint64_t>(defs.locations[loc].event_count, 1);
  }
  for (std::vector<uint32_t>& part : assignment) std::sort(part.begin(), part.end());
  return assignment;
}

Result<trace::Definitions> ReadDefinitions(const std::string& path, Diagnostics& diagnostics) {
  CW_ASSIGN_OR_RETURN(std::string anchor, ResolveAnchor(path));
  return ReadDefinitionsFromAnchor(anchor, diagnostics);
}

Result<LocationReads> ReadLocations(const std::string& path, const ReadOptions& options,
                                    const std::vector<uint32_t>* only) {
  CW_ASSIGN_OR_RETURN(std::string anchor, ResolveAnchor(path));
  LocationReads reads;
  trace::Trace& trace = reads.trace;
  trace.path = anchor;
  Diagnostics left_out;
  CW_ASSIGN_OR_RETURN(trace.defs,
                      ReadDefinitionsFromAnchor(
                          anchor, options.definition_diagnostics ? trace.diagnostics : left_out));
  const ReaderRegions regions = AddReaderRegions(trace.defs);
  reads.program_region = regions.program;

  const size_t n = trace.defs.locations.size();
  std::vector<uint32_t> locations;
  if (only != nullptr) {
    locations = *only;
    for (uint32_t loc : locations) {
      if (loc >= n) {
        return MakeError(ErrorCode::kInvalidArgument,
                         anchor + " has no location " + std::to_string(loc));
      }
    }
  } else {
    locations.resize(n);
    std::iota(locations.begin(), locations.end(), 0u);
  }
  unsigned threads = options.threads == 0 ? DefaultThreadCount() : options.threads;
  std::vector<std::vector<uint32_t>> parts = locations.empty()
                                                 ? std::vector<std::vector<uint32_t>>{}
                                                 : BalanceLocations(trace.defs, locations, threads);
  std::vector<Result<std::vector<LocationReadResult>>> outcomes;
  outcomes.reserve(parts.size());
  for (size_t p = 0; p < parts.size(); ++p)
    outcomes.emplace_back(std::vector<LocationReadResult>());
  ParallelFor(parts.size(), static_cast<unsigned>(parts.size()), [&](size_t p) {
    EventReadJob job{anchor,          &trace.defs,     parts[p], regions.gap, regions.undefined,
                     regions.program, options.progress};
    outcomes[p] = RunEventReadJob(job);
  });

  std::vector<LocationReadResult> by_location(n);
  for (size_t p = 0; p < parts.size(); ++p) {
    if (!outcomes[p]) return tl::unexpected(outcomes[p].error());
    for (size_t i = 0; i < parts[p].size(); ++i) {
      by_location[parts[p][i]] = std::move((*outcomes[p])[i]);
    }
  }

  trace.locations.resize(n);
  reads.local_trees.resize(n);
  reads.program_names.assign(n, trace::kNone);
  for (uint32_t loc : locations) {
    LocationReadResult& r = by_location[loc];
    if (r.error) {
      if (!options.allow_partial) {
        Error error = *r.error;
        error.AddContext(anchor);
        return tl::unexpected(Error(error.code(), error.message() +
                                                      "\n(use --partial to analyse the events "
                                                      "that could be read)"));
      }
      trace.diagnostics.Report(kTruncatedLocation, r.error->message());
    }
    trace.diagnostics.Merge(r.diagnostics);
    reads.program_names[loc] = r.program_name;
    trace.locations[loc] = std::move(r.events);
    reads.local_trees[loc] = std::move(r.local_tree);
  }
  // Teams of the workers whose master was read hang at their forks.
  const std::vector<uint32_t> masters = trace::MastersOfThreads(trace.defs);
  std::vector<bool> read(n, false);
  for (uint32_t loc : locations) read[loc] = true;
  std::map<uint32_t, std::vector<trace::ForkPoint>> forks;
  std::vector<uint32_t> workers;
  for (uint32_t loc : locations) {
    if (masters[loc] == trace::kNone || !read[masters[loc]]) continue;
    workers.push_back(loc);
    auto [it, added] = forks.try_emplace(masters[loc]);
    if (added) it->second = trace::ForkPoints(trace.locations[masters[loc]]);
  }
  GraftTeams(reads, workers, forks, threads);
  return reads;
}

void GraftTeams(LocationReads& reads, std::span<const uint32_t> workers,
                const std::map<uint32_t, std::vector<trace::ForkPoint>>& forks, unsigned threads) {
  trace::Trace& trace = reads.trace;
  const std::vector<uint32_t> masters = trace::MastersOfThreads(trace.defs);
  const uint32_t calls_attribute = internal::CallsAttribute(trace.defs);
  ParallelFor(workers.size(), threads == 0 ? DefaultThreadCount() : threads, [&](size_t w) {
    const uint32_t loc = workers[w];
    auto it = forks.find(masters[loc]);
    if (it == forks.end()) return;
    trace::GraftTeamsAtForks(it->second, trace.defs, calls_attribute, reads.local_trees[loc],
                             trace.locations[loc]);
  });
}

trace::Trace FinishTrace(LocationReads reads, unsigned threads,
                         const std::vector<std::pair<uint32_t, uint32_t>>* comm_users) {
  trace::Trace& trace = reads.trace;
  const size_t n = trace.defs.locations.size();
  // Each location's program region takes its program's name; regions are added in location
  // order, so their ids depend only on the trace.
  std::vector<std::pair<uint32_t, uint32_t>> program_regions(
      n, {reads.program_region, reads.program_region});
  for (size_t loc = 0; loc < n; ++loc) {
    if (reads.program_names[loc] != trace::kNone) {
      program_regions[loc].second = ProgramRegion(trace.defs, reads.program_names[loc]);
    }
  }
  trace::AssembleCallTree(trace, reads.local_trees, threads == 0 ? DefaultThreadCount() : threads,
                          program_regions);
  if (comm_users != nullptr) {
    trace::AssignCommunicatorsToThreads(trace, *comm_users);
  } else {
    trace::AssignCommunicatorsToThreads(trace);
  }
  return std::move(reads.trace);
}

Result<trace::Trace> ReadTrace(const std::string& path, const ReadOptions& options) {
  CW_ASSIGN_OR_RETURN(LocationReads reads, ReadLocations(path, options, nullptr));
  return FinishTrace(std::move(reads), options.threads);
}

}  // namespace cw::otf2
