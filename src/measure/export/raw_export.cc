#include "measure/export/raw_export.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <tuple>
#include <utility>

#include "measure/export/internal/io_definitions.h"
#include "measure/export/internal/raw_definitions.h"
#include "measure/raw/raw_format.h"
#include "otf2_writer/archive_writer.h"

namespace cw::measure {

using internal::ClockMap;
using internal::ClockPoint;
using internal::CommDef;
using internal::DefineRankFiles;
using internal::GroupDef;
using internal::kNoIoHandle;
using internal::kSelfCommId;
using internal::kUndefinedRegion;
using internal::RankDefs;
using internal::ReadDefs;
using internal::TimerMap;
using internal::TimerPoint;
using internal::UserRegionRole;
using internal::WindowDef;

bool HasRawTrace(const std::string& dir) {
  std::error_code ec;
  return std::filesystem::exists(RawDefsPath(dir, 0), ec);
}

// The archive's ids of the causeway attributes a probe's Leave and a matched receive carry.
struct ProbeAttributes {
  uint32_t probe_comm = 0;
  uint32_t probe_source = 0;
  uint32_t probe_tag = 0;
  uint32_t message_handle = 0;
  uint32_t calls = 0;  // on a Leave that ends a run of folded polls (trace/polling.h)
};

constexpr uint32_t kNoDefinition = 0xFFFFFFFFu;

// The OpenSHMEM routines' regions, defined when a rank first enters one: MPI programs do not
// carry a thousand region definitions they never use.
class ShmemRegions {
 public:
  explicit ShmemRegions(otf2_writer::ArchiveWriter& archive)
      : archive_(archive), ids_(kShmemFunctionCount, kNoDefinition) {}
  uint32_t Get(uint32_t routine) {
    if (ids_[routine] == kNoDefinition) {
      const ShmemFunctionInfo& f = kShmemFunctions[routine];
      ids_[routine] = archive_.DefineRegion(f.name, f.role, OTF2_PARADIGM_SHMEM, "SHMEM");
    }
    return ids_[routine];
  }

 private:
  otf2_writer::ArchiveWriter& archive_;
  std::vector<uint32_t> ids_;
};

// What turning one rank's records into OTF2 needs: its local definitions mapped to the
// archive's, and its clocks.
struct RankContext {
  int rank = 0;
  const std::vector<uint32_t>& regions;
  const std::vector<uint32_t>& comms;
  const std::vector<uint32_t>& windows;
  const std::vector<uint32_t>& groups;
  const std::vector<uint32_t>& files;  // I/O handles
  uint32_t world = 0;
  const TimerMap& timer;
  const ClockMap& clock;
  ProbeAttributes attributes;
  ShmemRegions& shmem_regions;

  // The archive's region of a raw region index, kUndefinedRegion if nothing defines it.
  uint32_t Region(uint32_t index) const {
    if (index >= kShmemFirstRegion && index < kShmemFirstRegion + kShmemFunctionCount)
      return shmem_regions.Get(index - kShmemFirstRegion);
    return index < regions.size() ? regions[index] : kUndefinedRegion;
  }

  uint32_t Comm(uint32_t local) const { return local < comms.size() ? comms[local] : world; }
  uint32_t Window(uint32_t local) const {
    return local < windows.size() ? windows[local] : kNoDefinition;
  }
  uint32_t Group(uint32_t local) const {
    return local < groups.size() ? groups[local] : kNoDefinition;
  }
  uint32_t File(uint32_t local) const { return local < files.size() ? files[local] : kNoIoHandle; }
};

// Writes the raw events file `path` of one of the rank's threads (`thread`: not the one that
// initialised MPI) as the events of `out`, counting into `summary`.
void ExportStream(const std::string& path, bool thread, const RankContext& rank,
                  otf2_writer::EventWriter& out, std::vector<RawEvent>& chunk, uint64_t& min_time,
                  ExportSummary& summary) {
  std::vector<uint32_t> open;  // regions entered and not left
  uint64_t last = 0;
  uint64_t floor = 0;  // the earliest time the next record may have
  auto is_flush_region = [](const RawEvent& e) {
    return (e.kind == RawKind::kEnter || e.kind == RawKind::kLeave) && e.a == kFlushRegion;
  };
  uint64_t rank_bytes = 0;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) {
    summary.problems.push_back("rank " + std::to_string(rank.rank) + ": " + path +
                               " is missing: the " + (thread ? std::string("thread") : "rank") +
                               " recorded no events");
    return;
  }
  while (true) {
    const size_t n = std::fread(chunk.data(), sizeof(RawEvent), chunk.size(), file);
    for (size_t i = 0; i < n; ++i) {
      const RawEvent& e = chunk[i];
      // A rank's timestamps never go back, even where the clock map bends.
      const uint64_t t = std::max(rank.clock(rank.timer(e.time)), floor);
      last = t;
      // Nothing shares a timestamp with a buffer flush's Enter or Leave: Scalasca moves every
      // event stamped at or before a flush record behind it (PEARL_verify_calltree), which
      // would put a record written right after a flush inside the flush region, where its
      // replay skips it (a send, say, whose receive then waits for ever).
      floor = is_flush_region(e) ? t + 1 : t;
      min_time = std::min(min_time, t);
      const bool is_region = e.kind == RawKind::kEnter || e.kind == RawKind::kLeave;
      const uint32_t region = is_region ? rank.Region(e.a) : 0;
      if (is_region && region == kUndefinedRegion) {
        ++summary.invalid_records;  // a region nobody defined: damaged, left out
        continue;
      }
      const bool is_rma = e.kind >= RawKind::kRmaWinCreate && e.kind <= RawKind::kRmaWaitChange &&
                          e.kind != RawKind::kRmaCollectiveBegin;
      if (is_rma && (rank.Window(e.a) == kNoDefinition ||
                     (e.kind == RawKind::kRmaGroupSync && rank.Group(e.b) == kNoDefinition))) {
        ++summary.invalid_records;  // a window or group nobody defined: damaged, left out
        continue;
      }
      const bool is_io =
          e.kind >= RawKind::kIoCreateHandle && e.kind <= RawKind::kIoOperationComplete;
      if (is_io && rank.File(e.a) == kNoIoHandle) {
        ++summary.invalid_records;  // a file nobody defined: damaged, left out
        continue;
      }
      const uint32_t remote = e.b == kNoRank ? OTF2_UNDEFINED_UINT32 : e.b;
      switch (e.kind) {
        case RawKind::kEnter:
          out.Enter(t, region);
          open.push_back(region);
          break;
        case RawKind::kProbeFound:
          // Attributes of the probe's Leave, the next record.
          out.AddUint64Attribute(rank.attributes.probe_comm, rank.Comm(e.a));
          out.AddUint64Attribute(rank.attributes.probe_source, e.b);
          out.AddUint64Attribute(rank.attributes.probe_tag, e.c);
          out.AddUint64Attribute(rank.attributes.message_handle, e.y);
          continue;
        case RawKind::kLeave:
          if (e.y > 1) out.AddUint64Attribute(rank.attributes.calls, e.y);
          out.Leave(t, region);
          if (!open.empty()) open.pop_back();
          break;
        case RawKind::kSend:
          out.MpiSend(t, e.b, rank.Comm(e.a), e.c, e.x);
          break;
        case RawKind::kIsend:
          out.MpiIsend(t, e.b, rank.Comm(e.a), e.c, e.x, e.y);
          break;
        case RawKind::kIsendComplete:
          out.MpiIsendComplete(t, e.y);
          break;
        case RawKind::kIrecvRequest:
          if (e.c != 0) out.AddUint64Attribute(rank.attributes.message_handle, e.c);  // MPI_Imrecv
          out.MpiIrecvRequest(t, e.y);
          break;
        case RawKind::kRecv:
          if (e.y != 0) out.AddUint64Attribute(rank.attributes.message_handle, e.y);  // MPI_Mrecv
          out.MpiRecv(t, e.b, rank.Comm(e.a), e.c, e.x);
          break;
        case RawKind::kIrecv:
          out.MpiIrecv(t, e.b, rank.Comm(e.a), e.c, e.x, e.y);
          break;
        case RawKind::kRequestTest:
          out.MpiRequestTest(t, e.y);
          break;
        case RawKind::kRequestCancelled:
          out.MpiRequestCancelled(t, e.y);
          break;
        case RawKind::kCollectiveBegin:
          out.MpiCollectiveBegin(t);
          break;
        case RawKind::kCollectiveEnd:
          out.MpiCollectiveEnd(t, static_cast<OTF2_CollectiveOp>(e.op), rank.Comm(e.a), e.b, e.x,
                               e.y);
          break;
        case RawKind::kNonBlockingCollectiveRequest:
          out.NonBlockingCollectiveRequest(t, e.y);
          break;
        case RawKind::kNonBlockingCollectiveComplete:
          out.NonBlockingCollectiveComplete(t, static_cast<OTF2_CollectiveOp>(e.op), rank.Comm(e.a),
                                            e.b, e.x, e.y, e.c);
          break;
        case RawKind::kRmaWinCreate:
          out.RmaWinCreate(t, rank.Window(e.a));
          break;
        case RawKind::kRmaWinDestroy:
          out.RmaWinDestroy(t, rank.Window(e.a));
          break;
        case RawKind::kRmaCollectiveBegin:
          out.RmaCollectiveBegin(t);
          break;
        case RawKind::kRmaCollectiveEnd:
          out.RmaCollectiveEnd(t, static_cast<OTF2_CollectiveOp>(e.op),
                               static_cast<OTF2_RmaSyncLevel>(e.c), rank.Window(e.a), remote, e.x,
                               e.y);
          break;
        case RawKind::kRmaGroupSync:
          out.RmaGroupSync(t, static_cast<OTF2_RmaSyncLevel>(e.c), rank.Window(e.a),
                           rank.Group(e.b));
          break;
        case RawKind::kRmaRequestLock:
          out.RmaRequestLock(t, rank.Window(e.a), remote, e.y, static_cast<OTF2_LockType>(e.op));
          break;
        case RawKind::kRmaAcquireLock:
          out.RmaAcquireLock(t, rank.Window(e.a), remote, e.y, static_cast<OTF2_LockType>(e.op));
          break;
        case RawKind::kRmaReleaseLock:
          out.RmaReleaseLock(t, rank.Window(e.a), remote, e.y);
          break;
        case RawKind::kRmaSync:
          out.RmaSync(t, rank.Window(e.a), remote, static_cast<OTF2_RmaSyncType>(e.op));
          break;
        case RawKind::kRmaPut:
          out.RmaPut(t, rank.Window(e.a), remote, e.x, e.y);
          break;
        case RawKind::kRmaGet:
          out.RmaGet(t, rank.Window(e.a), remote, e.x, e.y);
          break;
        case RawKind::kRmaAtomic:
          out.RmaAtomic(t, rank.Window(e.a), remote, static_cast<OTF2_RmaAtomicType>(e.op), e.x,
                        e.c, e.y);
          break;
        case RawKind::kRmaOpCompleteBlocking:
          out.RmaOpCompleteBlocking(t, rank.Window(e.a), e.y);
          break;
        case RawKind::kRmaTryLock:
          out.RmaTryLock(t, rank.Window(e.a), remote, e.y, static_cast<OTF2_LockType>(e.op));
          break;
        case RawKind::kRmaWaitChange:
          out.RmaWaitChange(t, rank.Window(e.a));
          break;
        case RawKind::kMeasurementOnOff:
          out.MeasurementOnOff(t, e.a != 0);
          break;
        case RawKind::kIoCreateHandle:
          out.IoCreateHandle(t, rank.File(e.a), static_cast<OTF2_IoAccessMode>(e.b),
                             static_cast<OTF2_IoCreationFlag>(e.x),
                             static_cast<OTF2_IoStatusFlag>(e.c));
          break;
        case RawKind::kIoDestroyHandle:
          out.IoDestroyHandle(t, rank.File(e.a));
          break;
        case RawKind::kIoOperationBegin:
          out.IoOperationBegin(t, rank.File(e.a), static_cast<OTF2_IoOperationMode>(e.c),
                               static_cast<OTF2_IoOperationFlag>(e.b), e.x, e.y);
          break;
        case RawKind::kIoOperationIssued:
          out.IoOperationIssued(t, rank.File(e.a), e.y);
          break;
        case RawKind::kIoOperationComplete:
          out.IoOperationComplete(t, rank.File(e.a), e.x, e.y);
          break;
        default:
          ++summary.invalid_records;
          continue;  // unknown record kinds are skipped, not guessed at
      }
      ++summary.events;
    }
    rank_bytes += n * sizeof(RawEvent);
    if (n < chunk.size()) break;
  }
  // A record cut short (the process died while writing it) is left out.
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > rank_bytes) summary.truncated_bytes += size - rank_bytes;
  summary.raw_bytes += rank_bytes;
  std::fclose(file);
  while (!open.empty()) {
    out.Leave(last, open.back());
    open.pop_back();
    ++summary.closed_regions;
    ++summary.events;
  }
}

Result<ExportSummary> ExportRawTrace(const std::string& dir) {
  RankDefs first = ReadDefs(RawDefsPath(dir, 0));
  if (!first.present) {
    return MakeError(ErrorCode::kNotFound,
                     "no raw trace in " + dir + " (missing " + RawDefsPath(dir, 0) + ")");
  }
  if (first.size <= 0) {
    return MakeError(ErrorCode::kCorrupt, RawDefsPath(dir, 0) +
                                              " does not say how many ranks ran: the raw trace "
                                              "is damaged");
  }
  const int ranks = first.size;
  std::vector<RankDefs> defs(static_cast<size_t>(ranks));
  defs[0] = std::move(first);
  for (int r = 1; r < ranks; ++r) defs[static_cast<size_t>(r)] = ReadDefs(RawDefsPath(dir, r));

  CW_ASSIGN_OR_RETURN(auto archive, otf2_writer::ArchiveWriter::Create(dir, "traces", "causeway"));
  ExportSummary summary;
  summary.anchor = archive->anchor_path();
  summary.ranks = static_cast<uint32_t>(ranks);

  // Regions, numbered as the raw records number them.
  std::vector<uint32_t> region_ids;
  for (const MpiFunctionInfo& f : kMpiFunctions)
    region_ids.push_back(archive->DefineRegion(f.name, f.role, OTF2_PARADIGM_MPI, "MPI"));
  region_ids.resize(kFlushRegion, kUndefinedRegion);  // OpenSHMEM's: see ShmemRegions
  ShmemRegions shmem_regions(*archive);
  region_ids.push_back(archive->DefineRegion(kFlushRegionName, OTF2_REGION_ROLE_ARTIFICIAL,
                                             OTF2_PARADIGM_MEASUREMENT_SYSTEM));
  region_ids.push_back(
      archive->DefineRegion(kProgramRegionName, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER));
  // User regions, unified by name and role; per rank, its local ids mapped to them. A loop is a
  // region of the loop role, its iteration marker an artificial one (include/causeway).
  std::map<std::pair<std::string, UserRegionRole>, uint32_t> user_regions;
  std::vector<std::vector<uint32_t>> region_of(static_cast<size_t>(ranks), region_ids);
  for (int r = 0; r < ranks; ++r) {
    const RankDefs& d = defs[static_cast<size_t>(r)];
    for (const auto& [local, name] : d.regions) {
      auto role_it = d.region_roles.find(local);
      const UserRegionRole role =
          role_it == d.region_roles.end() ? UserRegionRole::kRegion : role_it->second;
      auto [it, inserted] = user_regions.try_emplace({name, role}, 0);
      if (inserted) {
        const OTF2_RegionRole otf2_role = role == UserRegionRole::kLoop ? OTF2_REGION_ROLE_LOOP
                                          : role == UserRegionRole::kIteration
                                              ? OTF2_REGION_ROLE_ARTIFICIAL
                                              : OTF2_REGION_ROLE_FUNCTION;
        it->second = archive->DefineRegion(name, otf2_role, OTF2_PARADIGM_USER);
      }
      std::vector<uint32_t>& ids = region_of[static_cast<size_t>(r)];
      if (ids.size() <= local) ids.resize(local + 1, kUndefinedRegion);
      ids[local] = it->second;
    }
  }

  // System tree: the machine, its nodes, one process per rank with its master thread and the
  // other threads that called MPI.
  const uint32_t machine =
      archive->DefineSystemTreeNode("machine", "machine", OTF2_UNDEFINED_UINT32);
  std::map<std::string, uint32_t> nodes;
  std::vector<uint64_t> locations(static_cast<size_t>(ranks));
  std::vector<std::vector<uint64_t>> thread_locations(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    const std::string& host = defs[static_cast<size_t>(r)].host;
    auto [it, inserted] = nodes.try_emplace(host, 0);
    if (inserted) it->second = archive->DefineSystemTreeNode(host, "node", machine);
    uint32_t group = archive->DefineLocationGroup("MPI Rank " + std::to_string(r), it->second);
    locations[static_cast<size_t>(r)] = archive->DefineLocation("Master thread", group);
    thread_locations[static_cast<size_t>(r)].push_back(locations[static_cast<size_t>(r)]);
    for (int k = 1; k < defs[static_cast<size_t>(r)].threads; ++k) {
      thread_locations[static_cast<size_t>(r)].push_back(
          archive->DefineLocation("Thread " + std::to_string(k), group));
    }
  }

  // Communicators: one definition per communicator, shared by all its members.
  const uint32_t world = archive->DefineMpiWorld(locations);
  std::map<std::pair<long long, std::vector<uint64_t>>, uint32_t> unified;
  // Inter-communicators, by agreed id and their two groups (the one holding the lower world
  // rank first, as both sides see it).
  std::map<std::tuple<long long, std::vector<uint64_t>, std::vector<uint64_t>>, uint32_t>
      unified_inter;
  std::vector<std::vector<uint32_t>> comm_of(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    for (const CommDef& c : defs[static_cast<size_t>(r)].comms) {
      uint32_t id = world;
      if (c.inter) {
        const bool local_first = *std::min_element(c.ranks.begin(), c.ranks.end()) <
                                 *std::min_element(c.remote.begin(), c.remote.end());
        const std::vector<uint64_t>& a = local_first ? c.ranks : c.remote;
        const std::vector<uint64_t>& b = local_first ? c.remote : c.ranks;
        auto [it, inserted] = unified_inter.try_emplace({c.global, a, b}, 0);
        if (inserted) {
          it->second = archive->DefineMpiInterComm(
              "MPI inter-communicator " + std::to_string(unified_inter.size()), a, b, world);
        }
        id = it->second;
      } else if (!c.world) {
        // Communicators seen being created are unified by their agreed id (and members, since
        // disjoint communicators can share one); the others by their members alone.
        auto key = std::make_pair(c.global, c.ranks);
        auto [it, inserted] = unified.try_emplace(key, 0);
        if (inserted) {
          std::string name = c.global == kSelfCommId
                                 ? "MPI_COMM_SELF"
                                 : "MPI communicator " + std::to_string(unified.size());
          it->second = archive->DefineMpiComm(name, c.ranks, world);
        }
        id = it->second;
      }
      comm_of[static_cast<size_t>(r)].push_back(id);
    }
  }

  // RMA windows, unified by the id their members agreed on and their communicator; process
  // groups (of MPI_Win_post/start) by their members.
  std::map<std::pair<long long, uint32_t>, uint32_t> unified_windows;
  std::map<std::vector<uint64_t>, uint32_t> unified_groups;
  // OpenSHMEM's windows, unified by their active set, over communicators of the SHMEM paradigm.
  std::map<std::vector<uint64_t>, uint32_t> shmem_windows;
  uint32_t shmem_world = kNoDefinition;
  auto shmem_window = [&](const std::vector<uint64_t>& pes) {
    auto [it, inserted] = shmem_windows.try_emplace(pes, 0);
    if (!inserted) return it->second;
    if (shmem_world == kNoDefinition) {
      std::vector<uint64_t> all(static_cast<size_t>(ranks));
      for (uint64_t r = 0; r < all.size(); ++r) all[r] = r;
      shmem_world = archive->DefineParadigmComm("All PEs", OTF2_PARADIGM_SHMEM, locations, all);
    }
    const bool all = pes.size() == static_cast<size_t>(ranks);
    std::string name = all ? "All PEs" : "Active set";
    if (!all) {
      for (uint64_t pe : pes) name += " " + std::to_string(pe);
    }
    const uint32_t comm =
        all ? shmem_world
            : archive->DefineParadigmComm(name, OTF2_PARADIGM_SHMEM, locations, pes, shmem_world);
    it->second = archive->DefineRmaWindow(name, comm, OTF2_RMA_WIN_FLAG_NONE);
    return it->second;
  };
  std::vector<std::vector<uint32_t>> window_of(static_cast<size_t>(ranks));
  std::vector<std::vector<uint32_t>> group_of(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    const RankDefs& d = defs[static_cast<size_t>(r)];
    const std::vector<uint32_t>& comms = comm_of[static_cast<size_t>(r)];
    for (const WindowDef& w : d.windows) {
      if (w.shmem) {
        window_of[static_cast<size_t>(r)].push_back(shmem_window(w.pes));
        continue;
      }
      if (w.global < 0 || w.comm >= comms.size()) {
        window_of[static_cast<size_t>(r)].push_back(kNoDefinition);  // a gap or damaged line
        continue;
      }
      auto [it, inserted] = unified_windows.try_emplace({w.global, comms[w.comm]}, 0);
      if (inserted) {
        it->second =
            archive->DefineRmaWindow("MPI window " + std::to_string(unified_windows.size() - 1),
                                     comms[w.comm], OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS);
      }
      window_of[static_cast<size_t>(r)].push_back(it->second);
    }
    for (const GroupDef& g : d.groups) {
      if (g.ranks.empty()) {
        group_of[static_cast<size_t>(r)].push_back(kNoDefinition);
        continue;
      }
      auto [it, inserted] = unified_groups.try_emplace(g.ranks, 0);
      if (inserted) {
        it->second = archive->DefineGroup("MPI group " + std::to_string(unified_groups.size() - 1),
                                          OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, g.ranks);
      }
      group_of[static_cast<size_t>(r)].push_back(it->second);
    }
  }

  std::vector<std::vector<uint32_t>> file_of(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    file_of[static_cast<size_t>(r)] = DefineRankFiles(*archive, defs[static_cast<size_t>(r)],
                                                      comm_of[static_cast<size_t>(r)], machine);
  }

  // Ranks on one node share its monotonic clock: they keep their timestamps as they are on rank
  // 0's node, and elsewhere take the offsets the node's first rank measured, so that measuring
  // noise never moves ranks of one node against each other.
  std::map<std::string, int> first_on_host;
  for (int r = 0; r < ranks; ++r) first_on_host.try_emplace(defs[static_cast<size_t>(r)].host, r);
  auto clock_points = [&](int r) {
    const std::string& host = defs[static_cast<size_t>(r)].host;
    if (host == defs[0].host) return std::vector<ClockPoint>{};
    return defs[static_cast<size_t>(first_on_host[host])].clock;
  };

  // What probes found, in causeway's convention (trace/probe_attributes.h).
  ProbeAttributes attributes;
  attributes.probe_comm = archive->DefineAttribute("causeway::probe_comm", OTF2_TYPE_UINT64);
  attributes.probe_source = archive->DefineAttribute("causeway::probe_source", OTF2_TYPE_UINT64);
  attributes.probe_tag = archive->DefineAttribute("causeway::probe_tag", OTF2_TYPE_UINT64);
  attributes.message_handle =
      archive->DefineAttribute("causeway::message_handle", OTF2_TYPE_UINT64);
  attributes.calls = archive->DefineAttribute("causeway::calls", OTF2_TYPE_UINT64);

  // One counter per node: all ranks of a node convert it with the same line, taken from the rank
  // whose calibration points lie furthest apart (the most precise slope), so that measuring
  // noise never moves ranks of one node against each other. A node none of whose ranks has two
  // points (all died early) borrows another node's rate.
  struct NodeTimer {
    TimerPoint origin;
    double ns_per_tick = 0;
    uint64_t span = 0;
  };
  std::map<std::string, NodeTimer> node_timer;
  double any_rate = 0;
  for (int r = 0; r < ranks; ++r) {
    const RankDefs& d = defs[static_cast<size_t>(r)];
    if (!d.tsc || d.calibration.empty()) continue;
    NodeTimer& node = node_timer[d.host];
    double slope = 0;
    const uint64_t span = d.calibration.back().ticks - d.calibration.front().ticks;
    if (TimerMap::Slope(d.calibration, &slope) && span > node.span) {
      node = NodeTimer{d.calibration.front(), slope, span};
      any_rate = slope;
    } else if (node.ns_per_tick == 0 && node.span == 0) {
      node.origin = d.calibration.front();
    }
  }
  auto timer_of = [&](int r) -> Result<TimerMap> {
    const RankDefs& d = defs[static_cast<size_t>(r)];
    if (!d.tsc) return TimerMap();
    auto it = node_timer.find(d.host);
    const double ns_per_tick =
        it == node_timer.end() ? 0
                               : (it->second.ns_per_tick > 0 ? it->second.ns_per_tick : any_rate);
    if (ns_per_tick == 0) {
      return MakeError(ErrorCode::kCorrupt, "rank " + std::to_string(r) +
                                                " has no timer calibration: its timestamps cannot "
                                                "be converted (" +
                                                RawDefsPath(dir, r) + ")");
    }
    return TimerMap(it->second.origin, ns_per_tick);
  };

  uint64_t min_time = ~uint64_t{0};
  constexpr size_t kChunk = 1 << 16;
  std::vector<RawEvent> chunk(kChunk);
  for (int r = 0; r < ranks; ++r) {
    const RankDefs& d = defs[static_cast<size_t>(r)];
    summary.unrecorded_calls += d.unrecorded;
    summary.unbalanced_regions += d.unbalanced_regions;
    summary.reused_thread_slots += d.reused_thread_slots;
    summary.flushes += d.flushes;
    summary.flush_nanoseconds += d.flush_ns;
    summary.lost |= d.lost;
    summary.problems.insert(summary.problems.end(), d.problems.begin(), d.problems.end());
    // Every location gets its event file, empty if its events are left out: readers expect one.
    const std::vector<uint64_t>& streams = thread_locations[static_cast<size_t>(r)];
    for (uint64_t location : streams) archive->Events(location);
    if (!d.present) {
      // Without its definitions the rank's timestamps cannot be read: it stays empty.
      summary.problems.push_back("rank " + std::to_string(r) + ": " + RawDefsPath(dir, r) +
                                 " is missing; the rank's events are left out");
      continue;
    }
    if (d.ending != "finalized") summary.endings.push_back(RankEnding{r, d.ending});
    const ClockMap clock(clock_points(r));
    Result<TimerMap> timer_or = timer_of(r);
    if (!timer_or.has_value()) {
      summary.problems.push_back(timer_or.error().message() + "; the rank's events are left out");
      continue;
    }
    const RankContext rank{r,
                           region_of[static_cast<size_t>(r)],
                           comm_of[static_cast<size_t>(r)],
                           window_of[static_cast<size_t>(r)],
                           group_of[static_cast<size_t>(r)],
                           file_of[static_cast<size_t>(r)],
                           world,
                           *timer_or,
                           clock,
                           attributes,
                           shmem_regions};
    // One stream per thread: the thread that initialised MPI, then the others by index.
    for (size_t thread = 0; thread < streams.size(); ++thread) {
      const std::string path = thread == 0 ? RawEventsPath(dir, r)
                                           : RawThreadEventsPath(dir, r, static_cast<int>(thread));
      ExportStream(path, thread > 0, rank, archive->Events(streams[thread]), chunk, min_time,
                   summary);
    }
  }
  if (min_time == ~uint64_t{0}) min_time = 0;
  std::string endings;
  for (int r = 0; r < ranks; ++r) {
    RankDefs& d = defs[static_cast<size_t>(r)];
    if (d.size_limited && d.size_limit_time > 0 && d.ending.rfind("recording stopped", 0) == 0) {
      // When, in seconds from the trace's start, as every report counts time.
      if (Result<TimerMap> timer = timer_of(r); timer.has_value()) {
        const uint64_t at = ClockMap(clock_points(r))((*timer)(d.size_limit_time));
        char when[48];
        std::snprintf(when, sizeof when, " after %.3f s",
                      at > min_time ? static_cast<double>(at - min_time) * 1e-9 : 0.0);
        d.ending += when;
        for (RankEnding& e : summary.endings) {
          if (e.rank == r) e.how = d.ending;
        }
      }
    }
    endings += std::to_string(r) + " " + (d.present ? d.ending : "no definitions") + "\n";
  }
  CW_RETURN_IF_ERROR(archive->SetProperty(otf2_writer::kRankEndingsProperty, endings));
  CW_RETURN_IF_ERROR(archive->Close(1'000'000'000, min_time));
  return summary;
}

}  // namespace cw::measure
