// The definitions file of one rank of a raw trace (raw_format.h), as the exporter reads it, and
// the maps that move the rank's timestamps onto rank 0's clock (private to measure/export).
#pragma once

#include <climits>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace cw::measure::internal {

// The id the tracer gives MPI_COMM_SELF (each rank's own: never unified across ranks, since
// its members differ).
constexpr long long kSelfCommId = -2;

struct CommDef {
  uint32_t local = 0;
  long long global = -1;
  bool world = false;
  std::vector<uint64_t> ranks;  // world ranks in communicator rank order
  // An inter-communicator: `ranks` is the local group, `remote` the other one.
  bool inter = false;
  std::vector<uint64_t> remote;
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

// An MPI file handle: the file's name ("" if its open was not seen) and the local id of the
// communicator that opened it (-1: unknown).
struct FileDef {
  long long comm = -1;
  std::string name;
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

// A calling-context node of the tracer's walked call paths: a return address under its parent
// (0: the outermost frame).
struct FrameDef {
  uint32_t parent = 0;
  uint64_t pc = 0;
};
constexpr uint32_t kMaxFrameDefs = 1u << 20;  // as the tracer bounds its tree (kMaxCallingContexts)

// kFileIo: the tracer's marker of write system calls before an MPI_Barrier (write_calls.h).
enum class UserRegionRole : uint8_t { kRegion, kLoop, kIteration, kFileIo };

// An OpenMP construct's region ("omp_region"): the raw region id, the construct's token and the
// address in the program that encountered it; `name` is given by NameOmpRegions (openmp.h).
struct OmpRegionDef {
  uint32_t local = 0;
  std::string construct;
  uint64_t pc = 0;
  std::string name;
};

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
  std::vector<FileDef> files;     // by local id
  std::vector<ClockPoint> clock;  // init, then finalize
  std::string ending = "no end";
  std::vector<std::pair<uint32_t, std::string>> regions;  // user regions: local id, name
  // User regions that are not plain regions: a loop (causeway_loop_begin) or a loop's
  // iteration marker (causeway_loop_iteration), by local id.
  std::map<uint32_t, UserRegionRole> region_roles;
  std::vector<OmpRegionDef> omp_regions;  // OpenMP's constructs (their threads form teams)
  std::vector<FrameDef> frames;           // calling-context nodes, by id - 1
  // Shell patterns of modules whose frames are folded into the outermost one of each run
  // (causeway trace --fold).
  std::vector<std::string> fold;
  uint64_t walks_truncated = 0;  // walks deeper than the depth kept
  uint64_t walks_cut_short = 0;  // paths that ended early: the tree was full
  uint64_t walks = 0;            // stack walks at calls, and the timer units they took
  uint64_t walk_ticks = 0;
  uint64_t samples_taken = 0;   // stack samples of the rank's threads
  uint64_t samples_lost = 0;    // dropped: a thread's buffer was full
  uint64_t samples_ns = 0;      // what taking and writing them cost
  uint64_t samples_inside = 0;  // left out: inside a user region or instrumented function
  // The computation that spans between two samples covered, and the part of it the threads were
  // runnable without a CPU (sampling.h; -1: unknown).
  int64_t computation_measured_ns = -1;
  int64_t computation_descheduled_ns = -1;
  // Where it ran (measure/core/scheduling.h): the CPUs it may run on and the node's (0 if not
  // recorded), what its main thread ran and waited for a CPU, and the node's CPU time and the
  // part of it a hypervisor stole meanwhile (-1 if unknown).
  int cpus_allowed = 0;
  int cpus_online = 0;
  int64_t ran_ns = -1;
  int64_t waited_ns = -1;
  int64_t node_ns = -1;
  int64_t node_stolen_ns = -1;
  uint64_t unbalanced_regions = 0;
  uint64_t reused_thread_slots = 0;  // threads that took the location of one that had ended
  uint64_t openmp_serial_teams = 0;  // OpenMP teams of one thread, not recorded
  uint64_t openmp_solo_locks = 0;    // lock acquisitions of a process with one OpenMP thread
  bool size_limited = false;         // stopped recording at its share of the size limit
  uint64_t size_limit_bytes = 0;     // its share
  uint64_t size_limit_time = 0;      // its timer when the share was spent (0: unknown)
  uint64_t unrecorded = 0, flushes = 0, flush_ns = 0;
  bool lost = false;
  int threads = 1;  // the thread that initialised MPI and the others that recorded
};

// Reads `path`; damaged lines are skipped and listed in `problems`, a missing file leaves
// `present` false.
RankDefs ReadDefs(const std::string& path);

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
    // A damaged counter value can map beyond what 64 bits hold (and NaN fails both tests).
    if (!(ns > 0)) return 0;
    return ns >= 0x1p64 ? UINT64_MAX : static_cast<uint64_t>(ns + 0.5);
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
    // In doubles: damaged measurements may lie anywhere in 64 bits.
    const double slope = (static_cast<double>(b.offset) - static_cast<double>(a.offset)) /
                         (static_cast<double>(b.local) - static_cast<double>(a.local));
    const double offset = static_cast<double>(a.offset) +
                          slope * (static_cast<double>(t) - static_cast<double>(a.local));
    if (!(offset > -0x1p63)) return Shift(t, offset < 0 ? LLONG_MIN : 0);  // also NaN
    return Shift(t, offset >= 0x1p63 ? LLONG_MAX : static_cast<long long>(offset));
  }

 private:
  // t - offset, kept within 0 and UINT64_MAX.
  static uint64_t Shift(uint64_t t, long long offset) {
    if (offset >= 0) {
      const uint64_t back = static_cast<uint64_t>(offset);
      return t > back ? t - back : 0;
    }
    const uint64_t forward = static_cast<uint64_t>(-(offset + 1)) + 1;  // |offset|, no overflow
    return t > UINT64_MAX - forward ? UINT64_MAX : t + forward;
  }
  std::vector<ClockPoint> points_;
};

}  // namespace cw::measure::internal
