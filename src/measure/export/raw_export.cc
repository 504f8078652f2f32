#include "measure/export/raw_export.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <tuple>
#include <utility>

#include "measure/export/internal/archive_definitions.h"
#include "measure/export/internal/io_definitions.h"
#include "measure/export/internal/openmp.h"
#include "measure/export/internal/rank_clocks.h"
#include "measure/export/internal/rank_properties.h"
#include "measure/export/internal/raw_definitions.h"
#include "measure/export/internal/walked_paths.h"
#include "measure/raw/raw_format.h"
#include "otf2_writer/archive_writer.h"

namespace cw::measure {

using internal::ArchiveIds;
using internal::ClockMap;
using internal::DefineArchive;
using internal::kNoDefinition;
using internal::kNoIoHandle;
using internal::kUndefinedRegion;
using internal::OmpNesting;
using internal::RankClocks;
using internal::RankDefs;
using internal::RankEndings;
using internal::RankIds;
using internal::RankScheduling;
using internal::ReadDefs;
using internal::TimerMap;
using internal::WalkedPaths;
using internal::WalkedStack;
using internal::WriteThreadRecord;

bool HasRawTrace(const std::string& dir) {
  std::error_code ec;
  return std::filesystem::exists(RawDefsPath(dir, 0), ec);
}

// The archive's ids of the causeway attributes events carry: what a probe found (on its Leave
// and a matched receive), the calls a folded poll stands for, and call sites.
struct EventAttributes {
  uint32_t probe_comm = 0;
  uint32_t probe_source = 0;
  uint32_t probe_tag = 0;
  uint32_t message_handle = 0;
  uint32_t calls = 0;  // on a Leave that ends a run of folded polls (trace/polling.h)
  // On the MpiCollectiveEnd of a v-collective: who sends the rank data, a group of world
  // ranks (trace/collective_senders.h).
  uint32_t senders = 0;
  // On the Enter of a walked function or call: the source location of the call (the line in
  // the calling function), where the debug information has it (trace/call_sites.h).
  uint32_t call_site = internal::kNoSite;
};

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
  EventAttributes attributes;
  ShmemRegions& shmem_regions;
  WalkedPaths* walked;  // the rank's walked call paths, nullptr if it recorded none
  uint32_t team;        // its OpenMP threads' team (OTF2_UNDEFINED_COMM: none)
  const std::vector<OmpNesting>& omp_nesting;  // by raw region index
  const std::vector<uint32_t>& waiting;        // the archive's regions of kWaiting, ascending

  OmpNesting Nesting(uint32_t index) const {
    return index < omp_nesting.size() ? omp_nesting[index] : OmpNesting::kNone;
  }
  // Whether the innermost of the `open` regions is an OpenMP construct the thread waits in.
  bool WaitsIn(const std::vector<uint32_t>& open) const {
    return !open.empty() && std::binary_search(waiting.begin(), waiting.end(), open.back());
  }

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

// What writing a raw record gave: an event, attributes of the next event, or nothing (a kind
// this exporter does not know: skipped, not guessed at).
enum class Written { kEvent, kAttributes, kUnknown };

// The senders of a v-collective (`senders`: their group's local id + 1, 0 if none) as the
// attribute of the record that follows (trace/collective_senders.h).
void AddSenders(uint32_t senders, const RankContext& rank, otf2_writer::EventWriter& out) {
  if (senders != 0 && rank.Group(senders - 1) != kNoDefinition)
    out.AddGroupAttribute(rank.attributes.senders, rank.Group(senders - 1));
}

// Regions, point-to-point, probe and collective records.
Written WriteMpiRecord(const RawEvent& e, uint64_t t, uint32_t region, const RankContext& rank,
                       otf2_writer::EventWriter& out, std::vector<uint32_t>& open) {
  switch (e.kind) {
    case RawKind::kEnter:
      out.Enter(t, region);
      open.push_back(region);
      return Written::kEvent;
    case RawKind::kProbeFound:
      // Attributes of the probe's Leave, the next record.
      out.AddUint64Attribute(rank.attributes.probe_comm, rank.Comm(e.a));
      out.AddUint64Attribute(rank.attributes.probe_source, e.b);
      out.AddUint64Attribute(rank.attributes.probe_tag, e.c);
      out.AddUint64Attribute(rank.attributes.message_handle, e.y);
      return Written::kAttributes;
    case RawKind::kLeave:
      if (e.y > 1) out.AddUint64Attribute(rank.attributes.calls, e.y);
      out.Leave(t, region);
      if (!open.empty()) open.pop_back();
      return Written::kEvent;
    case RawKind::kSend:
      out.MpiSend(t, e.b, rank.Comm(e.a), e.c, e.x);
      return Written::kEvent;
    case RawKind::kIsend:
      out.MpiIsend(t, e.b, rank.Comm(e.a), e.c, e.x, e.y);
      return Written::kEvent;
    case RawKind::kIsendComplete:
      out.MpiIsendComplete(t, e.y);
      return Written::kEvent;
    case RawKind::kIrecvRequest:
      if (e.c != 0) out.AddUint64Attribute(rank.attributes.message_handle, e.c);  // MPI_Imrecv
      out.MpiIrecvRequest(t, e.y);
      return Written::kEvent;
    case RawKind::kRecv:
      if (e.y != 0) out.AddUint64Attribute(rank.attributes.message_handle, e.y);  // MPI_Mrecv
      out.MpiRecv(t, e.b, rank.Comm(e.a), e.c, e.x);
      return Written::kEvent;
    case RawKind::kIrecv:
      out.MpiIrecv(t, e.b, rank.Comm(e.a), e.c, e.x, e.y);
      return Written::kEvent;
    case RawKind::kRequestTest:
      out.MpiRequestTest(t, e.y);
      return Written::kEvent;
    case RawKind::kRequestCancelled:
      out.MpiRequestCancelled(t, e.y);
      return Written::kEvent;
    case RawKind::kCollectiveBegin:
      out.MpiCollectiveBegin(t);
      return Written::kEvent;
    case RawKind::kCollectiveEnd:
      AddSenders(e.c, rank, out);
      out.MpiCollectiveEnd(t, static_cast<OTF2_CollectiveOp>(e.op), rank.Comm(e.a), e.b, e.x, e.y);
      return Written::kEvent;
    case RawKind::kNonBlockingCollectiveRequest:
      AddSenders(e.c, rank, out);
      out.NonBlockingCollectiveRequest(t, e.y);
      return Written::kEvent;
    case RawKind::kNonBlockingCollectiveComplete:
      out.NonBlockingCollectiveComplete(t, static_cast<OTF2_CollectiveOp>(e.op), rank.Comm(e.a),
                                        e.b, e.x, e.y, e.c);
      return Written::kEvent;
    default:
      return Written::kUnknown;
  }
}

// One-sided, MPI-IO and measurement records.
Written WriteOtherRecord(const RawEvent& e, uint64_t t, const RankContext& rank,
                         otf2_writer::EventWriter& out) {
  const uint32_t remote = e.b == kNoRank ? OTF2_UNDEFINED_UINT32 : e.b;
  switch (e.kind) {
    case RawKind::kRmaWinCreate:
      out.RmaWinCreate(t, rank.Window(e.a));
      return Written::kEvent;
    case RawKind::kRmaWinDestroy:
      out.RmaWinDestroy(t, rank.Window(e.a));
      return Written::kEvent;
    case RawKind::kRmaCollectiveBegin:
      out.RmaCollectiveBegin(t);
      return Written::kEvent;
    case RawKind::kRmaCollectiveEnd:
      out.RmaCollectiveEnd(t, static_cast<OTF2_CollectiveOp>(e.op),
                           static_cast<OTF2_RmaSyncLevel>(e.c), rank.Window(e.a), remote, e.x, e.y);
      return Written::kEvent;
    case RawKind::kRmaGroupSync:
      out.RmaGroupSync(t, static_cast<OTF2_RmaSyncLevel>(e.c), rank.Window(e.a), rank.Group(e.b));
      return Written::kEvent;
    case RawKind::kRmaRequestLock:
      out.RmaRequestLock(t, rank.Window(e.a), remote, e.y, static_cast<OTF2_LockType>(e.op));
      return Written::kEvent;
    case RawKind::kRmaAcquireLock:
      out.RmaAcquireLock(t, rank.Window(e.a), remote, e.y, static_cast<OTF2_LockType>(e.op));
      return Written::kEvent;
    case RawKind::kRmaReleaseLock:
      out.RmaReleaseLock(t, rank.Window(e.a), remote, e.y);
      return Written::kEvent;
    case RawKind::kRmaSync:
      out.RmaSync(t, rank.Window(e.a), remote, static_cast<OTF2_RmaSyncType>(e.op));
      return Written::kEvent;
    case RawKind::kRmaPut:
      out.RmaPut(t, rank.Window(e.a), remote, e.x, e.y);
      return Written::kEvent;
    case RawKind::kRmaGet:
      out.RmaGet(t, rank.Window(e.a), remote, e.x, e.y);
      return Written::kEvent;
    case RawKind::kRmaAtomic:
      out.RmaAtomic(t, rank.Window(e.a), remote, static_cast<OTF2_RmaAtomicType>(e.op), e.x, e.c,
                    e.y);
      return Written::kEvent;
    case RawKind::kRmaOpCompleteBlocking:
      out.RmaOpCompleteBlocking(t, rank.Window(e.a), e.y);
      return Written::kEvent;
    case RawKind::kRmaTryLock:
      out.RmaTryLock(t, rank.Window(e.a), remote, e.y, static_cast<OTF2_LockType>(e.op));
      return Written::kEvent;
    case RawKind::kRmaWaitChange:
      out.RmaWaitChange(t, rank.Window(e.a));
      return Written::kEvent;
    case RawKind::kMeasurementOnOff:
      out.MeasurementOnOff(t, e.a != 0);
      return Written::kEvent;
    case RawKind::kIoCreateHandle:
      out.IoCreateHandle(t, rank.File(e.a), static_cast<OTF2_IoAccessMode>(e.b),
                         static_cast<OTF2_IoCreationFlag>(e.x),
                         static_cast<OTF2_IoStatusFlag>(e.c));
      return Written::kEvent;
    case RawKind::kIoDestroyHandle:
      out.IoDestroyHandle(t, rank.File(e.a));
      return Written::kEvent;
    case RawKind::kIoOperationBegin:
      out.IoOperationBegin(t, rank.File(e.a), static_cast<OTF2_IoOperationMode>(e.c),
                           static_cast<OTF2_IoOperationFlag>(e.b), e.x, e.y);
      return Written::kEvent;
    case RawKind::kIoOperationIssued:
      out.IoOperationIssued(t, rank.File(e.a), e.y);
      return Written::kEvent;
    case RawKind::kIoOperationComplete:
      out.IoOperationComplete(t, rank.File(e.a), e.x, e.y);
      return Written::kEvent;
    default:
      return Written::kUnknown;
  }
}

// Whether every definition the record names exists: a damaged file may name regions, windows,
// groups or files nobody defined.
bool NamesOnlyDefined(const RawEvent& e, uint32_t region, const RankContext& rank) {
  const bool is_region = e.kind == RawKind::kEnter || e.kind == RawKind::kLeave;
  if (is_region && region == kUndefinedRegion) return false;
  const bool is_rma = e.kind >= RawKind::kRmaWinCreate && e.kind <= RawKind::kRmaWaitChange &&
                      e.kind != RawKind::kRmaCollectiveBegin;
  if (is_rma && (rank.Window(e.a) == kNoDefinition ||
                 (e.kind == RawKind::kRmaGroupSync && rank.Group(e.b) == kNoDefinition))) {
    return false;
  }
  const bool is_io = e.kind >= RawKind::kIoCreateHandle && e.kind <= RawKind::kIoOperationComplete;
  return !(is_io && rank.File(e.a) == kNoIoHandle);
}

// Writes the raw events file `path` of one of the rank's threads (`thread`: not the one that
// initialised MPI) as the events of `out`, counting into `summary`.
void ExportStream(const std::string& path, bool thread, const RankContext& rank,
                  otf2_writer::EventWriter& out, std::vector<RawEvent>& chunk, uint64_t& min_time,
                  ExportSummary& summary) {
  std::vector<uint32_t> open;  // regions entered and not left
  WalkedStack walked;          // the walked functions among them
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
      const uint64_t previous = last;
      last = t;
      // Nothing shares a timestamp with a buffer flush's Enter or Leave: Scalasca moves every
      // event stamped at or before a flush record behind it (PEARL_verify_calltree), which
      // would put a record written right after a flush inside the flush region, where its
      // replay skips it (a send, say, whose receive then waits for ever).
      floor = is_flush_region(e) ? t + 1 : t;
      min_time = std::min(min_time, t);
      const bool is_region = e.kind == RawKind::kEnter || e.kind == RawKind::kLeave;
      const uint32_t region = is_region ? rank.Region(e.a) : 0;
      if (!NamesOnlyDefined(e, region, rank)) {
        ++summary.invalid_records;  // damaged: left out
        continue;
      }
      const uint32_t call_site = rank.attributes.call_site;
      if (e.kind == RawKind::kSample) {
        if (rank.walked != nullptr && !rank.WaitsIn(open)) {
          summary.events += static_cast<uint64_t>(std::max(
              0L, walked.Move(rank.walked->Path(e.a), previous, t, out, open, call_site, true)));
        }
        continue;
      }
      // A call's Enter, and a fork (whose team's parallel region follows it), take the walked
      // functions of their call path.
      const bool walks = e.kind == RawKind::kEnter || e.kind == RawKind::kThreadFork;
      if (walks && e.b != 0 && rank.walked != nullptr) {
        const internal::WalkedPath& call_path = rank.walked->Path(e.b);
        const long moved = walked.Move(call_path, previous, t, out, open, call_site);
        summary.events += static_cast<uint64_t>(std::max(0L, moved));
        // The call's own Enter carries the line that made it.
        if (moved >= 0 && e.kind == RawKind::kEnter && call_path.leaf_site != internal::kNoSite)
          out.AddSourceCodeLocationAttribute(call_site, call_path.leaf_site);
      } else if ((e.kind == RawKind::kLeave && !open.empty() && region != open.back()) ||
                 (e.kind == RawKind::kEnter && (rank.Nesting(e.a) == OmpNesting::kConstruct ||
                                                rank.Nesting(e.a) == OmpNesting::kWaiting))) {
        summary.events += static_cast<uint64_t>(walked.LeaveAll(previous, t, out, open));
      }
      Written written = WriteMpiRecord(e, t, region, rank, out, open);
      if (written == Written::kUnknown) written = WriteOtherRecord(e, t, rank, out);
      if (written == Written::kUnknown && WriteThreadRecord(e, t, rank.team, out))
        written = Written::kEvent;
      if (written == Written::kAttributes) continue;
      if (written == Written::kUnknown) {
        ++summary.invalid_records;
        continue;
      }
      if (e.kind == RawKind::kEnter && rank.Nesting(e.a) == OmpNesting::kParallel)
        walked.Nest(open);
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

namespace {

// The raw definitions of every rank; an error if rank 0's are missing or do not say how many
// ranks ran (the others' may be missing: their ranks stay empty).
Result<std::vector<RankDefs>> ReadAllDefs(const std::string& dir) {
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
  std::vector<RankDefs> defs(static_cast<size_t>(first.size));
  defs[0] = std::move(first);
  for (size_t r = 1; r < defs.size(); ++r)
    defs[r] = ReadDefs(RawDefsPath(dir, static_cast<int>(r)));
  return defs;
}

// The attributes in causeway's convention (trace/probe_attributes.h, trace/call_sites.h,
// trace/polling.h, trace/collective_senders.h).
EventAttributes DefineEventAttributes(otf2_writer::ArchiveWriter& archive) {
  EventAttributes attributes;
  attributes.probe_comm = archive.DefineAttribute("causeway::probe_comm", OTF2_TYPE_UINT64);
  attributes.probe_source = archive.DefineAttribute("causeway::probe_source", OTF2_TYPE_UINT64);
  attributes.probe_tag = archive.DefineAttribute("causeway::probe_tag", OTF2_TYPE_UINT64);
  attributes.message_handle = archive.DefineAttribute("causeway::message_handle", OTF2_TYPE_UINT64);
  attributes.calls = archive.DefineAttribute("causeway::calls", OTF2_TYPE_UINT64);
  attributes.call_site =
      archive.DefineAttribute("causeway::call_site", OTF2_TYPE_SOURCE_CODE_LOCATION);
  attributes.senders = archive.DefineAttribute("causeway::senders", OTF2_TYPE_GROUP);
  return attributes;
}

// Everything exporting one rank's event files needs besides the rank.
struct ExportInputs {
  const std::string& dir;
  const std::vector<RankDefs>& defs;
  const ArchiveIds& ids;
  const RankClocks& clocks;
  const EventAttributes& attributes;
  ShmemRegions& shmem_regions;
  elf::ModuleCache& modules;                    // the files that name walked call paths
  internal::FunctionRegions& function_regions;  // their functions' regions
};

// The rank's saved memory map ("" if it saved none).
std::string ReadMaps(const std::string& dir, int r) {
  std::ifstream maps_file(RawMapsPath(dir, r));
  std::stringstream maps;
  maps << maps_file.rdbuf();
  return maps.str();
}

// Names the OpenMP constructs' regions of every rank by where the program met them.
void NameRanksOmpRegions(const std::string& dir, std::vector<RankDefs>& defs,
                         elf::ModuleCache& modules) {
  for (size_t r = 0; r < defs.size(); ++r) {
    if (defs[r].omp_regions.empty()) continue;
    internal::NameOmpRegions(ReadMaps(dir, static_cast<int>(r)), modules, defs[r].omp_regions);
  }
}

// The rank's walked call paths (nullptr if it recorded none), named from its saved memory map.
std::unique_ptr<WalkedPaths> ReadWalkedPaths(int r, const RankDefs& d, const ExportInputs& in,
                                             ExportSummary& summary) {
  if (d.frames.empty()) return nullptr;
  const std::string maps = ReadMaps(in.dir, r);
  if (maps.empty()) {
    summary.problems.push_back("rank " + std::to_string(r) + ": " + RawMapsPath(in.dir, r) +
                               " is missing: its call paths are left out");
    return nullptr;
  }
  const std::string who = "rank " + std::to_string(r) + ": ";
  if (d.walks_truncated > 0) {
    summary.problems.push_back(who + std::to_string(d.walks_truncated) +
                               " stack walks were deeper than the depth kept (--max-depth): "
                               "their outermost frames are missing");
  }
  if (d.walks_cut_short > 0) {
    summary.problems.push_back(who + std::to_string(d.walks_cut_short) +
                               " call paths did not fit the calling-context table and end early");
  }
  return std::make_unique<WalkedPaths>(d, maps, in.modules, in.function_regions);
}

// Writes rank `r`'s event files (one per thread) as its locations' events, counting into
// `summary`. Every location gets its event file, empty if its events are left out: readers
// expect one.
void ExportRank(int r, const ExportInputs& in, otf2_writer::ArchiveWriter& archive,
                std::vector<RawEvent>& chunk, uint64_t& min_time, ExportSummary& summary) {
  const RankDefs& d = in.defs[static_cast<size_t>(r)];
  summary.unrecorded_calls += d.unrecorded;
  summary.unbalanced_regions += d.unbalanced_regions;
  summary.reused_thread_slots += d.reused_thread_slots;
  summary.flushes += d.flushes;
  summary.flush_nanoseconds += d.flush_ns;
  summary.samples += d.samples_taken;
  summary.lost_samples += d.samples_lost;
  summary.samples_inside_regions += d.samples_inside;
  summary.sample_nanoseconds += d.samples_ns;
  summary.lost |= d.lost;
  summary.problems.insert(summary.problems.end(), d.problems.begin(), d.problems.end());
  const RankIds& ids = in.ids.ranks[static_cast<size_t>(r)];
  for (uint64_t location : ids.locations) archive.Events(location);
  if (!d.present) {
    // Without its definitions the rank's timestamps cannot be read: it stays empty.
    summary.problems.push_back("rank " + std::to_string(r) + ": " + RawDefsPath(in.dir, r) +
                               " is missing; the rank's events are left out");
    return;
  }
  if (d.ending != "finalized") summary.endings.push_back(RankEnding{r, d.ending});
  const ClockMap clock = in.clocks.Clock(r);
  Result<TimerMap> timer_or = in.clocks.Timer(r);
  if (!timer_or.has_value()) {
    summary.problems.push_back(timer_or.error().message() + "; the rank's events are left out");
    return;
  }
  std::unique_ptr<WalkedPaths> walked = ReadWalkedPaths(r, d, in, summary);
  double ns_per_tick = 1.0;  // the walks' time, in the rank's timer units
  if (d.tsc && !TimerMap::Slope(d.calibration, &ns_per_tick)) ns_per_tick = 0;
  summary.walks += d.walks;
  summary.walk_nanoseconds +=
      static_cast<uint64_t>(static_cast<double>(d.walk_ticks) * ns_per_tick);
  const std::vector<OmpNesting> omp_nesting = internal::OmpNestingOf(d.omp_regions);
  std::vector<uint32_t> waiting;
  for (uint32_t i = 0; i < omp_nesting.size(); ++i) {
    if (omp_nesting[i] == OmpNesting::kWaiting && i < ids.regions.size())
      waiting.push_back(ids.regions[i]);
  }
  std::sort(waiting.begin(), waiting.end());
  const RankContext rank{r,          ids.regions,   ids.comms,        ids.windows,
                         ids.groups, ids.files,     in.ids.world,     *timer_or,
                         clock,      in.attributes, in.shmem_regions, walked.get(),
                         ids.team,   omp_nesting,   waiting};
  // One stream per thread: the thread that initialised MPI, then the others by index.
  for (size_t thread = 0; thread < ids.locations.size(); ++thread) {
    const std::string path = thread == 0 ? RawEventsPath(in.dir, r)
                                         : RawThreadEventsPath(in.dir, r, static_cast<int>(thread));
    ExportStream(path, thread > 0, rank, archive.Events(ids.locations[thread]), chunk, min_time,
                 summary);
  }
  if (walked != nullptr) {
    for (const auto& [module, functions] : walked->unnamed())
      summary.unnamed_functions[module].insert(functions.begin(), functions.end());
  }
}

}  // namespace

Result<ExportSummary> ExportRawTrace(const std::string& dir) {
  CW_ASSIGN_OR_RETURN(std::vector<RankDefs> defs, ReadAllDefs(dir));
  CW_ASSIGN_OR_RETURN(auto archive, otf2_writer::ArchiveWriter::Create(dir, "traces", "causeway"));
  ExportSummary summary;
  summary.anchor = archive->anchor_path();
  summary.ranks = static_cast<uint32_t>(defs.size());
  elf::ModuleCache modules;
  NameRanksOmpRegions(dir, defs, modules);
  const ArchiveIds ids = DefineArchive(*archive, defs);
  const EventAttributes attributes = DefineEventAttributes(*archive);
  const RankClocks clocks(defs, dir);
  ShmemRegions shmem_regions(*archive);
  internal::FunctionRegions function_regions(*archive);
  const ExportInputs inputs{dir,        defs,          ids,     clocks,
                            attributes, shmem_regions, modules, function_regions};

  uint64_t min_time = ~uint64_t{0};
  constexpr size_t kChunk = 1 << 16;
  std::vector<RawEvent> chunk(kChunk);
  for (size_t r = 0; r < defs.size(); ++r) {
    ExportRank(static_cast<int>(r), inputs, *archive, chunk, min_time, summary);
  }
  if (min_time == ~uint64_t{0}) min_time = 0;
  if (!summary.unnamed_functions.empty()) {
    size_t functions = 0;
    std::string stripped;
    for (const auto& [module, names] : summary.unnamed_functions) {
      functions += names.size();
      stripped += (stripped.empty() ? "" : ", ") + module;
    }
    summary.problems.push_back(
        std::to_string(functions) +
        (functions == 1 ? " function on the call paths has" : " functions on the call paths have") +
        " no symbol (stripped: " + stripped +
        "): they are shown as module+offset of their start; the modules' separate debug files "
        "(Debian's -dbgsym packages, or a root in CAUSEWAY_DEBUG_DIRS) would name them");
  }
  CW_RETURN_IF_ERROR(archive->SetProperty(otf2_writer::kRankEndingsProperty,
                                          RankEndings(defs, clocks, min_time, summary)));
  // (An empty property value would remove it: OTF2 refuses that for a property never set.)
  if (const std::string scheduling = RankScheduling(defs); !scheduling.empty()) {
    CW_RETURN_IF_ERROR(archive->SetProperty(otf2_writer::kRankSchedulingProperty, scheduling));
  }
  CW_RETURN_IF_ERROR(archive->Close(1'000'000'000, min_time));
  return summary;
}

}  // namespace cw::measure
