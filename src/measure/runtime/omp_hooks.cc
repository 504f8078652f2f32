// OpenMP threads, recorded through OMPT, OpenMP 5's tool interface: libcauseway-mpi.so is a
// tool that any OMPT runtime (LLVM's libomp, which `causeway trace` also runs GCC's programs
// on) starts. Each thread of a team records into a log of its own (an OTF2 location of its
// rank), as Score-P records OpenMP:
//
//   encountering thread:  ThreadFork  ...                                   ThreadJoin
//   every team member:      ThreadTeamBegin  Enter !$omp parallel @f:l  ...  Leave  ThreadTeamEnd
//   barriers:               Enter !$omp [implicit ]barrier @f:l  Leave
//   critical sections:      Enter !$omp critical  ThreadAcquireLock  Enter !$omp critical sblock
//                           ... Leave sblock  ThreadReleaseLock  Leave critical
//   lock routines:          Enter omp_set_lock  ThreadAcquireLock  Leave; Enter omp_unset_lock
//                           ThreadReleaseLock  Leave
//   worksharing, single, master, ordered, taskwait: Enter/Leave of their regions.
//
// Constructs get one region per kind and code address ("omp_region" definitions); the exporter
// names them by the source line of that address. Tasks and task groups are not recorded yet.
//
// Teams of one thread (OMP_NUM_THREADS=1, num_threads(1): an OpenMP build run as a pure MPI
// program, as Debian's cp2k.popt is) are not recorded, nor what their thread does in them as
// the team (barriers, worksharing, single, master, ordered), nor such constructs outside any
// parallel region (the initial task's implicit team has one thread): nothing there can wait for
// another thread, and CP2K opens tens of thousands of such regions per rank, each a fork, a join,
// six records and a stack walk. Their time is their caller's; MPI calls inside are recorded as
// elsewhere. Locks and critical sections are the process's: they are not recorded either while
// the process has had one OpenMP thread only (no team asked for more, no second initial
// thread), when no acquisition can wait. `causeway trace --openmp-serial record`
// (CAUSEWAY_OPENMP_SERIAL=record) records them all; the rank counts what it left out.
//
// libomp tells a worker thread that the implicit barrier closing a parallel region has ended
// only when the thread is woken for the next region (or the runtime shuts down). The thread
// has recorded nothing since it entered the barrier, so the team's master writes the end of its
// workers' part when it leaves that barrier itself: the barrier ends for every thread when the
// last one arrived, and no worker stays in the team until the next parallel region.
#include <omp-tools.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "measure/runtime/hooks.h"
#include "measure/runtime/omp_gcc_entries.h"
#include "measure/runtime/recorder.h"
#include "measure/runtime/sampling.h"

namespace cw::measure::hook {
namespace {

// The constructs' regions, by the token their "omp_region" definition carries.
enum class Construct : uint8_t {
  kParallel,
  kImplicitBarrier,
  kBarrier,
  kCritical,
  kCriticalSblock,
  kLoop,
  kSections,
  kSingle,
  kMaster,
  kTaskwait,
  kOrdered,
  kOrderedSblock,
  kSetLock,
  kUnsetLock,
  kTestLock,
  kSetNestLock,
  kUnsetNestLock,
  kTestNestLock,
};
constexpr const char* kConstructTokens[] = {"parallel",
                                            "implicit_barrier",
                                            "barrier",
                                            "critical",
                                            "critical_sblock",
                                            "loop",
                                            "sections",
                                            "single",
                                            "master",
                                            "taskwait",
                                            "ordered",
                                            "ordered_sblock",
                                            "omp_set_lock",
                                            "omp_unset_lock",
                                            "omp_test_lock",
                                            "omp_set_nest_lock",
                                            "omp_unset_nest_lock",
                                            "omp_test_nest_lock"};

// A region entered and not left on this thread.
struct OpenRegion {
  uint32_t region;
  Construct construct;
  const void* code;
  // A single construct GCC's code executed: libomp never hears of its end (GCC calls nothing
  // there), so it ends when the thread's next OpenMP event begins, usually the implicit barrier
  // after it (GOMP_single_start, omp_gcc_entries.cc).
  bool end_unreported = false;
};

struct Team;

// What a thread keeps of OpenMP: its open regions and the teams it is in (innermost last),
// each with the depth of its parallel region among them.
struct OmpThread {
  EventLog* log = nullptr;
  std::vector<OpenRegion> open;
  struct Membership {
    Team* team;        // followed only by the team's master, while the team lives (parallel end)
    const void* code;  // the team's parallel construct
    size_t depth;      // of the team's parallel region in `open`
    bool master;
    bool serial;  // a team of one thread, not recorded
  };
  std::vector<Membership> teams;
  std::unordered_map<uint64_t, uint32_t> regions;  // the process's, as far as seen here
};

// A parallel region's team: where its construct is, and the workers that began their part in
// it (their records end when the master leaves the closing barrier). It lives from the
// parallel region's begin to its end on the encountering thread.
struct Team {
  const void* code = nullptr;
  std::mutex mutex;
  std::vector<OmpThread*> workers;
};

// Every team of one thread: not recorded (the top of this file); never deleted.
Team g_serial_team;

// Whether teams of one thread and solo locks are recorded (CAUSEWAY_OPENMP_SERIAL=record), set
// when the runtime starts the tool.
bool g_record_serial = false;
// True while the process has had one OpenMP thread only: no team asked for more than one
// thread, and the runtime began no second thread. It only ever turns false.
std::atomic<bool> g_solo{true};
std::atomic<int> g_openmp_threads{0};
// Whether a lock acquisition was left out (a release must then find its acquisition recorded).
std::atomic<bool> g_lock_left_out{false};

// Whether `kind` is a lock of the process that its acquisitions are recorded for: a critical
// section's or an OpenMP lock (not an ordered construct's, which is its team's, nor an atomic's).
bool ProcessLock(ompt_mutex_t kind) {
  return kind == ompt_mutex_critical || kind == ompt_mutex_lock || kind == ompt_mutex_nest_lock ||
         kind == ompt_mutex_test_lock || kind == ompt_mutex_test_nest_lock;
}

// Whether such a lock's acquisition (or release) now is left out.
bool LeaveOutLock() { return g_solo.load(std::memory_order_relaxed) && !g_record_serial; }

// Counts what is left out, while the rank records.
void CountLeftOut(std::atomic<uint64_t>& count) {
  const State& s = S();
  if (s.started.load(std::memory_order_relaxed) && !s.finished.load(std::memory_order_relaxed))
    count.fetch_add(1, std::memory_order_relaxed);
}

// initial-exec: the library is loaded at start-up, as recorder.cc's thread state.
__attribute__((tls_model("initial-exec"))) thread_local OmpThread* t_omp = nullptr;

std::mutex g_mutex;                                           // guards g_regions and g_locks
std::unordered_map<uint64_t, uint32_t>* g_regions = nullptr;  // never destroyed

// A lock of the process (a critical section's or an omp_lock_t): its id in the trace, how often
// it has been acquired, and the number of the current acquisition (from 1, as Score-P counts).
struct Lock {
  uint32_t id = 0;
  uint32_t acquisitions = 0;
  uint32_t current = 0;
  bool held = false;  // its last acquisition was recorded and not yet released
};
std::unordered_map<ompt_wait_id_t, Lock>* g_locks = nullptr;

// The calling thread's OpenMP state if it records, else nullptr.
OmpThread* Here() {
  if (!RecordingOpenMp()) return nullptr;
  if (t_omp == nullptr) {
    t_omp = new OmpThread();  // lives as long as the process: a master may close its records
    t_omp->log = T().log;
  }
  // What the thread computed since its last record comes before the OpenMP event it is about to
  // record, in time order (sampling.h): inside its parallel regions, on workers that never call
  // MPI.
  DrainSamples(T());
  return t_omp;
}

uint32_t RegionOf(OmpThread& t, Construct construct, const void* code) {
  const uint64_t key = (static_cast<uint64_t>(construct) << 56) ^ reinterpret_cast<uintptr_t>(code);
  if (auto it = t.regions.find(key); it != t.regions.end()) return it->second;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_regions == nullptr) g_regions = new std::unordered_map<uint64_t, uint32_t>();
  auto [it, inserted] = g_regions->try_emplace(key, 0);
  if (inserted) {
    State& s = S();
    it->second = s.next_region.fetch_add(1);
    char pc[32];
    std::snprintf(pc, sizeof pc, "%llx",
                  static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(code)));
    s.log.Define("omp_region " + std::to_string(it->second) + " " +
                 kConstructTokens[static_cast<int>(construct)] + " " + pc);
  }
  t.regions.emplace(key, it->second);
  return it->second;
}

// Leaves a single whose end goes unreported, if it is the innermost region.
void EndUnreported(OmpThread& t) {
  if (t.open.empty() || !t.open.back().end_unreported) return;
  Record(RawKind::kLeave, t.open.back().region);
  t.open.pop_back();
}

void Enter(OmpThread& t, Construct construct, const void* code) {
  EndUnreported(t);
  const uint32_t region = RegionOf(t, construct, code);
  Record(RawKind::kEnter, region);
  t.open.push_back(OpenRegion{region, construct, code});
}

// Leaves the innermost open region of `construct` in the thread's current team, and the regions
// still open inside it (whose end the runtime did not report). False if there is none (a
// callback whose begin was not recorded, before the measurement started, has nothing to leave).
bool Leave(OmpThread& t, Construct construct) {
  EndUnreported(t);
  // Above the team's parallel region (a team of one thread has none in `open`).
  const size_t floor = t.teams.empty() ? 0 : t.teams.back().depth + (t.teams.back().serial ? 0 : 1);
  size_t k = t.open.size();
  while (k > floor && t.open[k - 1].construct != construct) --k;
  if (k == floor) return false;
  while (t.open.size() >= k) {
    Record(RawKind::kLeave, t.open.back().region);
    t.open.pop_back();
  }
  return true;
}

const void* OpenCode(const OmpThread& t) { return t.open.empty() ? nullptr : t.open.back().code; }

// Whether the thread's innermost team is a team of one thread that is not recorded.
bool InSerialTeam(const OmpThread& t) { return !t.teams.empty() && t.teams.back().serial; }

// Whether the constructs the thread encounters now bind to a team of one thread, and are not
// recorded: in a parallel region asked for one thread, or outside any parallel region, where a
// barrier, single or worksharing construct binds to the initial task's implicit team, which
// never has another thread (CP2K runs tens of thousands of such orphaned constructs per rank).
bool InTeamOfOne(const OmpThread& t) {
  return t.teams.empty() ? !g_record_serial : t.teams.back().serial;
}

// Acquisition or release `lock` of the process's lock `wait_id`.
void LockRecord(RawKind kind, ompt_wait_id_t wait_id) {
  uint32_t id = 0;
  uint32_t order = 0;
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    if (g_locks == nullptr) g_locks = new std::unordered_map<ompt_wait_id_t, Lock>();
    auto [it, inserted] = g_locks->try_emplace(wait_id);
    if (inserted) it->second.id = static_cast<uint32_t>(g_locks->size() - 1);
    if (kind == RawKind::kThreadAcquireLock) it->second.current = ++it->second.acquisitions;
    it->second.held = kind == RawKind::kThreadAcquireLock;
    id = it->second.id;
    order = it->second.current;
  }
  Record(kind, id, 0, 0, 0, order);
}

// Whether the release of `wait_id` has its acquisition in the trace: always, unless an
// acquisition was left out (LeaveOutLock) before the process had a second OpenMP thread.
bool AcquisitionRecorded(ompt_wait_id_t wait_id) {
  if (!g_lock_left_out.load(std::memory_order_relaxed)) return true;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_locks == nullptr) return false;
  const auto it = g_locks->find(wait_id);
  return it != g_locks->end() && it->second.held;
}

// Writes the end of a worker's part in `team` into its log, at `time` (its barrier's end).
void CloseWorker(OmpThread& worker, const Team* team, uint64_t time) {
  if (worker.teams.empty() || worker.teams.back().team != team) return;
  const size_t depth = worker.teams.back().depth;
  EventLog& log = *worker.log;
  time = std::max(time, log.last_time());
  while (worker.open.size() > depth) {
    log.Append(RawEvent{time, RawKind::kLeave, 0, 0, worker.open.back().region, 0, 0, 0, 0});
    worker.open.pop_back();
  }
  log.Append(RawEvent{time, RawKind::kThreadTeamEnd, 0, 0, 0, 0, 0, 0, 0});
  worker.teams.pop_back();
}

// --- The callbacks -------------------------------------------------------------------------

void OnParallelBegin(ompt_data_t*, const ompt_frame_t*, ompt_data_t* parallel,
                     unsigned int requested, int, const void* code) {
  // The runtime never gives a team more threads than it asked for.
  if (requested > 1) g_solo.store(false, std::memory_order_relaxed);
  if (requested <= 1 && !g_record_serial) {
    parallel->ptr = &g_serial_team;
    CountLeftOut(S().openmp_serial_teams);
    return;
  }
  auto* team = new Team();
  team->code = code;
  parallel->ptr = team;
  // The functions that forked it: the team's parallel region is theirs, on every thread.
  if (Here() != nullptr) Record(RawKind::kThreadFork, requested, WalkedContext(T()));
}

void OnParallelEnd(ompt_data_t* parallel, ompt_data_t*, int, const void*) {
  if (parallel->ptr == &g_serial_team) {
    parallel->ptr = nullptr;
    return;
  }
  if (Here() != nullptr) Record(RawKind::kThreadJoin);
  delete static_cast<Team*>(parallel->ptr);
  parallel->ptr = nullptr;
}

void BeginImplicitTask(OmpThread& t, Team* team, unsigned int index) {
  if (team == &g_serial_team) {
    t.teams.push_back(OmpThread::Membership{team, nullptr, t.open.size(), true, true});
    return;
  }
  Record(RawKind::kThreadTeamBegin);
  t.teams.push_back(OmpThread::Membership{team, team->code, t.open.size(), index == 0, false});
  Enter(t, Construct::kParallel, team->code);
  if (index != 0) {
    std::lock_guard<std::mutex> lock(team->mutex);
    team->workers.push_back(&t);
  }
}

// The master's part ends after the closing barrier: its workers' parts end at the time it left
// that barrier (see the top of this file), then its own.
void EndMasterTask(OmpThread& t, Team* team) {
  const uint64_t barrier_end = t.log->last_time();
  {
    std::lock_guard<std::mutex> lock(team->mutex);
    for (OmpThread* worker : team->workers) CloseWorker(*worker, team, barrier_end);
  }
  const size_t depth = t.teams.back().depth;
  while (t.open.size() > depth) {
    Record(RawKind::kLeave, t.open.back().region);
    t.open.pop_back();
  }
  Record(RawKind::kThreadTeamEnd);
  t.teams.pop_back();
}

void OnImplicitTask(ompt_scope_endpoint_t endpoint, ompt_data_t* parallel, ompt_data_t*,
                    unsigned int, unsigned int index, int flags) {
  if ((flags & static_cast<int>(ompt_task_initial)) != 0)
    return;  // the program's own task, outside any team
  OmpThread* t = Here();
  if (t == nullptr) return;
  if (endpoint == ompt_scope_begin) {
    if (parallel != nullptr && parallel->ptr != nullptr)
      BeginImplicitTask(*t, static_cast<Team*>(parallel->ptr), index);
    return;
  }
  // A worker's end comes late and its master has written it already. (libomp passes no
  // parallel region at the end: the team is the one the thread began last.)
  if (InSerialTeam(*t)) {
    t->teams.pop_back();
    return;
  }
  if (!t->teams.empty() && t->teams.back().master) EndMasterTask(*t, t->teams.back().team);
}

Construct BarrierConstruct(ompt_sync_region_t kind) {
  switch (kind) {
    case ompt_sync_region_barrier_explicit:
      return Construct::kBarrier;
    case ompt_sync_region_barrier_implementation:
      return t_explicit_barrier != nullptr ? Construct::kBarrier : Construct::kImplicitBarrier;
    default:
      return Construct::kImplicitBarrier;
  }
}

void OnSyncRegion(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t* parallel,
                  ompt_data_t*, const void* code) {
  const bool barrier = kind != ompt_sync_region_taskwait && kind != ompt_sync_region_taskgroup &&
                       kind != ompt_sync_region_reduction;
  if (!barrier && kind != ompt_sync_region_taskwait) return;
  OmpThread* t = Here();
  if (t == nullptr || InTeamOfOne(*t)) return;
  const Construct construct = barrier ? BarrierConstruct(kind) : Construct::kTaskwait;
  if (kind == ompt_sync_region_barrier_implementation && t_explicit_barrier != nullptr)
    code = t_explicit_barrier;
  if (endpoint == ompt_scope_begin) {
    // The barrier closing a parallel region is named after the region (workers get no address).
    if (code == nullptr && !t->teams.empty()) code = t->teams.back().code;
    Enter(*t, construct, code);
    return;
  }
  // The closing barrier's late end on a worker (no parallel region any more): written already.
  const bool worker_closing = parallel == nullptr && !t->teams.empty() && !t->teams.back().master;
  if (!worker_closing) Leave(*t, construct);
}

void OnMutexAcquire(ompt_mutex_t kind, unsigned int, unsigned int, ompt_wait_id_t,
                    const void* code) {
  if (ProcessLock(kind) && LeaveOutLock()) return;
  OmpThread* t = Here();
  if (t == nullptr || (kind == ompt_mutex_ordered && InTeamOfOne(*t))) return;
  switch (kind) {
    case ompt_mutex_critical:
      Enter(*t, Construct::kCritical, code);
      break;
    case ompt_mutex_ordered:
      Enter(*t, Construct::kOrdered, code);
      break;
    case ompt_mutex_lock:
      Enter(*t, Construct::kSetLock, nullptr);
      break;
    case ompt_mutex_nest_lock:
      Enter(*t, Construct::kSetNestLock, nullptr);
      break;
    default:  // a test records only its success (below); atomics are not recorded
      break;
  }
}

void OnMutexAcquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void*) {
  if (ProcessLock(kind) && LeaveOutLock()) {
    g_lock_left_out.store(true, std::memory_order_relaxed);
    CountLeftOut(S().openmp_solo_locks);
    return;
  }
  OmpThread* t = Here();
  if (t == nullptr) return;
  switch (kind) {
    case ompt_mutex_critical:
      if (t->open.empty() || t->open.back().construct != Construct::kCritical) return;
      LockRecord(RawKind::kThreadAcquireLock, wait_id);
      Enter(*t, Construct::kCriticalSblock, OpenCode(*t));
      break;
    case ompt_mutex_ordered:
      if (t->open.empty() || t->open.back().construct != Construct::kOrdered) return;
      Enter(*t, Construct::kOrderedSblock, OpenCode(*t));
      break;
    case ompt_mutex_lock:
    case ompt_mutex_nest_lock: {
      const Construct routine =
          kind == ompt_mutex_lock ? Construct::kSetLock : Construct::kSetNestLock;
      if (t->open.empty() || t->open.back().construct != routine) return;
      LockRecord(RawKind::kThreadAcquireLock, wait_id);
      Leave(*t, routine);
      break;
    }
    case ompt_mutex_test_lock:
    case ompt_mutex_test_nest_lock: {
      const Construct routine =
          kind == ompt_mutex_test_lock ? Construct::kTestLock : Construct::kTestNestLock;
      Enter(*t, routine, nullptr);
      LockRecord(RawKind::kThreadAcquireLock, wait_id);
      Leave(*t, routine);
      break;
    }
    default:
      break;
  }
}

void OnMutexReleased(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void*) {
  if (ProcessLock(kind) && LeaveOutLock()) return;
  OmpThread* t = Here();
  if (t == nullptr) return;
  switch (kind) {
    case ompt_mutex_critical:
      if (!Leave(*t, Construct::kCriticalSblock)) return;
      LockRecord(RawKind::kThreadReleaseLock, wait_id);
      Leave(*t, Construct::kCritical);
      break;
    case ompt_mutex_ordered:
      if (Leave(*t, Construct::kOrderedSblock)) Leave(*t, Construct::kOrdered);
      break;
    case ompt_mutex_lock:
    case ompt_mutex_nest_lock:
    case ompt_mutex_test_lock:
    case ompt_mutex_test_nest_lock: {
      if (!AcquisitionRecorded(wait_id)) return;
      const bool nest = kind == ompt_mutex_nest_lock || kind == ompt_mutex_test_nest_lock;
      const Construct routine = nest ? Construct::kUnsetNestLock : Construct::kUnsetLock;
      Enter(*t, routine, nullptr);
      LockRecord(RawKind::kThreadReleaseLock, wait_id);
      Leave(*t, routine);
      break;
    }
    default:
      break;
  }
}

// A nest lock its holder sets again (begin) or unsets without releasing it (end): no lock record,
// the routine's region only.
void OnNestLock(ompt_scope_endpoint_t endpoint, ompt_wait_id_t wait_id, const void*) {
  if (LeaveOutLock()) return;
  OmpThread* t = Here();
  if (t == nullptr) return;
  if (endpoint == ompt_scope_begin) {
    Leave(*t, Construct::kSetNestLock);  // entered at the acquire callback
  } else if (AcquisitionRecorded(wait_id)) {
    Enter(*t, Construct::kUnsetNestLock, nullptr);
    Leave(*t, Construct::kUnsetNestLock);
  }
}

void OnWork(ompt_work_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t*, uint64_t,
            const void* code) {
  Construct construct = Construct::kLoop;
  switch (kind) {
    case ompt_work_loop:
      break;
    case ompt_work_sections:
      construct = Construct::kSections;
      break;
    case ompt_work_single_executor:
    case ompt_work_single_other:
      construct = Construct::kSingle;
      break;
    default:
      return;
  }
  OmpThread* t = Here();
  if (t == nullptr || InTeamOfOne(*t)) return;
  if (endpoint == ompt_scope_begin) {
    Enter(*t, construct, code);
    if (kind == ompt_work_single_executor && t_gomp_single) t->open.back().end_unreported = true;
  } else {
    Leave(*t, construct);
  }
}

void OnMaster(ompt_scope_endpoint_t endpoint, ompt_data_t*, ompt_data_t*, const void* code) {
  OmpThread* t = Here();
  if (t == nullptr || InTeamOfOne(*t)) return;
  if (endpoint == ompt_scope_begin) {
    Enter(*t, Construct::kMaster, code);
  } else {
    Leave(*t, Construct::kMaster);
  }
}

// The runtime's threads: a second one (a worker, or another initial thread) ends the solo part
// of the run.
void OnThreadBegin(ompt_thread_t type, ompt_data_t*) {
  if (type != ompt_thread_initial && type != ompt_thread_worker) return;
  if (g_openmp_threads.fetch_add(1, std::memory_order_relaxed) > 0)
    g_solo.store(false, std::memory_order_relaxed);
}

int Initialize(ompt_function_lookup_t lookup, int, ompt_data_t*) {
  auto set_callback = reinterpret_cast<ompt_set_callback_t>(lookup("ompt_set_callback"));
  if (set_callback == nullptr) return 0;
  const char* serial = std::getenv("CAUSEWAY_OPENMP_SERIAL");
  g_record_serial = serial != nullptr && std::strcmp(serial, "record") == 0;
  auto set = [&](ompt_callbacks_t event, auto callback) {
    set_callback(event, reinterpret_cast<ompt_callback_t>(callback));
  };
  set(ompt_callback_thread_begin, &OnThreadBegin);
  set(ompt_callback_parallel_begin, &OnParallelBegin);
  set(ompt_callback_parallel_end, &OnParallelEnd);
  set(ompt_callback_implicit_task, &OnImplicitTask);
  set(ompt_callback_sync_region, &OnSyncRegion);
  set(ompt_callback_mutex_acquire, &OnMutexAcquire);
  set(ompt_callback_mutex_acquired, &OnMutexAcquired);
  set(ompt_callback_mutex_released, &OnMutexReleased);
  set(ompt_callback_nest_lock, &OnNestLock);
  set(ompt_callback_work, &OnWork);
  set(ompt_callback_master, &OnMaster);
  return 1;  // the tool stays active
}

void Finalize(ompt_data_t*) {}

}  // namespace
}  // namespace cw::measure::hook

// The OpenMP runtime looks this function up when it starts: causeway is a tool unless
// CAUSEWAY_OPENMP=off.
extern "C" __attribute__((visibility("default"))) ompt_start_tool_result_t* ompt_start_tool(
    unsigned int, const char*) {
  const char* setting = std::getenv("CAUSEWAY_OPENMP");
  if (setting != nullptr && std::strcmp(setting, "off") == 0) return nullptr;
  static ompt_start_tool_result_t result = {
      &cw::measure::hook::Initialize, &cw::measure::hook::Finalize, {0}};
  return &result;
}
