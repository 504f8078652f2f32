// Hand-built MPI traces with exact timestamps, written through the real OTF2 writer.
//
// Tests describe what each rank did, call by call; Write() produces an OTF2 archive that the
// tests then read with otf2::ReadTrace like any Score-P trace. Region definitions follow
// Score-P's conventions (paradigm MPI and source file "MPI" for MPI calls), so the reader
// classifies them as it classifies real traces. The default clock has 1 tick per second, so
// expected values read as plain numbers of seconds. Loops are written as causeway's loop API
// records them: a region named "loop:NAME" is the loop NAME (role loop), and "NAME iteration"
// its iteration marker (an artificial region of the user's).
//
//   Scenario s(2);
//   s.rank(0).Enter(0, "main").Send(5, 6, /*to=*/1, /*tag=*/7, /*bytes=*/8).Leave(10, "main");
//   s.rank(1).Enter(0, "main").Recv(1, 6, /*from=*/0, 7, 8).Leave(10, "main");
//   std::string anchor = s.WriteOrDie(dir);   // then otf2::ReadTrace(anchor, {})
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <otf2/otf2.h>

#include "testing/temp_dir.h"

namespace cw::testing {

class Scenario;
class ScenarioWriter;

// The events of one rank (one location), appended in time order.
class RankScript {
 public:
  RankScript& Enter(uint64_t t, const std::string& region);
  RankScript& Leave(uint64_t t, const std::string& region);
  RankScript& MeasurementOnOff(uint64_t t, bool on);
  // Enter and Leave of region id `region` whether or not it is defined (damaged traces).
  RankScript& EnterRegionId(uint64_t t, uint32_t region);
  RankScript& LeaveRegionId(uint64_t t, uint32_t region);

  // Raw MPI records (inside an Enter/Leave of the call written separately).
  RankScript& SendEvent(uint64_t t, int to, uint32_t tag, uint64_t bytes, uint32_t comm = 0);
  RankScript& IsendEvent(uint64_t t, int to, uint32_t tag, uint64_t bytes, uint64_t request,
                         uint32_t comm = 0);
  RankScript& IsendCompleteEvent(uint64_t t, uint64_t request);
  RankScript& IrecvRequestEvent(uint64_t t, uint64_t request);
  RankScript& RecvEvent(uint64_t t, int from, uint32_t tag, uint64_t bytes, uint32_t comm = 0);
  RankScript& IrecvEvent(uint64_t t, int from, uint32_t tag, uint64_t bytes, uint64_t request,
                         uint32_t comm = 0);
  RankScript& RequestCancelledEvent(uint64_t t, uint64_t request);
  RankScript& CollectiveBeginEvent(uint64_t t);
  RankScript& CollectiveEndEvent(uint64_t t, OTF2_CollectiveOp op, uint32_t comm, uint32_t root,
                                 uint64_t sent, uint64_t received);
  // Non-blocking collectives: the request record in the starting call (MPI_Ibarrier, ...), the
  // completion record in the call that completes it (MPI_Wait, ...). MPI_Ialltoallv/w and
  // MPI_Iallgatherv as causeway's tracer records them name the processes that send this rank
  // data in the request record (`senders`, a group from Scenario::AddGroup; see VCollective).
  RankScript& NbcRequestEvent(uint64_t t, uint64_t request);
  RankScript& NbcRequestEvent(uint64_t t, uint64_t request, uint32_t senders);
  RankScript& NbcCompleteEvent(uint64_t t, OTF2_CollectiveOp op, uint32_t comm, uint32_t root,
                               uint64_t sent, uint64_t received, uint64_t request);

  // Whole calls as Score-P records them: Enter, the MPI record(s), Leave.
  // Blocking send: the send record at the Enter time.
  RankScript& Send(uint64_t enter, uint64_t leave, int to, uint32_t tag, uint64_t bytes,
                   const std::string& call = "MPI_Send", uint32_t comm = 0);
  // Blocking receive: the receive record at the Leave time.
  RankScript& Recv(uint64_t enter, uint64_t leave, int from, uint32_t tag, uint64_t bytes,
                   uint32_t comm = 0);
  RankScript& Sendrecv(uint64_t enter, uint64_t leave, int to, uint32_t send_tag, int from,
                       uint32_t recv_tag, uint64_t bytes, uint32_t comm = 0);
  RankScript& Isend(uint64_t enter, uint64_t leave, int to, uint32_t tag, uint64_t bytes,
                    uint64_t request, const std::string& call = "MPI_Isend", uint32_t comm = 0);
  RankScript& Irecv(uint64_t enter, uint64_t leave, uint64_t request);
  // A completion call (MPI_Wait, MPI_Waitall, MPI_Test, ...) whose records are written by
  // `records` at the Leave time, e.g. [&](RankScript& r) { r.IrecvEvent(9, 0, 1, 8, 3); }.
  RankScript& Complete(uint64_t enter, uint64_t leave, const std::string& call,
                       const std::function<void(RankScript&)>& records);
  // A blocking collective: Enter, CollectiveBegin at enter, CollectiveEnd at leave, Leave.
  RankScript& Collective(uint64_t enter, uint64_t leave, const std::string& call,
                         OTF2_CollectiveOp op, uint64_t sent, uint64_t received,
                         uint32_t root = OTF2_UNDEFINED_UINT32, uint32_t comm = 0);
  // MPI_Alltoallv or MPI_Alltoallw as causeway's tracer records it: a blocking collective whose
  // CollectiveEnd names the processes that send this rank data (`senders`, a group from
  // Scenario::AddGroup) in the attribute causeway::senders (trace/collective_senders.h).
  RankScript& VCollective(uint64_t enter, uint64_t leave, const std::string& call,
                          OTF2_CollectiveOp op, uint64_t sent, uint64_t received, uint32_t senders,
                          uint32_t comm = 0);
  // An RMA collective on window `window` (MPI_Win_fence with OTF2_COLLECTIVE_OP_BARRIER,
  // window creation with CREATE_HANDLE, freeing with DESTROY_HANDLE): Enter, RmaCollectiveBegin
  // at enter, RmaCollectiveEnd at leave, Leave.
  RankScript& RmaCollective(uint64_t enter, uint64_t leave, const std::string& call,
                            OTF2_CollectiveOp op, uint32_t window,
                            uint32_t root = OTF2_UNDEFINED_UINT32, uint64_t sent = 0,
                            uint64_t received = 0);
  // General active-target synchronisation on `window` (MPI_Win_post, MPI_Win_start,
  // MPI_Win_complete, MPI_Win_wait, MPI_Win_test): Enter, `records` (e.g. completions),
  // RmaGroupSync over `group` (an id from Scenario::AddGroup) at leave, Leave.
  RankScript& RmaGroupSync(uint64_t enter, uint64_t leave, const std::string& call, uint32_t window,
                           uint32_t group, const std::function<void(RankScript&)>& records = {});
  // A one-sided transfer to rank `target` of the window's communicator: Enter, RmaGet (call
  // "MPI_Get") or RmaPut (any other call) at enter, Leave. `matching` ties it to its
  // completion (RmaOpCompleteEvent).
  RankScript& RmaTransfer(uint64_t enter, uint64_t leave, const std::string& call, uint32_t window,
                          uint32_t target, uint64_t bytes, uint64_t matching);
  RankScript& RmaOpCompleteEvent(uint64_t t, uint32_t window, uint64_t matching);
  // The remote completion of a transfer (RmaOpCompleteRemote), as Score-P writes it in the
  // MPI_Win_flush (or unlock) that completes the transfer at its target.
  RankScript& RmaOpCompleteRemoteEvent(uint64_t t, uint32_t window, uint64_t matching);
  // MPI_Win_lock (or lock_all with target OTF2_UNDEFINED_UINT32): Enter, RmaRequestLock at
  // enter, RmaAcquireLock at leave, Leave.
  RankScript& RmaLock(uint64_t enter, uint64_t leave, const std::string& call, uint32_t window,
                      uint32_t target, uint64_t lock, bool exclusive);
  // MPI_Win_unlock (or unlock_all): Enter, `records` (e.g. completions), RmaReleaseLock at
  // leave, Leave.
  RankScript& RmaUnlock(uint64_t enter, uint64_t leave, const std::string& call, uint32_t window,
                        uint32_t target, uint64_t lock,
                        const std::function<void(RankScript&)>& records = {});
  // OpenSHMEM, as causeway's tracer and Score-P record it (routines named shmem_* are regions of
  // the SHMEM paradigm; barriers and collectives are RmaCollective calls on a window from
  // Scenario::AddShmemWindow, locks RmaLock/RmaUnlock with target OTF2_UNDEFINED_UINT32).
  // A blocking put (or writing atomic) to PE `target`: Enter, RmaPut at enter, its completion at
  // leave, Leave.
  RankScript& ShmemPut(uint64_t enter, uint64_t leave, const std::string& call, uint32_t window,
                       uint32_t target, uint64_t bytes, uint64_t matching);
  // shmem_wait_until: Enter, RmaWaitChange at enter, Leave.
  RankScript& ShmemWaitUntil(uint64_t enter, uint64_t leave, uint32_t window,
                             const std::string& call = "shmem_int_wait_until");
  // A probe that found the message (from, tag) as causeway's tracer records it: Enter, and a
  // Leave with the probe attributes (trace/probe_attributes.h); `handle` is 0 for MPI_Probe and
  // MPI_Iprobe, the message handle id for MPI_Mprobe/MPI_Improbe. A probe as Score-P records it
  // (no attributes) is a plain Call(enter, leave, "MPI_Probe").
  RankScript& Probe(uint64_t enter, uint64_t leave, int from, uint32_t tag, uint64_t handle = 0,
                    const std::string& call = "MPI_Probe", uint32_t comm = 0);
  // MPI_Mrecv of a matched message: the receive record at the Leave time, carrying the message
  // handle id (no attribute if `handle` is 0, as Score-P writes it).
  RankScript& Mrecv(uint64_t enter, uint64_t leave, int from, uint32_t tag, uint64_t bytes,
                    uint64_t handle, uint32_t comm = 0);
  // Any call without records (MPI_Init, MPI_Finalize, MPI_Comm_rank, a user function).
  RankScript& Call(uint64_t enter, uint64_t leave, const std::string& region);

  // OpenMP as Score-P records it (its Opari2 adapter): a region named "!$omp CONSTRUCT..." is an
  // OpenMP construct whose role the construct names ("!$omp parallel", "!$omp for", "!$omp
  // barrier", "!$omp implicit barrier", "!$omp critical", "!$omp critical sblock", "!$omp
  // ordered", "!$omp taskwait", "!$omp flush", "!$omp single", "!$omp master", "!$omp task"),
  // and omp_set_lock, omp_unset_lock, ... are the OpenMP lock routines. Threads are
  // Scenario::thread; Fork and Join are the master's, TeamBegin and TeamEnd every team
  // member's (on its rank's thread team).
  RankScript& Fork(uint64_t t, uint32_t threads);
  RankScript& Join(uint64_t t);
  RankScript& TeamBegin(uint64_t t);
  RankScript& TeamEnd(uint64_t t);
  // A team member's part of a parallel region: TeamBegin and Enter of "!$omp parallel" at
  // `begin`, what `body` records, Leave and TeamEnd at `end`.
  RankScript& TeamMember(uint64_t begin, uint64_t end, const std::function<void()>& body);
  // A lock of the process (`lock` its id, a critical section's or an omp_lock_t's) acquired or
  // released the `order`-th time.
  RankScript& AcquireLock(uint64_t t, uint32_t lock, uint32_t order);
  RankScript& ReleaseLock(uint64_t t, uint32_t lock, uint32_t order);

 private:
  friend class Scenario;
  friend class ScenarioWriter;  // scenario_writer.h: writes the records
  struct Record {
    enum Kind : uint8_t {
      kEnter,
      kLeave,
      kEnterId,
      kLeaveId,
      kOnOff,
      kSend,
      kIsend,
      kIsendComplete,
      kIrecvRequest,
      kRecv,
      kIrecv,
      kCancelled,
      kCollBegin,
      kCollEnd,
      kNbcRequest,
      kNbcComplete,
      kRmaCollBegin,
      kRmaCollEnd,
      kRmaGroupSync,
      kRmaPut,
      kRmaGet,
      kRmaOpComplete,
      kRmaOpCompleteRemote,
      kRmaRequestLock,
      kRmaAcquireLock,
      kRmaReleaseLock,
      kRmaWaitChange,
      kFork,
      kJoin,
      kTeamBegin,
      kTeamEnd,
      kAcquireLock,
      kReleaseLock,
    };
    Record(Kind k, uint64_t t, std::string name) : kind(k), time(t), region(std::move(name)) {}
    Kind kind;
    uint64_t time;
    std::string region;
    int peer = 0;
    uint32_t tag = 0;
    uint64_t bytes = 0;
    uint64_t request = 0;
    uint32_t comm = 0;  // or the window of RMA records
    uint32_t root = OTF2_UNDEFINED_UINT32;
    uint32_t group = 0;      // RmaGroupSync: Scenario::AddGroup id; CollEnd: senders' id + 1
    bool exclusive = false;  // lock records
    uint64_t received = 0;
    OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_BARRIER;
    std::vector<std::pair<std::string, uint64_t>> attributes;  // (name, value), as uint64
  };
  RankScript& Add(Record record);
  RankScript& ThreadLock(Record::Kind kind, uint64_t t, uint32_t lock, uint32_t order);
  std::vector<Record> records_;
};

class Scenario {
 public:
  // `ranks` MPI processes, one location each; communicator 0 is MPI_COMM_WORLD.
  explicit Scenario(int ranks, uint64_t ticks_per_second = 1);

  RankScript& rank(int r) { return ranks_.at(static_cast<size_t>(r)); }
  // Thread `t` of rank `r` (0: its master, rank(r)); threads are made as they are asked for
  // (thread(0, 3) makes threads 1 to 3 of rank 0), each a location of the rank's process
  // ("OMP thread t"), defined after every rank's master, in rank and thread order.
  RankScript& thread(int r, int t);
  int size() const { return static_cast<int>(ranks_.size()); }

  // Defines a sub-communicator of the given world ranks and returns its id for the records.
  uint32_t AddComm(const std::vector<int>& world_ranks);
  // Defines an RMA window over communicator `comm` and returns its id (from 0).
  uint32_t AddWindow(uint32_t comm);
  // Defines an OpenSHMEM window (the symmetric heap as an active set of PEs, world ranks, sees
  // it) over a communicator of the SHMEM paradigm, and returns its id (windows share the ids).
  uint32_t AddShmemWindow(const std::vector<int>& pes);
  // Defines an MPI group of world ranks (for RmaGroupSync) and returns its id for the records.
  uint32_t AddGroup(const std::vector<int>& world_ranks);

  // Damage and oddities for tests of hostile traces: the anchor's creator string, clock offset
  // records in a rank's local definitions, a rank's location put in location group `group`
  // (an undefined one if >= the rank count), and a declared event count that is not the number
  // written.
  void set_creator(std::string creator) { creator_ = std::move(creator); }
  void AddClockOffset(int rank, uint64_t time, int64_t offset) {
    clock_offsets_.push_back({rank, time, offset});
  }
  void set_location_group(int rank, uint32_t group) { group_override_[rank] = group; }
  void DeclareEventCount(int rank, uint64_t events) { declared_events_[rank] = events; }
  // Defines `rank`'s location under the OTF2 id `id` (damaged: another location may have it).
  void set_location_id(int rank, uint64_t id) { location_id_override_[rank] = id; }
  // The machine and node of the system tree each other's parent: no root reaches them.
  void set_system_tree_cycle() { system_tree_cycle_ = true; }
  // The clock properties' global offset (0 unless set).
  void set_global_offset(uint64_t offset) { global_offset_ = offset; }
  // Notes how `rank`'s recording ended, as causeway's tracer does ("finalized", "abort", ...).
  void set_rank_ending(int rank, std::string how) { rank_endings_[rank] = std::move(how); }

  // Writes the archive into `directory` and returns the anchor path; aborts the test binary on
  // a writer failure (a broken test, not a finding).
  std::string WriteOrDie(const std::string& directory) const;

 private:
  uint64_t ticks_per_second_;
  std::vector<RankScript> ranks_;
  std::map<int, std::deque<RankScript>> threads_;  // threads 1.. of a rank
  std::vector<std::vector<int>> comms_;
  struct WindowDef {
    uint32_t comm = 0;           // MPI windows
    std::vector<int> shmem_pes;  // OpenSHMEM windows (non-empty)
  };
  std::vector<WindowDef> windows_;
  std::vector<std::vector<int>> groups_;
  std::string creator_ = "causeway tests";
  struct ClockOffset {
    int rank;
    uint64_t time;
    int64_t offset;
  };
  std::vector<ClockOffset> clock_offsets_;
  std::map<int, uint32_t> group_override_;
  std::map<int, uint64_t> declared_events_;
  std::map<int, uint64_t> location_id_override_;
  bool system_tree_cycle_ = false;
  uint64_t global_offset_ = 0;
  std::map<int, std::string> rank_endings_;
};

}  // namespace cw::testing
