// The recorder's state and the helpers the hooks share (private to measure/runtime).
#pragma once

#include <mpi.h>
#include <time.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <otf2/OTF2_Events.h>

#include "measure/core/request_queues.h"
#include "measure/core/scheduling.h"
#include "measure/raw/raw_format.h"
#include "measure/runtime/calling_contexts.h"
#include "measure/runtime/event_log.h"
#include "measure/runtime/sampling.h"

namespace cw::measure::hook {

// The synchronisation levels of the one-sided records (OTF2_RmaSyncLevel): the process alone,
// and the process with its memory.
constexpr uint32_t kSyncProcess = OTF2_RMA_SYNC_LEVEL_PROCESS;
constexpr uint32_t kSyncFull = OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY;

enum class RequestKind : uint8_t { kSend, kReceive, kCollective, kFileIo, kUntraced };

// A request from its start to its completion (persistent ones until they are freed).
struct PendingRequest {
  uint64_t id = 0;
  uint32_t comm = 0;  // file I/O: the local id of its file handle
  RequestKind kind = RequestKind::kSend;
  bool persistent = false;
  bool active = true;
  uint32_t peer = 0;  // persistent sends: destination, tag and size, recorded at each start
  uint32_t tag = 0;
  uint64_t bytes = 0;     // collectives: bytes sent
  uint64_t received = 0;  // collectives
  uint32_t root = kNoRank;
  uint8_t op = 0;
};

using RequestTable = RequestQueues<PendingRequest>;

// A user region or instrumented function the main thread is in. Functions that a filter
// excludes keep their frame (region kNoRegion), so that exits still pair with entries.
inline constexpr uint32_t kNoRegion = 0xFFFFFFFFu;
struct Frame {
  uint32_t region;
  void* function;  // nullptr for a user region
};

// A message found by MPI_Mprobe/MPI_Improbe, until MPI_Mrecv/MPI_Imrecv takes it.
struct ProbedMessage {
  uint64_t handle = 0;
  uint32_t comm = 0;
};

// An RMA window (rma_hooks.cc). Its operations stay pending until the call that ends their
// epoch (fence, complete, unlock, flush, free) completes them: that call records their
// completion, as the window's synchronisation is where MPI guarantees it.
inline constexpr uint32_t kNoGroup = 0xFFFFFFFFu;
struct WindowState {
  struct PendingOp {
    uint32_t target;  // rank in the window's communicator
    uint64_t id;      // matching id of the operation's record
  };
  uint32_t local = 0;
  uint32_t comm = 0;  // local id of the window's communicator
  std::vector<PendingOp> pending;
  uint32_t access_group = kNoGroup;    // of the latest MPI_Win_start (for MPI_Win_complete)
  uint32_t exposure_group = kNoGroup;  // of the latest MPI_Win_post (for MPI_Win_wait/test)
  std::unordered_map<uint32_t, uint64_t> locks;  // target (kNoRank: all) -> id of its lock
};

// What each recording thread keeps for itself: its event log, and what its current call keeps
// between the hooks before and after the PMPI call (another thread's hooks may run meanwhile).
struct ThreadState {
  EventLog* log = nullptr;
  int index = 0;         // 0: the thread that initialised MPI; its log is State::log
  uint64_t entered = 0;  // when the current call was entered
  std::vector<MPI_Request> saved;
  ProbedMessage saved_message;
  MPI_Win saved_window = MPI_WIN_NULL;  // the window MPI_Win_free is freeing
  uint32_t senders = kNoGroup;          // of the current v-collective (CollSenders)
  uint32_t saved_file = kNoRank;        // the local id of the file MPI_File_close is closing
  std::vector<MPI_Status> status_buffer;
  // Polling compaction (CallScope): where the current call's records begin; whether it polled
  // without a result (a test or probe that found nothing); where the latest such call's records
  // are. Positions hold while the log's flush count is the one noted.
  size_t call_start = 0;
  uint64_t call_flushes = 0;
  bool polled_nothing = false;
  size_t poll_start = 0;
  size_t poll_end = 0;
  uint64_t poll_flushes = kNoPoll;
  static constexpr uint64_t kNoPoll = ~uint64_t{0};
  bool stopped = false;  // stopped recording at the size limit
  WalkCache walk_cache;  // the previous call's stack walk (calling_contexts.h)
  // Sampling (sampling.h): the samples not yet written, the thread's timer, and whether the
  // recorder is at work on the thread (the handler then leaves it alone).
  SampleBuffer* samples = nullptr;
  timer_t sampling_timer{};
  bool sampling = false;
  volatile sig_atomic_t busy = 0;
  // How often the thread drained its samples (DrainSamples): every recorded call, region and
  // OpenMP event drains first, so two samples that see the same count span computation alone.
  volatile uint32_t pauses = 0;
};

// The recorder of this process. Every thread that calls MPI records into its own log (its own
// OTF2 location): the thread that initialised MPI from MPI_Init on, the others from their first
// MPI call if the thread level allows them to call MPI (MPI_THREAD_SERIALIZED or _MULTIPLE).
// What the threads share below is guarded by `mutex` under MPI_THREAD_MULTIPLE (HookLock); at
// lower levels MPI calls do not overlap, so neither do the hooks.
struct State {
  // Read by every thread that calls MPI (Recording()), written by the main thread.
  std::atomic<bool> started{false};
  ThreadSchedule schedule_at_start;  // the main thread's, when recording began
  std::atomic<bool> finished{false};
  int rank = 0;
  int size = 1;
  std::string dir;
  EventLog log;
  MPI_Comm own = MPI_COMM_NULL;  // a duplicate of MPI_COMM_WORLD for causeway's own messages
  std::unordered_map<MPI_Comm, uint32_t> comms;
  uint32_t next_local_comm = 0;
  uint32_t next_global_comm = 1;  // 0 is MPI_COMM_WORLD
  RequestTable requests;
  uint64_t next_request = 1;
  std::unordered_map<MPI_Message, ProbedMessage> messages;
  uint64_t next_message = 1;
  std::unordered_map<MPI_Win, WindowState> windows;
  uint32_t next_local_window = 0;
  uint32_t next_global_window = 0;
  std::map<std::vector<int>, uint32_t> groups;  // world ranks -> local group id
  uint64_t next_rma_op = 1;
  uint64_t next_lock = 1;
  // MPI-IO (io_hooks.cc): local ids of the open file handles, and the matching id of each
  // handle's split collective operation between its _begin and its _end call.
  std::unordered_map<MPI_File, uint32_t> files;
  uint32_t next_local_file = 0;
  std::unordered_map<uint32_t, uint64_t> split_io;
  // Threads: the level MPI provides, and the logs of the threads that record ([0] is `log`).
  int thread_level = MPI_THREAD_SINGLE;
  std::mutex mutex;
  EventLog* thread_logs[kMaxThreads] = {};
  std::atomic<int> threads{0};  // entries of thread_logs in use
  // Slots of threads that ended (their logs stay open): a thread that calls MPI later takes one
  // and goes on in that location, so that programs starting a thread per task never run out.
  std::vector<int> free_thread_slots;
  uint64_t reused_thread_slots = 0;
  size_t buffer_events = 0;  // capacity of each log
  // User and function regions (regions.cc): ids by the address of a user region's name
  // (usually a literal), by function address, and by name.
  std::unordered_map<const char*, uint32_t> region_by_address;
  std::unordered_map<void*, uint32_t> region_by_function;
  std::unordered_map<std::string, uint32_t> region_by_name;
  std::unordered_map<std::string, uint32_t> loop_regions;  // "loop:NAME", "iteration:NAME"
  // The next region id: user regions and functions take theirs on the thread that initialised
  // MPI, OpenMP constructs on any thread (omp_hooks.cc).
  std::atomic<uint32_t> next_region{kProgramRegion + 1};
  std::vector<Frame> frames;  // user regions and instrumented functions not yet left
  // What besides MPI is recorded (CAUSEWAY_RECORD: a comma-separated subset of "user" and
  // "functions"; both by default). MPI calls are always recorded.
  bool record_user_regions = true;
  bool record_functions = true;
  uint64_t unbalanced_regions = 0;  // ends that did not match the innermost open region
  // What OpenMP's recording left out (omp_hooks.cc): teams of one thread, and lock acquisitions
  // while the process had one OpenMP thread only.
  std::atomic<uint64_t> openmp_serial_teams{0};
  std::atomic<uint64_t> openmp_solo_locks{0};
  // The size limit (causeway trace --max-size, CAUSEWAY_MAX_SIZE bytes for all ranks): this
  // rank's share (0: unlimited), the bytes its logs may still write, and when they were spent.
  // Each thread then stops recording at its next call (StopAtSizeLimit in recorder.cc).
  uint64_t size_limit_share = 0;
  std::atomic<int64_t> bytes_left{0};
  std::atomic<bool> size_limit_reached{false};
  std::atomic<uint64_t> size_limit_time{0};
  // Polling compaction: unsuccessful polls of one thread closer than this many timer units are
  // folded into one call (CAUSEWAY_POLL_GAP nanoseconds; 0 switches compaction off).
  uint64_t poll_max_gap = 0;
  // How an exit before finalizing is noted: "exit without MPI_Finalize" (or shmem_finalize).
  const char* exit_without_finalize = nullptr;
};

// The recorder of this process (never destroyed: wrappers may run during exit).
State& S();

// The calling thread's state; only valid where Recording() said yes.
ThreadState& T();
// The calling thread's state, or nullptr if it does not record (async-signal-safe).
ThreadState* CurrentThread();

// Releases the lock a HookLock holds while a hook makes a call that waits for other processes
// (agreeing on a communicator's id): their threads may need the lock of their own process to
// get to the matching call.
class HookUnlock {
 public:
  HookUnlock();
  ~HookUnlock();
  HookUnlock(const HookUnlock&) = delete;
  HookUnlock& operator=(const HookUnlock&) = delete;

 private:
  bool unlocked_ = false;
};

// Appends one record stamped now, to the calling thread's log.
void Record(RawKind kind, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0, uint64_t x = 0,
            uint64_t y = 0, uint8_t op = 0);
// Appends one record stamped with the time the current call was entered (but never before the
// log's latest record, which may be a flush that came after the Enter).
void RecordAtEnter(RawKind kind, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0, uint64_t x = 0,
                   uint64_t y = 0);

// Records a call that began at `enter` and ends now (its Enter never before the log's latest
// record), on the calling thread's log.
void RecordCallAt(uint32_t region, uint64_t enter);

// Recording() for the OpenMP events of the calling thread (omp_hooks.cc): a thread of an OpenMP
// team gets a log of its own whatever MPI's thread level, since it records no MPI call.
bool RecordingOpenMp();

// True on the thread that initialised MPI while the recorder runs (without counting calls
// from other threads, as Recording() does). User regions and instrumented functions are
// recorded on that thread only.
bool RecordingHere();

// Ends the recording of a rank that ends without MPI_Finalize: writes every thread's events and
// notes `how` in the definitions (a line of raw_format.h's "how a rank ended").
void RecordEnding(const char* how);

// Leaves every user region and function still open (at MPI_Finalize), innermost first.
void CloseOpenRegions();

// The local id of `comm`, defining it on first use.
uint32_t CommId(MPI_Comm comm);
// The local id of the process group of these world ranks, defined on first use.
uint32_t GroupOfWorldRanks(const std::vector<int>& world);
// Gives `comm` a local id and writes its definition; `global` is the id its members agreed
// on, or -1 for a communicator causeway did not see being created (the exporter then unifies
// it by its members).
uint32_t DefineComm(MPI_Comm comm, long long global);

}  // namespace cw::measure::hook
