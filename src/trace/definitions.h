// Global definitions of a trace: strings, regions, the system tree, locations, groups,
// communicators, RMA windows, metrics and the clock.
//
// Definitions are stored in vectors indexed by their OTF2 id (ids are dense in practice); a slot
// that no record defined stays `defined == false`. Locations are the exception: their OTF2 ids
// are sparse 64-bit numbers, so they get dense indices here (`Location::otf2_id` keeps the
// original) and every reference to a location in the model is a dense index.
//
//   const Region& r = defs.region(ref);
//   std::string_view name = defs.str(r.name);
//   uint32_t loc = defs.comms[c].LocationOfRank(rank, calling_location);
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "trace/enums.h"
#include "trace/mpi_function.h"

namespace cw::trace {

struct Region {
  bool defined = false;
  uint32_t name = kNone;
  uint32_t canonical_name = kNone;
  uint32_t description = kNone;
  RegionRole role = RegionRole::kUnknown;
  Paradigm paradigm = Paradigm::kUnknown;
  uint32_t flags = 0;
  uint32_t file = kNone;
  uint32_t begin_line = 0;
  uint32_t end_line = 0;
  MpiFunction mpi;  // derived from the name; see mpi_function.h
};

struct SystemTreeNode {
  bool defined = false;
  uint32_t name = kNone;
  uint32_t class_name = kNone;
  uint32_t parent = kNone;
};

struct LocationGroup {
  bool defined = false;
  uint32_t name = kNone;
  LocationGroupType type = LocationGroupType::kUnknown;
  uint32_t system_tree_parent = kNone;
  uint32_t creating_group = kNone;
  uint32_t rank = kNone;  // MPI rank in MPI_COMM_WORLD, derived from the MPI location group
};

struct Location {
  uint64_t otf2_id = 0;
  uint32_t name = kNone;
  LocationType type = LocationType::kUnknown;
  uint64_t event_count = 0;  // as declared in the definitions (0 when the writer did not say)
  uint32_t group = kNone;    // location group id
};

struct Group {
  bool defined = false;
  uint32_t name = kNone;
  GroupType type = GroupType::kUnknown;
  Paradigm paradigm = Paradigm::kUnknown;
  uint32_t flags = 0;
  std::vector<uint64_t> members;  // location ids, ranks or region ids depending on `type`
};

// The roots of collectives on an inter-communicator (OTF2 3.0's OTF2_CollectiveRoot): the
// root's own record says kRootSelf (MPI_ROOT), the other members of its group kRootThisGroup
// (MPI_PROC_NULL), the members of the other group the root's rank in the root's group.
inline constexpr uint32_t kRootSelf = 0xFFFFFFFEu;
inline constexpr uint32_t kRootThisGroup = 0xFFFFFFFDu;

struct Comm {
  bool defined = false;
  uint32_t name = kNone;
  uint32_t group = kNone;
  // An inter-communicator (OTF2's InterComm) has two groups: `group` (A) and `remote_group`
  // (B). A member's ranks name the processes of the other group.
  uint32_t remote_group = kNone;
  uint32_t parent = kNone;
  uint32_t flags = 0;
  bool is_self = false;  // a COMM_SELF-like communicator: rank 0 is the calling location
  // Dense location index of each rank; filled from the groups by Definitions::ResolveComms().
  // An inter-communicator's: group A's locations, then group B's.
  std::vector<uint32_t> rank_to_location;
  uint32_t group_a_size = 0;             // inter-communicators: A's part of rank_to_location
  std::vector<uint32_t> group_a_sorted;  // inter-communicators: A's locations, sorted

  bool is_inter() const { return remote_group != kNone; }
  // Whether `location` is in group A of an inter-communicator.
  bool InGroupA(uint32_t location) const;
  // The location of `rank` in this communicator, as seen from `calling_location`, or kNone. On
  // an inter-communicator, `rank` is a rank of the caller's other group.
  uint32_t LocationOfRank(uint32_t rank, uint32_t calling_location) const {
    if (is_self) return rank == 0 ? calling_location : kNone;
    if (is_inter()) [[unlikely]]
      return RemoteLocation(rank, calling_location);
    return rank < rank_to_location.size() ? rank_to_location[rank] : kNone;
  }
  // Every member, both groups of an inter-communicator.
  uint32_t size() const { return is_self ? 1 : static_cast<uint32_t>(rank_to_location.size()); }

 private:
  uint32_t RemoteLocation(uint32_t rank, uint32_t calling_location) const;
};

struct RmaWindow {
  bool defined = false;
  uint32_t name = kNone;
  uint32_t comm = kNone;
  uint32_t flags = 0;
};

struct MetricMember {
  bool defined = false;
  uint32_t name = kNone;
  uint32_t description = kNone;
  uint8_t metric_type = 0;
  uint8_t mode = 0;
  uint8_t value_type = 0;
  uint8_t base = 0;
  int64_t exponent = 0;
  uint32_t unit = kNone;
};

// Metric classes and instances share one id space in OTF2.
struct Metric {
  bool defined = false;
  bool is_instance = false;
  std::vector<uint32_t> members;  // metric member ids (of the class, for an instance)
  uint32_t metric_class = kNone;  // for an instance
  uint64_t recorder = 0;          // for an instance: the OTF2 location id that records it
};

struct Parameter {
  bool defined = false;
  uint32_t name = kNone;
  uint8_t type = 0;
};

// A source file and line (OTF2's SourceCodeLocation).
struct SourceLocation {
  bool defined = false;
  uint32_t file = kNone;  // string id
  uint32_t line = 0;
};

// A node of the calling-context tree that Score-P writes when it unwinds the stack or samples
// (OTF2's CallingContext): a frame of `region` at `source_location` (the line the frame is at,
// so a parent's is where it calls the child), below `parent` (kNone at a root). The reader turns
// the CallingContextEnter/Leave/Sample records that name them into Enters and Leaves of their
// regions (otf2/internal/calling_context_frames.h).
struct CallingContext {
  bool defined = false;
  uint32_t region = kNone;
  uint32_t source_location = kNone;
  uint32_t parent = kNone;
};

struct Attribute {
  bool defined = false;
  uint32_t name = kNone;
  uint32_t description = kNone;
  uint8_t type = 0;
};

struct CartDimension {
  bool defined = false;
  uint32_t name = kNone;
  uint32_t size = 0;
  bool periodic = false;
};

struct CartTopology {
  bool defined = false;
  uint32_t name = kNone;
  uint32_t comm = kNone;
  std::vector<uint32_t> dimensions;
  std::vector<std::pair<uint32_t, std::vector<uint32_t>>> coordinates;  // (rank, coordinates)
};

// I/O, as Score-P records it: a paradigm ("MPI-IO", "POSIX", "ISOC"), the files and
// directories it accesses (IoRegularFile and IoDirectory share one id space), and the handles
// that I/O operations name.
struct IoParadigm {
  bool defined = false;
  uint32_t identification = kNone;
  uint32_t name = kNone;
  bool parallel = false;  // OTF2_IO_PARADIGM_CLASS_PARALLEL
};

struct IoFile {
  bool defined = false;
  uint32_t name = kNone;
  bool directory = false;
};

struct IoHandle {
  bool defined = false;
  uint32_t name = kNone;
  uint32_t file = kNone;
  uint32_t paradigm = kNone;
  uint32_t comm = kNone;
};

struct ClockProperties {
  bool defined = false;
  uint64_t resolution = 1;  // ticks per second
  uint64_t global_offset = 0;
  uint64_t trace_length = 0;
};

class Definitions {
 public:
  std::vector<std::string> strings;
  std::vector<Region> regions;
  std::vector<SystemTreeNode> system_tree;
  std::vector<LocationGroup> location_groups;
  std::vector<Location> locations;  // dense; see Location::otf2_id
  std::vector<Group> groups;
  std::vector<Comm> comms;
  std::vector<RmaWindow> windows;
  std::vector<MetricMember> metric_members;
  std::vector<Metric> metrics;
  std::vector<Parameter> parameters;
  std::vector<Attribute> attributes;
  std::vector<SourceLocation> source_locations;
  std::vector<CallingContext> calling_contexts;
  std::vector<CartDimension> cart_dimensions;
  std::vector<CartTopology> cart_topologies;
  std::vector<IoParadigm> io_paradigms;
  std::vector<IoFile> io_files;
  std::vector<IoHandle> io_handles;
  ClockProperties clock;
  std::string creator;       // the program that wrote the trace, when known
  std::string otf2_version;  // "major.minor.bugfix" of the writer
  // How each rank's recording ended, where the tracer noted it (causeway's archive property
  // CAUSEWAY::RANK_ENDINGS): "finalized", "abort", "signal N", "exit without MPI_Finalize",
  // "fatal error handler TEXT", ... by world rank, sorted by rank. Empty for other writers'
  // traces.
  std::vector<std::pair<uint32_t, std::string>> rank_endings;
  // Where each rank ran, where the tracer noted it (CAUSEWAY::RANK_SCHEDULING; trace/scheduling.h).
  struct RankSchedule {
    uint32_t rank = 0;
    std::string host;
    int cpus_allowed = 0;    // the CPUs it may run on
    int cpus_online = 0;     // its node's
    int64_t ran_ns = -1;     // its main thread on a CPU while recording (-1: unknown)
    int64_t waited_ns = -1;  // runnable, waiting for a CPU (-1: unknown)
    // Its node's CPU time meanwhile, summed over the node's CPUs, and the part of it a
    // hypervisor gave to other virtual machines (steal time; both -1: unknown).
    int64_t node_ns = -1;
    int64_t node_stolen_ns = -1;
    // The computation of its threads that spans between two stack samples covered, and the
    // part of it they were runnable without a CPU (measure/runtime/sampling.h; both -1:
    // unknown, as without samples).
    int64_t computation_measured_ns = -1;
    int64_t computation_descheduled_ns = -1;
  };
  std::vector<RankSchedule> rank_schedules;

  // The string for `ref`, or "" for kNone and undefined ids.
  std::string_view str(uint32_t ref) const {
    return ref < strings.size() ? std::string_view(strings[ref]) : std::string_view();
  }
  std::string_view RegionName(uint32_t region) const {
    return region < regions.size() ? str(regions[region].name) : std::string_view();
  }

  // Dense index of an OTF2 location id, or kNone.
  uint32_t LocationIndex(uint64_t otf2_id) const;
  void IndexLocations();  // rebuilds the id -> index map after `locations` changed

  // The dense location of each member of a group of locations (COMM_LOCATIONS, LOCATIONS) or
  // of ranks (COMM_GROUP: indices into its paradigm's COMM_LOCATIONS group), kNone for members
  // that name no location; empty for an undefined group.
  std::vector<uint32_t> GroupLocations(uint32_t group) const;

  // Fills Comm::rank_to_location and LocationGroup::rank from the groups. Call once after all
  // definitions are in; returns the number of communicators whose members could not be resolved.
  size_t ResolveComms();

  // Appends a region (e.g. for measurement gaps) and returns its id.
  uint32_t AddRegion(std::string_view name, RegionRole role, Paradigm paradigm);
  uint32_t AddString(std::string_view s);

  // The id of the region with this name, or kNone.
  uint32_t FindRegion(std::string_view name) const;

  // Whether `handle` belongs to MPI-IO (its paradigm's identification is Score-P's "MPI-IO").
  bool IsMpiIoHandle(uint32_t handle) const;
  // The name of the file behind `handle`, or "" if none is defined.
  std::string_view IoFileName(uint32_t handle) const;

  // The MPI rank of a location (its group's rank), or kNone.
  uint32_t RankOfLocation(uint32_t location) const;
  // Whether the tracer noted that world rank `rank` stopped recording other than by finishing
  // (rank_endings: an abort, a signal, the size limit, ...). False where the trace does not say.
  bool RankEndedEarly(uint32_t rank) const;
  // Whether the rank of `location` ended early (false for a location of no rank).
  bool LocationEndedEarly(uint32_t location) const {
    return RankEndedEarly(RankOfLocation(location));
  }

 private:
  std::unordered_map<uint64_t, uint32_t> location_index_;
};

}  // namespace cw::trace
