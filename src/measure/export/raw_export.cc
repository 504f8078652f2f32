#include "measure/export/raw_export.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <utility>

#include "measure/raw/raw_format.h"
#include "otf2_writer/archive_writer.h"

namespace cw::measure {
namespace {

// The id the tracer gives MPI_COMM_SELF (each rank's own: never unified across ranks, since
// its members differ).
constexpr long long kSelfCommId = -2;

struct CommDef {
  uint32_t local = 0;
  long long global = -1;
  bool world = false;
  std::vector<uint64_t> ranks;  // world ranks in communicator rank order
};

struct WindowDef {
  uint32_t local = 0;
  long long global = -1;
  uint32_t comm = 0;  // local communicator id
  // An OpenSHMEM active set's window (global and comm unused): the world ranks of its PEs.
  bool shmem = false;
  std::vector<uint64_t> pes;
};

struct GroupDef {
  uint32_t local = 0;
  std::vector<uint64_t> ranks;  // world ranks
};

struct ClockPoint {
  long long local = 0;
  long long offset = 0;  // this rank's clock minus rank 0's
};

struct TimerPoint {
  uint64_t ticks = 0;
  uint64_t ns = 0;
};

// Bounds that no real run reaches: definitions beyond them are damaged, not believed (a corrupt
// count must not become a huge allocation).
constexpr int kMaxRanks = 1 << 22;
constexpr uint32_t kMaxLocalComms = 1 << 20;
constexpr uint32_t kMaxUserRegions = 1 << 24;
constexpr uint32_t kUndefinedRegion = 0xFFFFFFFFu;  // a region index no definition names

struct RankDefs {
  bool present = false;
  std::vector<std::string> problems;    // damaged lines, skipped
  bool tsc = false;                     // events are stamped with the time-stamp counter
  std::vector<TimerPoint> calibration;  // (counter, CLOCK_MONOTONIC) pairs
  int size = 0;
  std::string host = "localhost";
  std::vector<CommDef> comms;
  std::vector<WindowDef> windows;
  std::vector<GroupDef> groups;
  std::vector<ClockPoint> clock;  // init, then finalize
  std::string ending = "no end";
  std::vector<std::pair<uint32_t, std::string>> regions;  // user regions: local id, name
  uint64_t unbalanced_regions = 0;
  uint64_t unrecorded = 0, flushes = 0, flush_ns = 0;
  bool lost = false;
  int threads = 1;  // the thread that initialised MPI and the others that recorded
};

RankDefs ReadDefs(const std::string& path) {
  RankDefs d;
  std::ifstream in(path);
  if (!in) return d;
  d.present = true;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string key;
    words >> key;
    auto damaged = [&] { d.problems.push_back(path + ": damaged line \"" + line + "\""); };
    if (key == "rank") {
      int rank = 0;
      if (!(words >> rank >> d.size >> d.host) || d.size <= 0 || d.size > kMaxRanks) {
        d.size = 0;
        damaged();
      }
    } else if (key == "comm") {
      CommDef c;
      std::string third;
      bool ok =
          static_cast<bool>(words >> c.local >> c.global >> third) && c.local < kMaxLocalComms;
      if (ok && third == "world") {
        c.world = true;
      } else if (ok) {
        const uint64_t n = std::strtoull(third.c_str(), nullptr, 10);
        ok = n > 0 && d.size > 0 && n <= static_cast<uint64_t>(d.size);
        for (uint64_t i = 0; ok && i < n; ++i) {
          uint64_t r = 0;
          ok = static_cast<bool>(words >> r) && r < static_cast<uint64_t>(d.size);
          c.ranks.push_back(r);
        }
      }
      if (!ok) {
        damaged();  // its events fall back to MPI_COMM_WORLD
        continue;
      }
      if (d.comms.size() <= c.local) d.comms.resize(c.local + 1);
      d.comms[c.local] = std::move(c);
    } else if (key == "win") {
      WindowDef w;
      if (!(words >> w.local >> w.global >> w.comm) || w.local >= kMaxLocalComms) {
        damaged();  // its events are left out
        continue;
      }
      if (d.windows.size() <= w.local) d.windows.resize(w.local + 1);
      d.windows[w.local] = w;
    } else if (key == "shmem_win") {
      WindowDef w;
      w.shmem = true;
      long long start = 0, log_stride = 0, size = 0;
      bool ok = static_cast<bool>(words >> w.local >> start >> log_stride >> size) &&
                w.local < kMaxLocalComms && start >= 0 && log_stride >= 0 && log_stride <= 30 &&
                size > 0 && d.size > 0 && start + (size - 1) * (1LL << log_stride) < d.size;
      for (long long i = 0; ok && i < size; ++i)
        w.pes.push_back(static_cast<uint64_t>(start + i * (1LL << log_stride)));
      if (!ok) {
        damaged();  // its events are left out
        continue;
      }
      if (d.windows.size() <= w.local) d.windows.resize(w.local + 1);
      d.windows[w.local] = std::move(w);
    } else if (key == "group") {
      GroupDef g;
      uint64_t n = 0;
      bool ok = static_cast<bool>(words >> g.local >> n) && g.local < kMaxLocalComms && n > 0 &&
                d.size > 0 && n <= static_cast<uint64_t>(d.size);
      for (uint64_t i = 0; ok && i < n; ++i) {
        uint64_t r = 0;
        ok = static_cast<bool>(words >> r) && r < static_cast<uint64_t>(d.size);
        g.ranks.push_back(r);
      }
      if (!ok) {
        damaged();
        continue;
      }
      if (d.groups.size() <= g.local) d.groups.resize(g.local + 1);
      d.groups[g.local] = std::move(g);
    } else if (key == "region") {
      uint32_t id = 0;
      std::string name;
      if (words >> id && id > kProgramRegion && id - kProgramRegion <= kMaxUserRegions) {
        std::getline(words >> std::ws, name);
        d.regions.emplace_back(id, name);
      } else {
        damaged();
      }
    } else if (key == "unbalanced_regions") {
      words >> d.unbalanced_regions;
    } else if (key == "timer") {
      std::string kind;
      words >> kind;
      d.tsc = kind == "tsc";
    } else if (key == "tick") {
      TimerPoint p;
      if (words >> p.ticks >> p.ns) d.calibration.push_back(p);
    } else if (key == "clock") {
      std::string label;
      ClockPoint p;
      if (words >> label >> p.local >> p.offset) d.clock.push_back(p);
    } else if (key == "end") {
      uint64_t events = 0;
      std::string status;
      words >> events >> d.unrecorded >> d.flushes >> d.flush_ns >> status;
      d.lost = status == "lost";
      d.ending = "finalized";
    } else if (key == "thread") {
      int index = 0;
      if (words >> index && index > 0 && index < kMaxThreads) {
        d.threads = std::max(d.threads, index + 1);
      } else {
        damaged();
      }
    } else if (key == "thread_end") {
      int index = 0;
      uint64_t events = 0, flushes = 0, flush_ns = 0;
      std::string status;
      if (words >> index >> events >> flushes >> flush_ns >> status) {
        d.flushes += flushes;
        d.flush_ns += flush_ns;
        d.lost |= status == "lost";
      } else {
        damaged();
      }
    } else if (key == "signal" || key == "abort" || key == "exit") {
      d.ending = line;
    }
  }
  return d;
}

// Maps a rank's time-stamp counter values to CLOCK_MONOTONIC nanoseconds: the line through its
// first and last calibration point (the counter runs at a constant rate).
class TimerMap {
 public:
  TimerMap() = default;
  TimerMap(TimerPoint origin, double ns_per_tick) : origin_(origin), ns_per_tick_(ns_per_tick) {}
  static bool Slope(const std::vector<TimerPoint>& points, double* ns_per_tick) {
    if (points.size() < 2 || points.back().ticks <= points.front().ticks) return false;
    *ns_per_tick = static_cast<double>(points.back().ns - points.front().ns) /
                   static_cast<double>(points.back().ticks - points.front().ticks);
    return true;
  }
  uint64_t operator()(uint64_t ticks) const {
    if (ns_per_tick_ == 0) return ticks;  // already nanoseconds
    const double delta =
        (static_cast<double>(ticks) - static_cast<double>(origin_.ticks)) * ns_per_tick_;
    const double ns = static_cast<double>(origin_.ns) + delta;
    return ns <= 0 ? 0 : static_cast<uint64_t>(ns + 0.5);
  }

 private:
  TimerPoint origin_;
  double ns_per_tick_ = 0;
};

// Maps a rank's clock to rank 0's: the offset interpolated linearly between the measurements.
class ClockMap {
 public:
  explicit ClockMap(const std::vector<ClockPoint>& points) : points_(points) {}
  uint64_t operator()(uint64_t t) const {
    if (points_.empty()) return t;
    const ClockPoint& a = points_.front();
    if (points_.size() == 1 || points_.back().local == a.local) return Shift(t, a.offset);
    const ClockPoint& b = points_.back();
    const double slope =
        static_cast<double>(b.offset - a.offset) / static_cast<double>(b.local - a.local);
    const double offset = static_cast<double>(a.offset) +
                          slope * (static_cast<double>(t) - static_cast<double>(a.local));
    return Shift(t, static_cast<long long>(offset));
  }

 private:
  static uint64_t Shift(uint64_t t, long long offset) {
    long long v = static_cast<long long>(t) - offset;
    return v < 0 ? 0 : static_cast<uint64_t>(v);
  }
  std::vector<ClockPoint> points_;
};

}  // namespace

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
};

// Writes the raw events file `path` of one of the rank's threads (`thread`: not the one that
// initialised MPI) as the events of `out`, counting into `summary`.
void ExportStream(const std::string& path, bool thread, const RankContext& rank,
                  otf2_writer::EventWriter& out, std::vector<RawEvent>& chunk, uint64_t& min_time,
                  ExportSummary& summary) {
  std::vector<uint32_t> open;  // regions entered and not left
  uint64_t last = 0;
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
      const uint64_t t = std::max(rank.clock(rank.timer(e.time)), last);
      last = t;
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
  // User regions, unified by name; per rank, its local ids mapped to them.
  std::map<std::string, uint32_t> user_regions;
  std::vector<std::vector<uint32_t>> region_of(static_cast<size_t>(ranks), region_ids);
  for (int r = 0; r < ranks; ++r) {
    for (const auto& [local, name] : defs[static_cast<size_t>(r)].regions) {
      auto [it, inserted] = user_regions.try_emplace(name, 0);
      if (inserted) {
        it->second = archive->DefineRegion(name, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER);
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
  std::vector<std::vector<uint32_t>> comm_of(static_cast<size_t>(ranks));
  for (int r = 0; r < ranks; ++r) {
    for (const CommDef& c : defs[static_cast<size_t>(r)].comms) {
      uint32_t id = world;
      if (!c.world) {
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
  CW_RETURN_IF_ERROR(archive->Close(1'000'000'000, min_time));
  return summary;
}

}  // namespace cw::measure
