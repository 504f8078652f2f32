// Raw files of a traced run written by hand, for the exporter's tests (measure/raw/raw_format.h).
#pragma once

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "measure/raw/raw_format.h"
#include "testing/temp_dir.h"

namespace cw::test {

inline constexpr uint32_t kMain = measure::kProgramRegion;
constexpr uint32_t Region(measure::MpiFunction f) { return static_cast<uint32_t>(f); }

inline measure::RawEvent Event(uint64_t t, measure::RawKind kind, uint32_t a = 0, uint32_t b = 0,
                               uint32_t c = 0, uint64_t x = 0, uint64_t y = 0) {
  return measure::RawEvent{t, kind, 0, 0, a, b, c, x, y};
}

// A raw run directory: DIR/raw/rank-<r>.defs and .events.
class RawRun {
 public:
  explicit RawRun(const std::string& name) : dir_(testing::MakeTempDir(name)) {
    std::filesystem::create_directories(dir_ + "/raw");
  }
  void Defs(int rank, const std::string& text) {
    std::ofstream(measure::RawDefsPath(dir_, rank)) << text;
  }
  void Events(int rank, const std::vector<measure::RawEvent>& events, size_t extra_bytes = 0) {
    std::ofstream out(measure::RawEventsPath(dir_, rank), std::ios::binary);
    out.write(reinterpret_cast<const char*>(events.data()),
              static_cast<std::streamsize>(events.size() * sizeof(measure::RawEvent)));
    for (size_t i = 0; i < extra_bytes; ++i) out.put('\x7f');
  }
  void ThreadEvents(int rank, int thread, const std::vector<measure::RawEvent>& events) {
    std::ofstream out(measure::RawThreadEventsPath(dir_, rank, thread), std::ios::binary);
    out.write(reinterpret_cast<const char*>(events.data()),
              static_cast<std::streamsize>(events.size() * sizeof(measure::RawEvent)));
  }
  const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

inline std::string RankDefs(int rank, int size) {
  return "rank " + std::to_string(rank) + " " + std::to_string(size) +
         " node1\ntimer monotonic\ncomm 0 0 world\n";
}

// Rank 1 enters MPI_Recv at 1500 ns; rank 0 enters MPI_Send at 2000 ns: a Late Sender of 500 ns.
inline void WriteLateSender(RawRun& run) {
  run.Defs(0, RankDefs(0, 2) + "end 5 0 0 0 ok\n");
  run.Defs(1, RankDefs(1, 2) + "end 5 0 0 0 ok\n");
  run.Events(0, {Event(1000, measure::RawKind::kEnter, kMain),
                 Event(2000, measure::RawKind::kEnter, Region(measure::MpiFunction::kMPI_Send)),
                 Event(2100, measure::RawKind::kSend, 0, 1, 5, 8),
                 Event(2200, measure::RawKind::kLeave, Region(measure::MpiFunction::kMPI_Send)),
                 Event(3000, measure::RawKind::kLeave, kMain)});
  run.Events(1, {Event(1000, measure::RawKind::kEnter, kMain),
                 Event(1500, measure::RawKind::kEnter, Region(measure::MpiFunction::kMPI_Recv)),
                 Event(2500, measure::RawKind::kRecv, 0, 0, 5, 8),
                 Event(2600, measure::RawKind::kLeave, Region(measure::MpiFunction::kMPI_Recv)),
                 Event(3000, measure::RawKind::kLeave, kMain)});
}

}  // namespace cw::test
