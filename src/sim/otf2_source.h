// Streams an OTF2 archive into the replay location by location, without reading it whole, so
// that `causeway whatif` needs memory for the messages in flight and a bounded window per
// location, not for the trace (Sottile et al. 2006, section 5).
//
// Each location is read through its own otf2::LocationStream in segments; the call paths the
// segments name are interned in one call tree shared by all locations, which names them in the
// report after the replay. An OpenMP worker thread's call paths hang where its master first
// entered the parallel region they begin at, as in the trace read whole (trace/thread_teams.h):
// the master's events are read, once and only as far as needed, to find it.
//
//   CW_ASSIGN_OR_RETURN(auto streamed, sim::StreamedTrace::Open("run1"));
//   CW_ASSIGN_OR_RETURN(sim::ReplayResult r, sim::RunReplay(streamed->Input(), options));
//   std::string name = streamed->CallpathName(cp);
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/diagnostics.h"
#include "base/status.h"
#include "otf2/location_stream.h"
#include "otf2/reader_regions.h"
#include "sim/replay.h"
#include "trace/call_tree.h"
#include "trace/definitions.h"
#include "trace/thread_teams.h"

namespace cw::sim {

class StreamedTrace {
 public:
  // Reads the archive's definitions (`path`: the anchor file or its directory).
  static Result<std::unique_ptr<StreamedTrace>> Open(const std::string& path);

  const trace::Definitions& defs() const { return defs_; }
  const std::string& anchor() const { return anchor_; }
  // What reading the definitions found wrong (undefined location groups, ...).
  const Diagnostics& definition_problems() const { return definition_problems_; }
  const otf2::ReaderRegions& regions() const { return regions_; }
  uint64_t declared_events() const;

  // The replay input: one stream per location, opened anew for each run. The StreamedTrace must
  // outlive the replays.
  ReplayInput Input();

  // "main/solve/MPI_Send" for a call-path id the streams handed out.
  std::string CallpathName(uint32_t callpath) const;
  // The same shortened for a person to read (trace::CallTree::PathLabel).
  std::string CallpathLabel(uint32_t callpath) const;
  // A region's name; the program region is named after the program once a stream has read its
  // ProgramBegin (the streams hand out the "<program>" region's id for it: the replay's rules
  // never name it).
  std::string RegionName(uint32_t region) const;

  // Replaces the definitions' communicators: with those trace::AssignCommunicatorsToThreads
  // moved to the threads that used them (which needs every event; a stream sees them only as
  // it goes), the replay pairs the records of multi-threaded MPI as the in-memory trace does.
  void SetCommunicators(std::vector<trace::Comm> comms) { defs_.comms = std::move(comms); }

  // Records a location reads per segment (the stream's window on its file).
  uint32_t segment_records = 8192;

 private:
  friend class Otf2Source;

  // How far the events of a master thread were read for its workers' call paths.
  struct MasterScan {
    std::unique_ptr<otf2::LocationStream> stream;
    std::vector<trace::ForkPoint> forks;                   // global call paths, in time order
    std::unordered_map<uint32_t, uint32_t> first_entered;  // parallel region -> parent path
    bool done = false;
  };

  // The global call path below which a team of worker `location` that entered parallel region
  // `region` at `time` goes: its master's at the latest fork before (thread_teams.h), kNone if
  // there is none or `location` is no worker.
  uint32_t TeamParent(uint32_t location, uint32_t region, uint64_t time);
  // Where a root of `location`'s call paths in `region` goes without a fork: below where the
  // master first entered it; kNone if it stays a root.
  uint32_t ThreadRootParent(uint32_t location, uint32_t region);
  // The scan of `location`'s master if `location` is a worker and `region` a parallel region.
  MasterScan* ScanOfMaster(uint32_t location, uint32_t region);
  void ScanMasterSegment(MasterScan& scan);
  // The global id of `local`'s call path `id`, interned.
  uint32_t InternPath(const trace::CallTree& local, uint32_t id);

  std::string anchor_;
  trace::Definitions defs_;
  Diagnostics definition_problems_;
  otf2::ReaderRegions regions_;
  trace::CallTree tree_;
  std::string program_name_;       // of the first ProgramBegin read: names the program region
  std::vector<uint32_t> masters_;  // trace::MastersOfThreads
  std::unordered_map<uint32_t, MasterScan> master_scans_;
};

}  // namespace cw::sim
