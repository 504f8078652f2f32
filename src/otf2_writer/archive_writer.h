// A thin RAII layer over the OTF2 writer API, for everything in causeway that writes traces:
// test scenarios, the benchmark generator and (later) the measurement library and simulator.
//
// Definitions are collected while events are written and emitted as global definitions on
// Close(), together with each location's event count. Ids are dense and assigned in call order.
//
//   CW_ASSIGN_OR_RETURN(auto archive, ArchiveWriter::Create("/tmp/t", "traces"));
//   uint32_t main = archive->DefineRegion("main", OTF2_REGION_ROLE_FUNCTION,
//                                         OTF2_PARADIGM_USER);
//   uint64_t loc = archive->DefineLocation("Master thread", rank0_group);
//   EventWriter& ev = archive->Events(loc);
//   ev.Enter(100, main); ev.Leave(200, main);
//   CW_RETURN_IF_ERROR(archive->Close(/*resolution=*/1'000'000'000));
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <otf2/otf2.h>
#include "base/status.h"
#include "otf2_writer/event_writer.h"

namespace cw::otf2_writer {

// The archive property in which causeway's tracer notes how each rank's recording ended: a line
// "RANK HOW" per world rank (otf2/ reads it into trace::Definitions::rank_endings).
inline constexpr const char* kRankEndingsProperty = "CAUSEWAY::RANK_ENDINGS";
// Where each rank ran: a line "RANK HOST CPUS_ALLOWED CPUS_ONLINE RAN_NS WAITED_NS NODE_NS
// STOLEN_NS MEASURED_NS DESCHEDULED_NS" per rank (measure/core/scheduling.h, the computation its
// samples measured and the part of it descheduled, measure/runtime/sampling.h; -1 where unknown).
inline constexpr const char* kRankSchedulingProperty = "CAUSEWAY::RANK_SCHEDULING";

class ArchiveWriter {
 public:
  // Creates `directory` (if needed) and an archive `name` in it: directory/name.otf2.
  static Result<std::unique_ptr<ArchiveWriter>> Create(const std::string& directory,
                                                       const std::string& name = "traces",
                                                       const std::string& creator = "causeway");

  // How libotf2 buffers the events. causeway's own archives use the defaults; tests imitate
  // other writers (Score-P, earlier causeway versions) with them: small chunks and a BUFFER_FLUSH
  // record, stamped `flush_record_time`, whenever libotf2's 128 chunks of a location fill.
  //
  // libotf2 fills the unused rest of each writer's last chunk before writing it out, and every
  // location has a (nearly empty) local definitions writer besides the global one: with the
  // default 4 MiB definition chunks, writing the archive of a short run of 4 ranks spent most of
  // its time filling 20 MiB. Writers that know their definitions' size choose the chunk with
  // DefinitionChunkBytes; a string longer than a chunk holds is shortened to fit, and a group
  // that does not fit is an error.
  struct Buffering {
    uint64_t event_chunk_bytes = 1024 * 1024;
    uint64_t definition_chunk_bytes = 4 * 1024 * 1024;
    bool flush_records = false;
    uint64_t flush_record_time = 0;
  };
  // The smallest definition chunk (a power of two in libotf2's bounds) that holds a group of
  // `largest_group` members with 64 KiB to spare.
  static uint64_t DefinitionChunkBytes(uint64_t largest_group);
  static Result<std::unique_ptr<ArchiveWriter>> Create(const std::string& directory,
                                                       const std::string& name,
                                                       const std::string& creator,
                                                       const Buffering& buffering);
  ~ArchiveWriter();
  ArchiveWriter(const ArchiveWriter&) = delete;
  ArchiveWriter& operator=(const ArchiveWriter&) = delete;

  // An archive property in the anchor file ("NAMESPACE::NAME", upper case), as libotf2 keeps it.
  Status SetProperty(const std::string& name, const std::string& value);

  uint32_t DefineString(std::string_view s);  // interned
  uint32_t DefineRegion(std::string_view name, OTF2_RegionRole role, OTF2_Paradigm paradigm,
                        std::string_view source_file = "", uint32_t begin_line = 0);
  // A source file and line (OTF2's SourceCodeLocation), one per distinct pair.
  uint32_t DefineSourceCodeLocation(std::string_view file, uint32_t line);
  // A node of a calling-context tree, as Score-P's unwinding writes it: a frame of `region` at
  // `source_location` (OTF2_UNDEFINED_SOURCE_CODE_LOCATION if unknown) below `parent`
  // (OTF2_UNDEFINED_CALLING_CONTEXT at a root).
  uint32_t DefineCallingContext(uint32_t region, uint32_t source_location, uint32_t parent);
  // The interrupt generator of CallingContextSample records: a CPU-time timer of `period` ns.
  uint32_t DefineInterruptGenerator(std::string_view name, uint64_t period);
  uint32_t DefineSystemTreeNode(std::string_view name, std::string_view class_name,
                                uint32_t parent);
  uint32_t DefineLocationGroup(std::string_view name, uint32_t system_tree_parent);
  // Returns the location's index (dense from 0 in definition order), which Events() and the
  // groups of locations take. Its OTF2 id is the index, or `otf2_id`: Score-P's ids are
  // thread << 32 | rank, and Scalasca reads a thread's number from them.
  uint64_t DefineLocation(std::string_view name, uint32_t location_group,
                          OTF2_LocationType type = OTF2_LOCATION_TYPE_CPU_THREAD,
                          std::optional<uint64_t> otf2_id = std::nullopt);
  uint32_t DefineGroup(std::string_view name, OTF2_GroupType type, OTF2_Paradigm paradigm,
                       const std::vector<uint64_t>& members);
  uint32_t DefineComm(std::string_view name, uint32_t group,
                      uint32_t parent = OTF2_UNDEFINED_UINT32);
  // `flags`: OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS if its events include RmaWinCreate and
  // RmaWinDestroy.
  uint32_t DefineRmaWindow(std::string_view name, uint32_t comm,
                           OTF2_RmaWinFlag flags = OTF2_RMA_WIN_FLAG_NONE);
  uint32_t DefineAttribute(std::string_view name, OTF2_Type type);
  // MPI-IO, as Score-P defines it: a regular file (interned by name and scope, a system tree
  // node), and a handle of the "MPI-IO" I/O paradigm (defined with the first handle) on it,
  // opened over `comm` (OTF2_UNDEFINED_COMM if unknown).
  uint32_t DefineIoFile(std::string_view name, uint32_t scope);
  uint32_t DefineMpiIoHandle(std::string_view name, uint32_t file, uint32_t comm);

  // Convenience for MPI traces: one COMM_LOCATIONS group over `locations` (world rank order),
  // a COMM_GROUP of all ranks and the communicator MPI_COMM_WORLD; returns the communicator id.
  uint32_t DefineMpiWorld(const std::vector<uint64_t>& locations);
  // A sub-communicator of world ranks `ranks` (in communicator rank order).
  uint32_t DefineMpiComm(std::string_view name, const std::vector<uint64_t>& world_ranks,
                         uint32_t parent);
  // An MPI inter-communicator between two groups of world ranks (OTF2's InterComm).
  uint32_t DefineMpiInterComm(std::string_view name, const std::vector<uint64_t>& group_a,
                              const std::vector<uint64_t>& group_b, uint32_t parent);
  // A communicator of another paradigm (OpenSHMEM's PEs, say) over `ranks` of `locations`
  // (rank order): the paradigm's COMM_LOCATIONS group is defined with its first communicator.
  uint32_t DefineParadigmComm(std::string_view name, OTF2_Paradigm paradigm,
                              const std::vector<uint64_t>& locations,
                              const std::vector<uint64_t>& ranks,
                              uint32_t parent = OTF2_UNDEFINED_UINT32);

  // The event writer of a defined location. Writers of different locations may be used from
  // different threads once they exist (Events itself is not thread-safe).
  EventWriter& Events(uint64_t location);
  // Writes out the location's buffered events and closes its writer, which is not used again;
  // Close closes those still open. Thread-safe for different locations.
  Status CloseEvents(uint64_t location);
  // The OTF2 id of the location with index `location` (itself if there is none such).
  uint64_t Otf2Id(uint64_t location) const {
    return location < locations_.size() ? locations_[location].otf2_id : location;
  }

  // A clock offset record in the location's local definitions, as Score-P writes them: OTF2
  // readers add `offset` (interpolated between records) to the location's timestamps.
  void AddClockOffset(uint64_t location, uint64_t time, int64_t offset);

  // Declares `events` for the location instead of the number written: only tests that build
  // damaged archives (a definition that promises more events than the file holds) use it.
  void DeclareEventCount(uint64_t location, uint64_t events) { declared_[location] = events; }
  // Writes `location`'s definition under another id (damaged archives: two locations sharing one).
  void DeclareLocationId(uint64_t location, uint64_t id) { declared_ids_[location] = id; }

  // Writes the global definitions and closes all files. `resolution` is ticks per second.
  Status Close(uint64_t resolution, uint64_t global_offset = 0);

  const std::string& anchor_path() const { return anchor_path_; }

 private:
  ArchiveWriter() = default;
  Status WriteDefinitions(uint64_t resolution, uint64_t global_offset);
  void WriteIoDefinitions(OTF2_GlobalDefWriter* defs);

  struct RegionDef {
    uint32_t name;
    OTF2_RegionRole role;
    OTF2_Paradigm paradigm;
    uint32_t file;
    uint32_t begin_line;
  };
  struct SourceCodeLocationDef {
    uint32_t file;
    uint32_t line;
  };
  struct CallingContextDef {
    uint32_t region;
    uint32_t source_location;
    uint32_t parent;
  };
  struct InterruptGeneratorDef {
    uint32_t name;
    uint64_t period;
  };
  struct NodeDef {
    uint32_t name;
    uint32_t class_name;
    uint32_t parent;
  };
  struct GroupDef {
    uint32_t name;
    OTF2_GroupType type;
    OTF2_Paradigm paradigm;
    std::vector<uint64_t> members;
  };
  struct LocationDef {
    uint32_t name;
    uint32_t group;
    OTF2_LocationType type;
    uint64_t otf2_id;
  };
  struct CommDef {
    uint32_t name;
    uint32_t group;
    uint32_t parent;
    uint32_t remote_group = OTF2_UNDEFINED_GROUP;  // inter-communicators: group B
  };
  struct WindowDef {
    uint32_t name;
    uint32_t comm;
    OTF2_RmaWinFlag flags;
  };
  struct AttributeDef {
    uint32_t name;
    uint8_t type;
  };
  struct IoFileDef {
    uint32_t name;
    uint32_t scope;
  };
  struct IoHandleDef {
    uint32_t name;
    uint32_t file;
    uint32_t comm;
  };

  OTF2_Archive* archive_ = nullptr;
  Buffering buffering_;
  std::string anchor_path_;
  bool closed_ = false;
  std::vector<std::string> strings_;
  std::unordered_map<std::string, uint32_t> string_ids_;
  std::vector<RegionDef> regions_;
  std::vector<SourceCodeLocationDef> source_locations_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> source_location_ids_;
  std::vector<CallingContextDef> calling_contexts_;
  std::vector<InterruptGeneratorDef> interrupt_generators_;
  std::vector<NodeDef> nodes_;
  std::vector<uint32_t> location_group_names_;
  std::vector<uint32_t> location_group_parents_;
  std::vector<LocationDef> locations_;
  std::map<uint64_t, std::vector<std::pair<uint64_t, int64_t>>> clock_offsets_;
  std::map<uint64_t, uint64_t> declared_;
  std::map<uint64_t, uint64_t> declared_ids_;
  std::vector<GroupDef> groups_;
  std::vector<CommDef> comms_;
  std::vector<WindowDef> windows_;
  std::vector<AttributeDef> attributes_;
  std::vector<IoFileDef> io_files_;
  std::map<std::pair<std::string, uint32_t>, uint32_t> io_file_ids_;
  std::vector<IoHandleDef> io_handles_;
  uint32_t mpi_world_group_ = OTF2_UNDEFINED_UINT32;      // the COMM_LOCATIONS group
  std::map<OTF2_Paradigm, uint32_t> paradigm_locations_;  // other paradigms' COMM_LOCATIONS
  std::map<uint64_t, std::unique_ptr<EventWriter>> writers_;
  // Filled as the event writers close (CloseEvents, Close), under `closing_`.
  std::mutex closing_;
  std::set<uint64_t> closed_writers_;
  std::map<uint64_t, uint64_t> event_counts_;
  uint64_t end_time_ = 0;
};

}  // namespace cw::otf2_writer
