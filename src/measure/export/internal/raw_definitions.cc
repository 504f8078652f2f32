#include "measure/export/internal/raw_definitions.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "measure/raw/raw_format.h"

namespace cw::measure::internal {

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
    } else if (key == "intercomm") {
      CommDef c;
      c.inter = true;
      bool ok =
          static_cast<bool>(words >> c.local >> c.global) && c.local < kMaxLocalComms && d.size > 0;
      for (std::vector<uint64_t>* group : {&c.ranks, &c.remote}) {
        uint64_t n = 0;
        ok = ok && static_cast<bool>(words >> n) && n > 0 && n <= static_cast<uint64_t>(d.size);
        for (uint64_t i = 0; ok && i < n; ++i) {
          uint64_t r = 0;
          ok = static_cast<bool>(words >> r) && r < static_cast<uint64_t>(d.size);
          group->push_back(r);
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
    } else if (key == "file") {
      uint32_t local = 0;
      FileDef f;
      if (!(words >> local >> f.comm) || local >= kMaxLocalComms) {
        damaged();  // its events are left out
        continue;
      }
      std::getline(words >> std::ws, f.name);
      if (d.files.size() <= local) d.files.resize(local + 1);
      d.files[local] = std::move(f);
    } else if (key == "region") {
      uint32_t id = 0;
      std::string name;
      if (words >> id && id > kProgramRegion && id - kProgramRegion <= kMaxUserRegions) {
        std::getline(words >> std::ws, name);
        d.regions.emplace_back(id, name);
      } else {
        damaged();
      }
    } else if (key == "region_role") {
      uint32_t id = 0;
      std::string role;
      if (words >> id >> role && (role == "loop" || role == "iteration")) {
        d.region_roles[id] = role == "loop" ? UserRegionRole::kLoop : UserRegionRole::kIteration;
      } else {
        damaged();
      }
    } else if (key == "unbalanced_regions") {
      words >> d.unbalanced_regions;
    } else if (key == "size_limit") {
      words >> d.size_limit_bytes >> d.size_limit_time;
      d.size_limited = true;
    } else if (key == "reused_thread_slots") {
      words >> d.reused_thread_slots;
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
    } else if (key == "signal" || key == "abort" || key == "exit" || key == "fatal") {
      d.ending = line;
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
