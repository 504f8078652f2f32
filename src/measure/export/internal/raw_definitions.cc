#include "measure/export/internal/raw_definitions.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>

#include "measure/export/internal/openmp.h"
#include "measure/raw/raw_format.h"

namespace cw::measure::internal {

namespace {

using Words = std::istringstream;

// `n` world ranks below the run's size into `ranks`; false if the line does not hold them.
// `n` ranks below `size`; none only where `empty_allowed` (a process group may be empty, as
// MPI_GROUP_EMPTY is; a communicator may not).
bool ReadRanks(Words& words, uint64_t n, int size, std::vector<uint64_t>& ranks,
               bool empty_allowed = false) {
  if ((n == 0 && !empty_allowed) || size <= 0 || n > static_cast<uint64_t>(size)) return false;
  for (uint64_t i = 0; i < n; ++i) {
    uint64_t r = 0;
    if (!(words >> r) || r >= static_cast<uint64_t>(size)) return false;
    ranks.push_back(r);
  }
  return true;
}

// Puts a definition at its local id, growing the table as needed.
template <typename T>
void Put(std::vector<T>& table, uint32_t local, T value) {
  if (table.size() <= local) table.resize(local + 1);
  table[local] = std::move(value);
}

// Each parser reads the words after the line's key; false means a damaged line, whose
// definition is left out (its events fall back to MPI_COMM_WORLD, or are left out too).
bool ParseRank(Words& words, RankDefs& d) {
  int rank = 0;
  if (!(words >> rank >> d.size >> d.host) || d.size <= 0 || d.size > kMaxRanks) {
    d.size = 0;
    return false;
  }
  return true;
}

bool ParseComm(Words& words, RankDefs& d) {
  CommDef c;
  std::string third;
  if (!(words >> c.local >> c.global >> third) || c.local >= kMaxLocalComms) return false;
  if (third == "world") {
    c.world = true;
  } else if (!ReadRanks(words, std::strtoull(third.c_str(), nullptr, 10), d.size, c.ranks)) {
    return false;
  }
  Put(d.comms, c.local, std::move(c));
  return true;
}

bool ParseInterComm(Words& words, RankDefs& d) {
  CommDef c;
  c.inter = true;
  if (!(words >> c.local >> c.global) || c.local >= kMaxLocalComms || d.size <= 0) return false;
  for (std::vector<uint64_t>* group : {&c.ranks, &c.remote}) {
    uint64_t n = 0;
    if (!(words >> n) || !ReadRanks(words, n, d.size, *group)) return false;
  }
  Put(d.comms, c.local, std::move(c));
  return true;
}

bool ParseWindow(Words& words, RankDefs& d) {
  WindowDef w;
  if (!(words >> w.local >> w.global >> w.comm) || w.local >= kMaxLocalComms) return false;
  Put(d.windows, w.local, std::move(w));
  return true;
}

bool ParseShmemWindow(Words& words, RankDefs& d) {
  WindowDef w;
  w.shmem = true;
  long long start = 0, log_stride = 0, size = 0;
  const bool ok = static_cast<bool>(words >> w.local >> start >> log_stride >> size) &&
                  w.local < kMaxLocalComms && start >= 0 && log_stride >= 0 && log_stride <= 30 &&
                  size > 0 && d.size > 0 && start + (size - 1) * (1LL << log_stride) < d.size;
  if (!ok) return false;
  for (long long i = 0; i < size; ++i)
    w.pes.push_back(static_cast<uint64_t>(start + i * (1LL << log_stride)));
  Put(d.windows, w.local, std::move(w));
  return true;
}

bool ParseGroup(Words& words, RankDefs& d) {
  GroupDef g;
  uint64_t n = 0;
  if (!(words >> g.local >> n) || g.local >= kMaxLocalComms ||
      !ReadRanks(words, n, d.size, g.ranks, /*empty_allowed=*/true)) {
    return false;
  }
  Put(d.groups, g.local, std::move(g));
  return true;
}

bool ParseFile(Words& words, RankDefs& d) {
  uint32_t local = 0;
  FileDef f;
  if (!(words >> local >> f.comm) || local >= kMaxLocalComms) return false;
  std::getline(words >> std::ws, f.name);
  Put(d.files, local, std::move(f));
  return true;
}

bool ParseRegion(Words& words, RankDefs& d) {
  uint32_t id = 0;
  if (!(words >> id) || id <= kProgramRegion || id - kProgramRegion > kMaxUserRegions) return false;
  std::string name;
  std::getline(words >> std::ws, name);
  d.regions.emplace_back(id, name);
  return true;
}

bool ParseOmpRegion(Words& words, RankDefs& d) {
  OmpRegionDef r;
  if (!(words >> r.local >> r.construct >> std::hex >> r.pc) || r.local <= kProgramRegion ||
      r.local - kProgramRegion > kMaxUserRegions || !IsOmpConstruct(r.construct)) {
    return false;
  }
  d.omp_regions.push_back(std::move(r));
  return true;
}

bool ParseRegionRole(Words& words, RankDefs& d) {
  uint32_t id = 0;
  std::string role;
  if (!(words >> id >> role) || (role != "loop" && role != "iteration" && role != "file_io")) {
    return false;
  }
  d.region_roles[id] = role == "loop"        ? UserRegionRole::kLoop
                       : role == "iteration" ? UserRegionRole::kIteration
                                             : UserRegionRole::kFileIo;
  return true;
}

// Keeps calling-context node `id` (from 1; its parent a node before it, 0 for none); false if
// the numbers cannot be a node's.
bool PutFrame(uint32_t id, const FrameDef& f, RankDefs& d) {
  if (id == 0 || id > kMaxFrameDefs || f.parent >= id) return false;
  Put(d.frames, id - 1, f);
  return true;
}

bool ParseFrame(Words& words, RankDefs& d) {
  uint32_t id = 0;
  FrameDef f;
  if (!(words >> id >> f.parent >> std::hex >> f.pc)) return false;
  return PutFrame(id, f, d);
}

bool ParseWalks(Words& words, RankDefs& d) {
  if (!(words >> d.walks_truncated >> d.walks_cut_short)) return false;
  words >> d.walks >> d.walk_ticks;  // (not in traces of the first version of walks)
  return true;
}

bool ParseSamples(Words& words, RankDefs& d) {
  if (!(words >> d.samples_taken >> d.samples_lost >> d.samples_ns)) return false;
  // Not in traces of the first versions of samples:
  words >> d.samples_inside;
  int64_t measured = -1, descheduled = -1;
  if (words >> measured >> descheduled && measured >= 0 && descheduled >= 0 &&
      descheduled <= measured) {
    d.computation_measured_ns = measured;
    d.computation_descheduled_ns = descheduled;
  }
  return true;
}

// The node's figures came later: a line without them keeps them unknown.
bool ParseScheduling(Words& words, RankDefs& d) {
  if (!(words >> d.cpus_allowed >> d.cpus_online >> d.ran_ns >> d.waited_ns)) return false;
  int64_t node = -1, stolen = -1;
  if (words >> node >> stolen) {
    d.node_ns = node;
    d.node_stolen_ns = stolen;
  }
  return true;
}

bool ParseThread(Words& words, RankDefs& d) {
  int index = 0;
  if (!(words >> index) || index <= 0 || index >= kMaxThreads) return false;
  d.threads = std::max(d.threads, index + 1);
  return true;
}

bool ParseThreadEnd(Words& words, RankDefs& d) {
  int index = 0;
  uint64_t events = 0, flushes = 0, flush_ns = 0;
  std::string status;
  if (!(words >> index >> events >> flushes >> flush_ns >> status)) return false;
  d.flushes += flushes;
  d.flush_ns += flush_ns;
  d.lost |= status == "lost";
  return true;
}

// The lines about the run rather than its objects: timer, calibration, clock offsets, the end.
// Never damaged: what does not parse is left out.
void ParseRunLine(const std::string& key, const std::string& line, Words& words, RankDefs& d) {
  if (key == "unbalanced_regions") {
    words >> d.unbalanced_regions;
  } else if (key == "size_limit") {
    words >> d.size_limit_bytes >> d.size_limit_time;
    d.size_limited = true;
  } else if (key == "fold") {
    if (line.size() > 5) d.fold.push_back(line.substr(5));
  } else if (key == "reused_thread_slots") {
    words >> d.reused_thread_slots;
  } else if (key == "openmp_serial") {
    words >> d.openmp_serial_teams >> d.openmp_solo_locks;
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
  } else if (key == "signal" || key == "abort" || key == "exit" || key == "fatal") {
    d.ending = line;
  }
}

// False for a damaged line; unknown keys are ignored.
bool ParseLine(const std::string& key, const std::string& line, Words& words, RankDefs& d) {
  using Parser = bool (*)(Words&, RankDefs&);
  static const std::map<std::string, Parser> kParsers = {{"rank", ParseRank},
                                                         {"comm", ParseComm},
                                                         {"intercomm", ParseInterComm},
                                                         {"win", ParseWindow},
                                                         {"shmem_win", ParseShmemWindow},
                                                         {"group", ParseGroup},
                                                         {"file", ParseFile},
                                                         {"region", ParseRegion},
                                                         {"region_role", ParseRegionRole},
                                                         {"omp_region", ParseOmpRegion},
                                                         {"thread", ParseThread},
                                                         {"frame", ParseFrame},
                                                         {"walks", ParseWalks},
                                                         {"samples", ParseSamples},
                                                         {"sched", ParseScheduling},
                                                         {"thread_end", ParseThreadEnd}};
  auto parser = kParsers.find(key);
  if (parser != kParsers.end()) return parser->second(words, d);
  ParseRunLine(key, line, words, d);
  return true;
}

// A "frame ID PARENT PC" line, most of a rank's definitions when its calls are walked (tens of
// thousands in CP2K), read without a string stream; false leaves the line, whatever is unusual
// in it, to the general way (ParseFrame), which reads the same from a line written as the tracer
// writes it.
bool ReadFrameLine(const std::string& line, RankDefs& d) {
  if (line.compare(0, 6, "frame ") != 0) return false;
  const char* end = line.data() + line.size();
  uint32_t id = 0;
  FrameDef f;
  const auto at_id = std::from_chars(line.data() + 6, end, id);
  if (at_id.ec != std::errc() || at_id.ptr == end || *at_id.ptr != ' ') return false;
  const auto at_parent = std::from_chars(at_id.ptr + 1, end, f.parent);
  if (at_parent.ec != std::errc() || at_parent.ptr == end || *at_parent.ptr != ' ') return false;
  const auto at_pc = std::from_chars(at_parent.ptr + 1, end, f.pc, 16);
  if (at_pc.ec != std::errc() || at_pc.ptr != end) return false;
  return PutFrame(id, f, d);  // a damaged node goes the general way too, which reports it
}

}  // namespace

RankDefs ReadDefs(const std::string& path) {
  RankDefs d;
  std::ifstream in(path);
  if (!in) return d;
  d.present = true;
  std::string line;
  while (std::getline(in, line)) {
    if (ReadFrameLine(line, d)) continue;
    Words words(line);
    std::string key;
    words >> key;
    if (!ParseLine(key, line, words, d)) {
      d.problems.push_back(path + ": damaged line \"" + line + "\"");
    }
  }
  // A rank that stopped at the size limit and then finished normally ended its recording there.
  if (d.size_limited && d.ending == "finalized") {
    d.ending =
        "recording stopped at the size limit (" + std::to_string(d.size_limit_bytes) + " bytes)";
  }
  return d;
}

}  // namespace cw::measure::internal
