// The state libcauseway-tag.so keeps per process (private to measure/tag_runtime): the graph's
// segment and its writer, the call being recorded, the requests from their start to their
// completion, the piggybacks, the open user regions and loops.
#pragma once

#include <mpi.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "measure/core/request_queues.h"
#include "measure/tag_runtime/call_paths.h"
#include "measure/tag_runtime/piggyback.h"
#include "measure/tag_segment/segment_writer.h"
#include "measure/wrappers/mpi_functions.gen.h"

namespace cw::measure::tag_runtime {

using tag_segment::kNone;

enum class RequestKind : uint8_t { kSend, kReceive, kCollective, kUntraced };

// A request from the call that started it to the one that completed it.
struct Request {
  RequestKind kind = RequestKind::kSend;
  bool persistent = false;
  bool active = true;
  uint32_t node = kNone;  // the node of the call that started it (kNone off the graph)
  uint64_t started = 0;   // when that call returned
  uint64_t order = 0;     // posting order: receives complete in it (see CompleteRequests)
  MPI_Comm comm = MPI_COMM_NULL;
  int dest = MPI_PROC_NULL;  // persistent sends: what each MPI_Start sends
  int tag = 0;
  uint64_t bytes = 0;
};

using RequestTable = RequestQueues<Request>;

// What a call's hooks learnt for the graph, written when the call ends (CallScope).
struct PendingIn {
  uint32_t node;    // the receiving node (a non-blocking receive's posting call)
  uint32_t peer;    // world rank
  uint32_t sender;  // the sender's node
  tag_segment::Via via;
  uint64_t bytes;
  int64_t sender_entry;  // on rank 0's clock
};
struct PendingOut {
  uint32_t peer;
  uint64_t bytes;
};
struct PendingCompletion {
  uint32_t start;
  uint64_t started;
};

struct Call {
  bool open = false;
  uint32_t node = kNone;  // the activity: this call's node, or the enclosing region's
  bool inside_region = false;
  uint64_t entry = 0;  // when the program called (its piggybacks carry this)
  uint64_t start = 0;  // when the PMPI call began (after the tool's work before it)
  uint64_t exit = 0;   // when the PMPI call returned
  std::vector<PendingIn> in;
  std::vector<PendingOut> out;
  std::vector<PendingCompletion> completions;
};

// A user region that is an activity of its own (CAUSEWAY_TAG_REGIONS): the MPI calls inside
// it are part of it, as in an offline graph built with --region.
struct RegionActivity {
  uint32_t node = kNone;
  uint32_t name = kNone;
  uint64_t entry = 0;
  std::vector<PendingIn> in;
  std::vector<PendingOut> out;
  std::vector<PendingCompletion> completions;
};

struct OpenLoop {
  uint32_t name;
  uint32_t entry_node;
};

// A collective's piggyback exchange in flight (tag_collectives.cc): the links it gives, written
// when it completes.
struct PendingLinks {
  MPI_Request request = MPI_REQUEST_NULL;
  uint64_t start = 0;  // the collective call's own time, start to exit
  MPI_Comm comm = MPI_COMM_NULL;
  Piggyback mine;              // sent (gather) or, at a one-to-all member, the root's received
  std::vector<Piggyback> all;  // the gatherer's: one per rank of the communicator
  bool link = false;           // a one-to-all member's link to the root (else the root's list)
  int root = 0;                // the root or gatherer's rank in the communicator
  bool write = false;          // on the graph's thread, at a member that gets links
  uint32_t node = kNone;
  uint64_t entry = 0;
  uint64_t exit = 0;
  uint64_t received = 0;
};

// The node the last call path led to (NodeHere).
struct RecentPath {
  tag_segment::NodeKind kind = tag_segment::NodeKind::kMpi;
  uint32_t name = kNone;
  uint32_t node = kNone;
  uint32_t count = 0;
  Frame frames[kMaxFrames];
  void Remember(tag_segment::NodeKind k, uint32_t n, const Frame* f, uint32_t c, uint32_t id) {
    kind = k;
    name = n;
    node = id;
    count = c;
    std::memcpy(frames, f, c * sizeof(Frame));
  }
};

struct State {
  std::atomic<bool> started{false};
  std::atomic<bool> finished{false};
  int rank = 0;
  int size = 1;
  int thread_level = MPI_THREAD_SINGLE;
  std::mutex mutex;  // the hooks' (HookLock) under MPI_THREAD_MULTIPLE
  // MPI calls of threads other than the graph's (their piggybacks travel; the calls are not in
  // the graph), written to the segment's header when the graph ends.
  std::atomic<uint64_t> other_thread_calls{0};
  std::string dir;  // DIR/tag
  // The segment: a file mapped shared.
  void* segment = nullptr;
  uint64_t segment_bytes = 0;
  std::unique_ptr<tag_segment::SegmentWriter> writer;
  std::unique_ptr<CallPaths> paths;
  Piggybacks piggybacks;
  int64_t clock_offset = 0;  // this clock minus rank 0's, in ticks
  uint32_t names[kMpiFunctionCount] = {};
  Call call;
  RecentPath recent;
  // Oldest first; a list, so that the buffers of the exchanges in flight never move.
  std::list<PendingLinks> links;
  RequestTable requests;
  uint64_t next_order = 0;
  std::vector<MPI_Request> saved;               // handles as they were before a completion call
  std::vector<std::pair<uint64_t, int>> order;  // completed requests by posting order
  std::vector<MPI_Status> status_buffer;
  MPI_Message saved_message = MPI_MESSAGE_NULL;
  std::unordered_map<MPI_Message, MPI_Comm> messages;  // matched probes: their communicator
  std::vector<OpenRegion> regions;
  std::vector<std::string> region_patterns;  // CAUSEWAY_TAG_REGIONS
  RegionActivity region_activity;
  uint32_t region_activity_depth = 0;  // nesting of regions inside the activity
  std::vector<OpenLoop> loops;
  uint64_t calls_since_calibration = 0;
  // The module ranges /proc/self/maps listed when DIR/tag/rank-<r>.maps was last written: a
  // new node with a return address outside them writes the file again (a library loaded
  // later).
  std::vector<std::pair<uintptr_t, uintptr_t>> mapped;
};

State& S();
// True on the thread that initialised MPI while the graph is recorded.
bool OnGraphThread();
// Ticks on rank 0's clock.
inline int64_t OnRankZeroClock(uint64_t ticks) {
  return static_cast<int64_t>(ticks) - S().clock_offset;
}

// The node of `kind` and `name` at the caller's call path (frames captured now); kNone if it
// does not fit. Must run outside an update (it opens its own if it creates the node).
uint32_t NodeHere(tag_segment::NodeKind kind, uint32_t name);

// Writes what an activity's hooks gathered (inside an update): its outgoing and incoming
// message edges and the completion edges to the calls that began the requests it completed,
// with the activity's time from `entry` to `exit`.
// `entry`: when the program entered the activity (compared with the senders' entries); `start`
// to `exit`: the activity's own time.
void WritePending(uint32_t node, uint64_t entry, uint64_t start, uint64_t exit,
                  const std::vector<PendingIn>& in, const std::vector<PendingOut>& out,
                  const std::vector<PendingCompletion>& completions);

// The activity's steps of the current iterations' causal paths (inside an update): the
// partner of each message it sent, then of each point-to-point message it received, or one
// step without a partner.
void WriteSteps(uint32_t node, const std::vector<PendingIn>& in,
                const std::vector<PendingOut>& out);

// Completes the collectives' piggyback exchanges that have completed (all of them, waiting, if
// `wait`; only those on `comm` if it is not MPI_COMM_NULL) and writes their links.
void CompleteLinks(bool wait, MPI_Comm comm = MPI_COMM_NULL);

// Writes the ended graph: the end node and how the program ended.
void EndGraph(tag_segment::RunState state, int signal = 0);

}  // namespace cw::measure::tag_runtime
