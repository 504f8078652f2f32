// The recorder's life: MPI_Init to MPI_Finalize, clock synchronisation, and what happens when
// the process ends any other way.
#include "measure/runtime/recorder.h"

#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "measure/core/clock_offset.h"
#include "measure/core/process_end.h"
#include "measure/export/early_export.h"
#include "measure/raw/mpi_groups.h"
#include "measure/raw/tracer_defaults.h"
#include "measure/runtime/error_handlers.h"
#include "measure/runtime/function_names.h"
#include "measure/runtime/hooks.h"
#include "measure/runtime/write_calls.h"

namespace cw::measure::hook {
namespace {

// initial-exec: the library is loaded at start-up (LD_PRELOAD or linked), so its TLS can be
// reached without a __tls_get_addr call on every MPI call.
__attribute__((tls_model("initial-exec"))) thread_local ThreadState* t_state = nullptr;
std::atomic<uint64_t> g_unrecorded_calls{0};

// Every recording thread's log, flushed as a crash leaves it (async-signal-safe).
void FlushAllForCrash() {
  State& s = S();
  const int n = s.threads.load();
  for (int i = 0; i < n; ++i) {
    if (s.thread_logs[i] != nullptr) s.thread_logs[i]->FlushForCrash();
  }
}

uint64_t ParseSize(const char* text, uint64_t fallback) {
  if (text == nullptr || *text == '\0') return fallback;
  char* end = nullptr;
  double value = std::strtod(text, &end);
  if (end == text || value <= 0) return fallback;
  switch (*end) {
    case 'k':
    case 'K':
      value *= 1024.0;
      break;
    case 'm':
    case 'M':
      value *= 1024.0 * 1024.0;
      break;
    case 'g':
    case 'G':
      value *= 1024.0 * 1024.0 * 1024.0;
      break;
    default:
      break;
  }
  return static_cast<uint64_t>(value);
}

// The polling compaction's largest gap in timer units: CAUSEWAY_POLL_GAP nanoseconds (default
// kDefaultPollGapNs; 0 switches compaction off), converted with the timer's rate measured over
// a few microseconds.
uint64_t PollGapTicks(const char* text) {
  uint64_t ns = kDefaultPollGapNs;
  if (text != nullptr && *text != '\0') {
    char* end = nullptr;
    const unsigned long long value = std::strtoull(text, &end, 10);
    if (end != text) ns = value;
  }
  if (ns == 0 || !TimerIsTsc()) return ns;
  const uint64_t t0 = TimerNow(), n0 = MonotonicNow();
  uint64_t n1 = n0;
  while (n1 - n0 < 20000) n1 = MonotonicNow();
  const double ticks_per_ns = static_cast<double>(TimerNow() - t0) / static_cast<double>(n1 - n0);
  return static_cast<uint64_t>(static_cast<double>(ns) * ticks_per_ns);
}

// The world ranks of `group`'s members, in group rank order (frees `group`).
std::vector<int> WorldRanksOfGroup(MPI_Group group) {
  int n = 0;
  PMPI_Group_size(group, &n);
  MPI_Group world;
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> local(static_cast<size_t>(n)), global(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) local[static_cast<size_t>(i)] = i;
  PMPI_Group_translate_ranks(group, n, local.data(), world, global.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return global;
}

// The local group's world ranks (an inter-communicator's too).
std::vector<int> WorldRanksOf(MPI_Comm comm) {
  MPI_Group group;
  PMPI_Comm_group(comm, &group);
  return WorldRanksOfGroup(group);
}

// An inter-communicator's other group.
std::vector<int> RemoteWorldRanksOf(MPI_Comm comm) {
  MPI_Group group;
  PMPI_Comm_remote_group(comm, &group);
  return WorldRanksOfGroup(group);
}

}  // namespace

bool g_filtered_calls[kFlushRegion] = {};

namespace {

// --filter-exclude on MPI and OpenSHMEM routines: only those whose records the analysis does not
// match may be left out (causeway trace refuses patterns that name the others).
void FilterCalls() {
  const FunctionFilter filter = FunctionFilter::FromEnvironment();
  const MpiGroups groups(std::getenv("CAUSEWAY_MPI_GROUPS"));
  for (uint32_t f = 0; f < kMpiFunctionCount; ++f) {
    const MpiFunctionInfo& info = kMpiFunctions[f];
    g_filtered_calls[f] =
        info.filterable && (filter.Excludes(info.name) || !groups.Enabled(info.group));
  }
  for (uint32_t f = 0; f < kShmemFunctionCount; ++f) {
    g_filtered_calls[kShmemFirstRegion + f] =
        kShmemFunctions[f].filterable && filter.Excludes(kShmemFunctions[f].name);
  }
}

}  // namespace

uint32_t DefineComm(MPI_Comm comm, long long global) {
  State& s = S();
  const uint32_t local = s.next_local_comm++;
  s.comms[comm] = local;
  int inter = 0;
  if (comm != MPI_COMM_WORLD) PMPI_Comm_test_inter(comm, &inter);
  std::string line = std::string(inter ? "intercomm " : "comm ") + std::to_string(local) + " " +
                     std::to_string(global);
  auto add = [&line](const std::vector<int>& ranks) {
    line += " " + std::to_string(ranks.size());
    for (int r : ranks) line += " " + std::to_string(r);
  };
  if (comm == MPI_COMM_WORLD) {
    line += " world";
  } else {
    add(WorldRanksOf(comm));
    if (inter) add(RemoteWorldRanksOf(comm));
  }
  s.log.Define(line);
  return local;
}

uint32_t GroupOfWorldRanks(const std::vector<int>& world) {
  State& s = S();
  auto [it, inserted] = s.groups.try_emplace(world, 0);
  if (inserted) {
    it->second = static_cast<uint32_t>(s.groups.size() - 1);
    std::string line = "group " + std::to_string(it->second) + " " + std::to_string(world.size());
    for (int r : world) line += " " + std::to_string(r);
    s.log.Define(line);
  }
  return it->second;
}

uint32_t CommId(MPI_Comm comm) {
  State& s = S();
  auto it = s.comms.find(comm);
  if (it != s.comms.end()) return it->second;
  // Not seen being created: MPI_COMM_SELF (-2, see raw_format.h), or a communicator made by a
  // call causeway does not wrap (-1: unified by its members).
  return DefineComm(comm, comm == MPI_COMM_SELF ? -2 : -1);
}

namespace {

// Measures this rank's clock offset to rank 0 by ping-pong (the round trip with the smallest
// delay of a few) and writes it as a definition; the exporter interpolates between the offsets
// at Init and at Finalize.
void SyncClocks(const char* label) {
  State& s = S();
  const ClockComparison c =
      CompareClockWithRankZero(s.own, s.rank, s.size, MonotonicNow, SystemClockIdentity());
  const long long local = c.local, offset = c.offset;
  s.log.Define(std::string("clock ") + label + " " + std::to_string(local) + " " +
               std::to_string(offset));
  // Rank 0 measures one rank after the other: without this barrier the ranks measured first
  // would leave MPI_Init early and wait in their first communication for those measured last,
  // a wait the program does not have.
  PMPI_Barrier(s.own);
}

// What was recorded reaches the disk however the process ends (WatchProcessEnd).
void OnFatalSignal(int sig) {
  State& s = S();  // (FlushForCrash also writes the last timer calibration point)
  if (s.started && !s.finished) {
    s.finished = true;
    FlushAllForCrash();
    char line[32] = "signal ";
    int n = sig, pos = 7;
    char digits[8];
    int d = 0;
    do {
      digits[d++] = static_cast<char>('0' + n % 10);
      n /= 10;
    } while (n > 0 && d < 7);
    while (d > 0) line[pos++] = digits[--d];
    line[pos] = '\0';
    s.log.DefineForCrash(line);
  }
}

void OnExit() {
  State& s = S();
  if (!s.started || s.finished) return;
  s.finished = true;
  FlushAllForCrash();
  s.log.DefineForCrash(s.exit_without_finalize == nullptr ? "exit without MPI_Finalize"
                                                          : s.exit_without_finalize);
}

// At MPI_Finalize: the other threads' logs are written out and their totals noted in the rank's
// definitions ("thread_end INDEX EVENTS FLUSHES FLUSH_NS ok|lost"). MPI calls that other threads
// still make are not recorded any more (`finished` is set).
void CloseThreadLogs() {
  State& s = S();
  std::lock_guard<std::mutex> lock(s.mutex);
  for (int i = 1; i < s.threads.load(); ++i) {
    EventLog& log = *s.thread_logs[i];
    log.FlushForCrash();
    s.log.Define("thread_end " + std::to_string(i) + " " + std::to_string(log.events()) + " " +
                 std::to_string(log.flushes()) + " " + std::to_string(log.flush_nanoseconds()) +
                 " " + (log.ok() ? "ok" : "lost"));
    log.Close();
  }
}

}  // namespace

State& S() {
  static State* state = new State();
  return *state;
}

ThreadState& T() { return *t_state; }
ThreadState* CurrentThread() { return t_state; }

HookLock::HookLock() {
  State& s = S();
  if (s.thread_level == MPI_THREAD_MULTIPLE) {
    s.mutex.lock();
    locked_ = true;
  }
}
HookLock::~HookLock() {
  if (locked_) S().mutex.unlock();
}

HookUnlock::HookUnlock() {
  State& s = S();
  if (s.thread_level == MPI_THREAD_MULTIPLE) {
    s.mutex.unlock();
    unlocked_ = true;
  }
}
HookUnlock::~HookUnlock() {
  if (unlocked_) S().mutex.lock();
}

void Record(RawKind kind, uint32_t a, uint32_t b, uint32_t c, uint64_t x, uint64_t y, uint8_t op) {
  t_state->log->Append(RawEvent{Now(), kind, op, 0, a, b, c, x, y});
}

void RecordAtEnter(RawKind kind, uint32_t a, uint32_t b, uint32_t c, uint64_t x, uint64_t y) {
  EventLog& log = *t_state->log;
  log.Append(RawEvent{std::max(t_state->entered, log.last_time()), kind, 0, 0, a, b, c, x, y});
}

void RecordCallAt(uint32_t region, uint64_t enter) {
  EventLog& log = *t_state->log;
  log.Append(RawEvent{std::max(enter, log.last_time()), RawKind::kEnter, 0, 0, region, 0, 0, 0, 0});
  Record(RawKind::kLeave, region);
}

uint64_t Now() { return TimerNow(); }

bool RecordingHere() {
  return t_state != nullptr && t_state->index == 0 && !S().finished && !t_state->stopped;
}

namespace {

// Calls pthread's key destructor for every recording thread other than the one that
// initialised MPI when it ends.
pthread_key_t g_thread_end_key;
pthread_once_t g_thread_end_once = PTHREAD_ONCE_INIT;

// A recording thread ends: its slot (log and location) is free for the next thread that calls
// MPI. Its events stay in the log's buffer, ahead of the next thread's, which come later.
void OnThreadEnd(void* state) {
  auto* t = static_cast<ThreadState*>(state);
  State& s = S();
  {
    std::lock_guard<std::mutex> lock(s.mutex);
    if (!s.finished) s.free_thread_slots.push_back(t->index);
  }
  StopThreadSampling(*t);
  CountWalks(*t);
  ReleaseWalkCache(t->walk_cache);
  t_state = nullptr;
  delete t->samples;
  delete t;
}

void CreateThreadEndKey() { pthread_key_create(&g_thread_end_key, OnThreadEnd); }

// A log for a thread's first MPI call: a free slot's, or a new one. Called under s.mutex.
EventLog* ThreadLog(State& s, int& index) {
  if (!s.free_thread_slots.empty()) {
    index = s.free_thread_slots.back();
    s.free_thread_slots.pop_back();
    ++s.reused_thread_slots;
    return s.thread_logs[index];
  }
  index = s.threads.load();
  if (index >= kMaxThreads) return nullptr;
  auto* log = new EventLog();
  if (!log->Open(RawThreadEventsPath(s.dir, s.rank, index), RawThreadDefsPath(s.dir, s.rank, index),
                 s.buffer_events)) {
    delete log;
    return nullptr;
  }
  if (s.size_limit_share > 0)
    log->LimitBytes(&s.bytes_left, &s.size_limit_reached, &s.size_limit_time);
  s.thread_logs[index] = log;
  s.threads.store(index + 1);
  s.log.Define("thread " + std::to_string(index));
  return log;
}

// A thread's first MPI call, or its first OpenMP event (`calls_mpi` false): it gets a log (an
// OTF2 location of its own, or that of a thread that ended) if the thread level lets it call
// MPI or it records OpenMP's events, else its calls are counted.
bool AdoptThread(bool calls_mpi) {
  State& s = S();
  if (!s.started || s.finished || s.size_limit_reached.load(std::memory_order_relaxed))
    return false;
  if (calls_mpi && s.thread_level < MPI_THREAD_SERIALIZED) {
    g_unrecorded_calls.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  pthread_once(&g_thread_end_once, CreateThreadEndKey);
  std::lock_guard<std::mutex> lock(s.mutex);
  int index = 0;
  EventLog* log = s.finished ? nullptr : ThreadLog(s, index);
  if (log == nullptr) {
    g_unrecorded_calls.fetch_add(1, std::memory_order_relaxed);
    return false;
  }
  auto* state = new ThreadState();
  state->log = log;
  state->index = index;
  t_state = state;
  pthread_setspecific(g_thread_end_key, state);
  StartThreadSampling(*state);
  return true;
}

}  // namespace

namespace {

// The rank's logs have spent its share of the size limit: the calling thread writes a
// measurement-off record (from when the share was spent, or its latest record) and records
// nothing more (MPI_Finalize takes the main thread's up again to close the program cleanly).
bool StopAtSizeLimit() {
  ThreadState& t = *t_state;
  if (!t.stopped) {
    t.stopped = true;
    EventLog& log = *t.log;
    const uint64_t when =
        std::max(S().size_limit_time.load(std::memory_order_relaxed), log.last_time());
    log.Append(RawEvent{when, RawKind::kMeasurementOnOff, 0, 0, 0, 0, 0, 0, 0});
  }
  return false;
}

}  // namespace

bool Recording() {
  if (t_state != nullptr) {
    State& s = S();
    if (s.size_limit_reached.load(std::memory_order_relaxed)) [[unlikely]]
      return !s.finished && StopAtSizeLimit();
    return !s.finished;
  }
  return AdoptThread(/*calls_mpi=*/true);
}

bool RecordingOpenMp() {
  if (t_state != nullptr) return Recording();
  return AdoptThread(/*calls_mpi=*/false);
}

CallScope::CallScope(uint32_t region) : region_(region) {
  ThreadState& t = *t_state;
  PauseSampling(t);  // no samples inside a recorded call: its time is the call's
  DrainSamples(t);
  // The walk comes before the clock is read: its cost is not the call's time. Every call walks,
  // a poll repeated from one return address too: the same helper polling for two callers in
  // turn has a path for each (see hooks.h).
  const uint32_t context = WalkedContext(t);
  if (region_ == static_cast<uint32_t>(MpiFunction::kMPI_Barrier)) {
    MarkWritesBeforeBarrier(context);
  }
  t.entered = Now();
  t.call_start = t.log->position();
  t.call_flushes = t.log->flushes();
  t.log->Append(RawEvent{t.entered, RawKind::kEnter, 0, 0, region_, context, 0, 0, 0});
}

CallScope::~CallScope() {
  RecordLeave();
  ResumeSampling(*t_state);
}

// A call that polled without a result right after another such call with the same records is
// folded into it (polling compaction): a busy loop of MPI_Test writes one call, not millions.
void CallScope::RecordLeave() {
  ThreadState& t = *t_state;
  if (!t.polled_nothing) {
    t.poll_flushes = ThreadState::kNoPoll;
    Record(RawKind::kLeave, region_);
    return;
  }
  t.polled_nothing = false;
  EventLog& log = *t.log;
  const uint64_t now = Now();
  const bool unflushed = t.call_flushes == log.flushes();
  if (unflushed && t.poll_flushes == t.call_flushes && t.poll_end == t.call_start &&
      log.FoldRepeatedCall(t.poll_start, t.call_start, now, S().poll_max_gap))
    return;
  log.Append(RawEvent{now, RawKind::kLeave, 0, 0, region_, 0, 0, 0, 0});
  if (unflushed && log.flushes() == t.call_flushes) {
    t.poll_start = t.call_start;
    t.poll_end = log.position();
    t.poll_flushes = t.call_flushes;
  } else {
    t.poll_flushes = ThreadState::kNoPoll;
  }
}

void Polled(bool nothing) {
  if (nothing) t_state->polled_nothing = true;
}

// Timer units (nanoseconds, or about a third of one with the time-stamp counter) between the
// program region's ends and the first and last MPI calls, so that they never share a timestamp.
constexpr uint64_t kProgramSeparation = 1000;

void Started(uint32_t init, uint64_t enter) {
  State& s = S();
  if (s.started) return;
  // An OpenSHMEM program (started by shmem_init) finishes with shmem_finalize.
  s.exit_without_finalize = init >= kShmemFirstRegion && init < kFlushRegion
                                ? "exit without shmem_finalize"
                                : "exit without MPI_Finalize";
  PMPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  PMPI_Query_thread(&s.thread_level);
  PMPI_Comm_size(MPI_COMM_WORLD, &s.size);
  PMPI_Comm_dup(MPI_COMM_WORLD, &s.own);
  const char* dir = std::getenv("CAUSEWAY_DIR");
  s.dir = dir != nullptr && *dir != '\0' ? dir : "causeway-trace";
  ::mkdir(s.dir.c_str(), 0755);
  ::mkdir((s.dir + "/raw").c_str(), 0755);
  // 1 MiB by default: measured (bench/run_tracer_benchmark.sh) 2.5 times cheaper per event than
  // 16 MiB, which streams every record through main memory before it is written.
  const uint64_t buffer_bytes = ParseSize(std::getenv("CAUSEWAY_BUFFER"), kDefaultBufferBytes);
  if (const char* record = std::getenv("CAUSEWAY_RECORD"); record != nullptr) {
    const std::string kinds = std::string(",") + record + ",";
    s.record_user_regions = kinds.find(",user,") != std::string::npos;
    s.record_functions = kinds.find(",functions,") != std::string::npos;
  }
  s.buffer_events = buffer_bytes / sizeof(RawEvent);
  s.poll_max_gap = PollGapTicks(std::getenv("CAUSEWAY_POLL_GAP"));
  const uint64_t max_size = ParseSize(std::getenv("CAUSEWAY_MAX_SIZE"), 0);
  // Every rank records or none does: a rank that records joins the tracer's own collectives
  // (the clock comparison below, the barriers at MPI_Finalize), which a rank that cannot write
  // its files would never join, and the run would hang.
  const std::string events_path = RawEventsPath(s.dir, s.rank);
  const std::string defs_path = RawDefsPath(s.dir, s.rank);
  const bool opened = s.log.Open(events_path, defs_path, s.buffer_events);
  int every_rank_opened = opened ? 1 : 0;
  PMPI_Allreduce(MPI_IN_PLACE, &every_rank_opened, 1, MPI_INT, MPI_MIN, s.own);
  if (every_rank_opened == 0) {
    s.log.Close();  // and no partial files left for the exporter
    ::unlink(events_path.c_str());
    ::unlink(defs_path.c_str());
    if (s.rank == 0) {
      std::fprintf(
          stderr, "causeway: %s %s; not recording\n",
          opened ? "a rank cannot write its part of the trace to" : "cannot write the trace to",
          s.dir.c_str());
    }
    return;
  }
  if (max_size > 0) {
    // Each rank may write its share of the limit; its threads share it.
    s.size_limit_share = std::max<uint64_t>(max_size / static_cast<uint64_t>(s.size), 1);
    s.bytes_left.store(static_cast<int64_t>(s.size_limit_share));
    s.log.LimitBytes(&s.bytes_left, &s.size_limit_reached, &s.size_limit_time);
  }
  char host[256] = "localhost";
  gethostname(host, sizeof host - 1);
  s.log.Define("rank " + std::to_string(s.rank) + " " + std::to_string(s.size) + " " + host);
  s.schedule_at_start = ReadThreadSchedule();
  DefineComm(MPI_COMM_WORLD, 0);
  SyncClocks("init");
  s.thread_logs[0] = &s.log;
  s.threads.store(1);
  auto* main_thread = new ThreadState();
  main_thread->log = &s.log;
  t_state = main_thread;
  s.started = true;
  // The program region begins when the process does (the library is loaded before the
  // program's main), as Score-P's traces have it: readers that order events by time (Pipit)
  // cannot nest main and MPI_Init if both begin at one timestamp.
  uint64_t program_begin = LibraryLoadTime();
  if (program_begin == 0 || program_begin + kProgramSeparation > enter) {
    program_begin = enter > kProgramSeparation ? enter - kProgramSeparation : 0;
  }
  StartCallingContexts();
  StartSamplingProcess();
  SaveMemoryMap(s.dir, s.rank);
  s.log.Append(RawEvent{program_begin, RawKind::kEnter, 0, 0, kProgramRegion, 0, 0, 0, 0});
  const uint32_t init_context = WalkedContext(*main_thread);
  s.log.Append(RawEvent{enter, RawKind::kEnter, 0, 0, init, init_context, 0, 0, 0});
  Record(RawKind::kLeave, init);
  StartThreadSampling(*main_thread);
  WatchProcessEnd(OnFatalSignal, OnExit);
  WatchFatalErrors();
  FilterCalls();
  StartCountingWrites();  // last: the tracer's own files above are no write of the program
}

void Finalizing(uint32_t region) {
  State& s = S();
  if (!s.started || s.finished || t_state == nullptr || t_state->index != 0) return;
  if (s.size_limit_reached.load()) {
    // The program region closes after MPI_Finalize as always, after a measurement-off gap.
    StopAtSizeLimit();
    Record(RawKind::kMeasurementOnOff, 1);
    s.log.Define("size_limit " + std::to_string(s.size_limit_share) + " " +
                 std::to_string(s.size_limit_time.load()));
  }
  StopThreadSampling(*t_state);
  DrainSamples(*t_state);
  Record(RawKind::kEnter, region, WalkedContext(*t_state));
  SyncClocks("finalize");
  Record(RawKind::kLeave, region);
  CloseOpenRegions();  // they end here, before the program does
  // The program ends after MPI_Finalize, at a timestamp of its own (see Started).
  const uint64_t last = s.log.last_time();
  uint64_t program_end = Now();
  while (program_end < last + kProgramSeparation) program_end = Now();
  s.log.Append(RawEvent{program_end, RawKind::kLeave, 0, 0, kProgramRegion, 0, 0, 0, 0});
  s.finished = true;
  CloseThreadLogs();
  CountWalks(*t_state);
  SaveMemoryMap(s.dir, s.rank);  // with the libraries loaded since the start
  if (const std::string samples = SamplesLine(); !samples.empty()) s.log.Define(samples);
  s.log.Define(SchedulingLine(s.schedule_at_start));
  if (s.unbalanced_regions > 0)
    s.log.Define("unbalanced_regions " + std::to_string(s.unbalanced_regions));
  if (s.reused_thread_slots > 0)
    s.log.Define("reused_thread_slots " + std::to_string(s.reused_thread_slots));
  if (s.openmp_serial_teams.load() > 0 || s.openmp_solo_locks.load() > 0) {
    s.log.Define("openmp_serial " + std::to_string(s.openmp_serial_teams.load()) + " " +
                 std::to_string(s.openmp_solo_locks.load()));
  }
  s.log.FlushForCrash();
  s.log.Define("end " + std::to_string(s.log.events()) + " " +
               std::to_string(g_unrecorded_calls.load()) + " " + std::to_string(s.log.flushes()) +
               " " + std::to_string(s.log.flush_nanoseconds()) + " " +
               (s.log.ok() ? "ok" : "lost"));
  s.log.Close();
  // Every rank's files are complete before rank 0 turns them into OTF2, or tells `causeway
  // trace`, which exports them, that it may begin (without the mark it begins after the run,
  // whether or not every rank got here).
  PMPI_Barrier(s.own);
  if (s.rank == 0) ExportOrMarkComplete(s.dir);
  PMPI_Comm_free(&s.own);
}

void RecordEnding(const char* how) {
  State& s = S();
  if (!s.started || s.finished) return;
  s.finished = true;
  FlushAllForCrash();
  s.log.DefineForCrash(how);
}

void Abort(MPI_Comm) { RecordEnding("abort"); }

}  // namespace cw::measure::hook
