#include "measure/export/raw_export.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <tuple>
#include <utility>

#include "base/parallel.h"
#include "measure/export/internal/archive_definitions.h"
#include "measure/export/internal/event_records.h"
#include "measure/export/internal/io_definitions.h"
#include "measure/export/internal/openmp.h"
#include "measure/export/internal/rank_clocks.h"
#include "measure/export/internal/rank_properties.h"
#include "measure/export/internal/raw_definitions.h"
#include "measure/export/internal/shmem_regions.h"
#include "measure/export/internal/walked_paths.h"
#include "measure/raw/raw_format.h"
#include "otf2_writer/archive_writer.h"

namespace cw::measure {

using internal::ArchiveIds;
using internal::ClockMap;
using internal::DefineArchive;
using internal::EventAttributes;
using internal::kNoDefinition;
using internal::kNoIoHandle;
using internal::kUndefinedRegion;
using internal::OmpNesting;
using internal::RankClocks;
using internal::RankContext;
using internal::RankDefs;
using internal::RankEndings;
using internal::RankIds;
using internal::RankScheduling;
using internal::ReadDefs;
using internal::ShmemRegions;
using internal::TimerMap;
using internal::WalkedPaths;
using internal::WalkedStack;
using internal::WriteThreadRecord;
using internal::Written;

bool HasRawTrace(const std::string& dir) {
  std::error_code ec;
  return std::filesystem::exists(RawDefsPath(dir, 0), ec);
}

// The times a record can have, on rank 0's clock in nanoseconds: below 2^62 (146 years since the
// clock's start, boot for CLOCK_MONOTONIC), and not more than kLongestGap after the thread's
// record before it. A record outside is damaged (a flipped bit in a file that a crash or a disk
// left behind): it is left out, so that the records after it keep their times (the times of a
// thread never go back: a record stamped far ahead would carry every later one with it) and the
// archive's time range stays within what OTF2's readers accept.
constexpr uint64_t kLatestTime = uint64_t{1} << 62;
constexpr uint64_t kLongestGap = uint64_t{1} << 50;  // 13 days

// Writes the raw events file `path` of one of the rank's threads (`thread`: not the one that
// initialised MPI) as the events of `out`, counting into `summary`.
void ExportStream(const std::string& path, bool thread, const RankContext& rank,
                  otf2_writer::EventWriter& out, std::vector<RawEvent>& chunk, uint64_t& min_time,
                  ExportSummary& summary) {
  std::vector<uint32_t> open;  // regions entered and not left
  WalkedStack walked;          // the walked functions among them
  uint64_t last = 0;
  bool kept_any = false;  // whether `last` is a record's time
  uint64_t floor = 0;     // the earliest time the next record may have
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
      const uint64_t stamped = rank.clock(rank.timer(e.time));
      if (stamped >= kLatestTime || (kept_any && stamped > last + kLongestGap)) {
        ++summary.invalid_records;  // damaged: left out
        continue;
      }
      kept_any = true;
      // A rank's timestamps never go back, even where the clock map bends.
      const uint64_t t = std::max(stamped, floor);
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

// The raw definitions of every rank, the ranks after the first read on up to `threads` threads;
// an error if rank 0's are missing or do not say how many ranks ran (the others' may be
// missing: their ranks stay empty).
Result<std::vector<RankDefs>> ReadAllDefs(const std::string& dir, unsigned threads) {
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
  ParallelFor(defs.size() - 1, threads,
              [&](size_t i) { defs[i + 1] = ReadDefs(RawDefsPath(dir, static_cast<int>(i + 1))); });
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

// One rank's part of the export. Prepared one rank after another (PrepareRank): the
// definitions its call paths add to the archive come in rank order, so that the same raw files
// always give the same trace. Then written in parallel with the other ranks' (WriteRank): each
// rank has its own event writers, summary and earliest time, merged in rank order at the end.
struct RankExport {
  ExportSummary summary;
  std::vector<uint64_t> locations;                 // the archive's, by thread
  std::vector<otf2_writer::EventWriter*> writers;  // theirs
  std::optional<TimerMap> timer;                   // none if the rank's events are left out
  std::unique_ptr<WalkedPaths> walked;
  uint64_t min_time = ~uint64_t{0};
  Status written;  // closing its event files
};

// Rank `r`'s locations and their event writers: every location gets its event file, empty if
// its events are left out (readers expect one).
void CreateWriters(int r, const ExportInputs& in, otf2_writer::ArchiveWriter& archive,
                   RankExport& out) {
  for (uint64_t location : in.ids.ranks[static_cast<size_t>(r)].locations) {
    out.writers.push_back(&archive.Events(location));
    out.locations.push_back(location);
  }
}

// Rank `r`'s counts and problems, its timer, and its walked call paths named and defined.
void PrepareRank(int r, const ExportInputs& in, RankExport& out) {
  const RankDefs& d = in.defs[static_cast<size_t>(r)];
  ExportSummary& summary = out.summary;
  summary.unrecorded_calls += d.unrecorded;
  summary.unbalanced_regions += d.unbalanced_regions;
  summary.reused_thread_slots += d.reused_thread_slots;
  summary.openmp_serial_teams += d.openmp_serial_teams;
  summary.openmp_solo_locks += d.openmp_solo_locks;
  summary.flushes += d.flushes;
  summary.flush_nanoseconds += d.flush_ns;
  summary.samples += d.samples_taken;
  summary.lost_samples += d.samples_lost;
  summary.samples_inside_regions += d.samples_inside;
  summary.sample_nanoseconds += d.samples_ns;
  summary.lost |= d.lost;
  summary.problems.insert(summary.problems.end(), d.problems.begin(), d.problems.end());
  if (!d.present) {
    // Without its definitions the rank's timestamps cannot be read: it stays empty.
    summary.problems.push_back("rank " + std::to_string(r) + ": " + RawDefsPath(in.dir, r) +
                               " is missing; the rank's events are left out");
    return;
  }
  if (d.ending != "finalized") summary.endings.push_back(RankEnding{r, d.ending});
  Result<TimerMap> timer_or = in.clocks.Timer(r);
  if (!timer_or.has_value()) {
    summary.problems.push_back(timer_or.error().message() + "; the rank's events are left out");
    return;
  }
  out.timer = std::move(*timer_or);
  out.walked = ReadWalkedPaths(r, d, in, summary);
  if (out.walked != nullptr) {
    out.walked->ResolveAll();
    for (const auto& [module, functions] : out.walked->unnamed())
      summary.unnamed_functions[module].insert(functions.begin(), functions.end());
  }
  double ns_per_tick = 1.0;  // the walks' time, in the rank's timer units
  if (d.tsc && !TimerMap::Slope(d.calibration, &ns_per_tick)) ns_per_tick = 0;
  summary.walks += d.walks;
  // A damaged count can be any 64-bit number: its product may not fit in one.
  const double walk_ns = static_cast<double>(d.walk_ticks) * ns_per_tick;
  if (walk_ns > 0) {
    summary.walk_nanoseconds +=
        walk_ns < 0x1p63 ? static_cast<uint64_t>(walk_ns) : uint64_t{1} << 63;
  }
}

// Writes rank `r`'s event files (one per thread) as its locations' events, counting into its
// summary, and closes its locations' event writers (which writes their files out).
void WriteRank(int r, const ExportInputs& in, otf2_writer::ArchiveWriter& archive, RankExport& x) {
  if (!x.timer) {
    for (uint64_t location : x.locations) {
      if (x.written) x.written = archive.CloseEvents(location);
    }
    return;
  }
  const RankDefs& d = in.defs[static_cast<size_t>(r)];
  const RankIds& ids = in.ids.ranks[static_cast<size_t>(r)];
  const ClockMap clock = in.clocks.Clock(r);
  const std::vector<OmpNesting> omp_nesting = internal::OmpNestingOf(d.omp_regions);
  std::vector<uint32_t> waiting;
  for (uint32_t i = 0; i < omp_nesting.size(); ++i) {
    if (omp_nesting[i] == OmpNesting::kWaiting && i < ids.regions.size())
      waiting.push_back(ids.regions[i]);
  }
  std::sort(waiting.begin(), waiting.end());
  const RankContext rank{r,          ids.regions,   ids.comms,        ids.windows,
                         ids.groups, ids.files,     in.ids.world,     *x.timer,
                         clock,      in.attributes, in.shmem_regions, x.walked.get(),
                         ids.team,   omp_nesting,   waiting};
  constexpr size_t kChunk = 1 << 16;
  std::vector<RawEvent> chunk(kChunk);
  // One stream per thread: the thread that initialised MPI, then the others by index.
  for (size_t thread = 0; thread < x.locations.size(); ++thread) {
    const std::string path = thread == 0 ? RawEventsPath(in.dir, r)
                                         : RawThreadEventsPath(in.dir, r, static_cast<int>(thread));
    ExportStream(path, thread > 0, rank, *x.writers[thread], chunk, x.min_time, x.summary);
    if (x.written) x.written = archive.CloseEvents(x.locations[thread]);
  }
  x.walked.reset();  // its paths are no longer needed
}

// Adds a rank's summary to the whole trace's.
void Merge(ExportSummary&& rank, ExportSummary& all) {
  all.events += rank.events;
  all.raw_bytes += rank.raw_bytes;
  all.truncated_bytes += rank.truncated_bytes;
  all.closed_regions += rank.closed_regions;
  all.unrecorded_calls += rank.unrecorded_calls;
  all.reused_thread_slots += rank.reused_thread_slots;
  all.unbalanced_regions += rank.unbalanced_regions;
  all.openmp_serial_teams += rank.openmp_serial_teams;
  all.openmp_solo_locks += rank.openmp_solo_locks;
  all.flushes += rank.flushes;
  all.flush_nanoseconds += rank.flush_nanoseconds;
  all.samples += rank.samples;
  all.lost_samples += rank.lost_samples;
  all.samples_inside_regions += rank.samples_inside_regions;
  all.walks += rank.walks;
  all.walk_nanoseconds += rank.walk_nanoseconds;
  all.sample_nanoseconds += rank.sample_nanoseconds;
  all.lost |= rank.lost;
  all.invalid_records += rank.invalid_records;
  for (auto& [module, functions] : rank.unnamed_functions)
    all.unnamed_functions[module].insert(functions.begin(), functions.end());
  for (std::string& problem : rank.problems) all.problems.push_back(std::move(problem));
  for (RankEnding& ending : rank.endings) all.endings.push_back(std::move(ending));
}

// Every raw event file of the run: each rank's, one per thread.
std::vector<std::string> EventFiles(const std::string& dir, const ArchiveIds& ids) {
  std::vector<std::string> paths;
  for (size_t r = 0; r < ids.ranks.size(); ++r) {
    const int rank = static_cast<int>(r);
    for (size_t thread = 0; thread < ids.ranks[r].locations.size(); ++thread) {
      paths.push_back(thread == 0 ? RawEventsPath(dir, rank)
                                  : RawThreadEventsPath(dir, rank, static_cast<int>(thread)));
    }
  }
  return paths;
}

// The most members a group of the archive can have: every location (the locations group),
// every world rank, or the largest MPI group a rank recorded.
uint64_t LargestGroup(const std::vector<RankDefs>& defs) {
  uint64_t locations = 0;
  uint64_t largest = defs.size();
  for (const RankDefs& d : defs) {
    locations += static_cast<uint64_t>(std::max(d.threads, 1));
    largest = std::max<uint64_t>(largest, static_cast<uint64_t>(std::max(d.size, 0)));
    for (const internal::GroupDef& g : d.groups)
      largest = std::max<uint64_t>(largest, g.ranks.size());
  }
  return std::max(largest, locations);
}

}  // namespace

Result<ExportSummary> ExportRawTrace(const std::string& dir) {
  return ExportRawTrace(dir, DefaultThreadCount());
}

Result<ExportSummary> ExportRawTrace(const std::string& dir, unsigned threads) {
  CW_ASSIGN_OR_RETURN(std::vector<RankDefs> defs, ReadAllDefs(dir, threads));
  otf2_writer::ArchiveWriter::Buffering buffering;
  buffering.definition_chunk_bytes =
      otf2_writer::ArchiveWriter::DefinitionChunkBytes(LargestGroup(defs));
  CW_ASSIGN_OR_RETURN(auto archive,
                      otf2_writer::ArchiveWriter::Create(dir, "traces", "causeway", buffering));
  ExportSummary summary;
  summary.anchor = archive->anchor_path();
  summary.ranks = static_cast<uint32_t>(defs.size());
  elf::ModuleCache modules;
  NameRanksOmpRegions(dir, defs, modules);
  const ArchiveIds ids = DefineArchive(*archive, defs);
  const EventAttributes attributes = DefineEventAttributes(*archive);
  const RankClocks clocks(defs, dir);
  // The archive's definitions, which preparing a rank adds to while others are written.
  std::mutex definitions;
  ShmemRegions shmem_regions(*archive, definitions);
  shmem_regions.DefineEntered(EventFiles(dir, ids), threads);
  internal::FunctionRegions function_regions(*archive);
  const ExportInputs inputs{dir,        defs,          ids,     clocks,
                            attributes, shmem_regions, modules, function_regions};

  std::vector<RankExport> ranks(defs.size());
  for (size_t r = 0; r < defs.size(); ++r)
    CreateWriters(static_cast<int>(r), inputs, *archive, ranks[r]);
  // Ranks are prepared in rank order, one at a time, while the ranks prepared before are
  // written: a task first prepares every rank up to its own not prepared yet.
  size_t prepared = 0;
  ParallelFor(ranks.size(), threads, [&](size_t r) {
    {
      std::lock_guard<std::mutex> lock(definitions);
      for (; prepared <= r; ++prepared)
        PrepareRank(static_cast<int>(prepared), inputs, ranks[prepared]);
    }
    WriteRank(static_cast<int>(r), inputs, *archive, ranks[r]);
  });
  uint64_t min_time = ~uint64_t{0};
  for (RankExport& rank : ranks) {
    CW_RETURN_IF_ERROR(rank.written);
    Merge(std::move(rank.summary), summary);
    min_time = std::min(min_time, rank.min_time);
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
