#include "measure/runtime/hooks.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <unordered_map>
#include <vector>

#include "measure/export/raw_export.h"
#include "measure/runtime/event_log.h"

namespace cw::measure::hook {
namespace {

enum class RequestKind : uint8_t { kSend, kReceive, kCollective };

// A request from its start to its completion (persistent ones until they are freed).
struct PendingRequest {
  uint64_t id = 0;
  uint32_t comm = 0;
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

// A message found by MPI_Mprobe/MPI_Improbe, until MPI_Mrecv/MPI_Imrecv takes it.
struct ProbedMessage {
  uint64_t handle = 0;
  uint32_t comm = 0;
};

// The recorder of this process. Only the thread that initialised MPI touches it (Recording()
// says no on every other thread), so it needs no locks.
struct State {
  bool started = false;
  bool finished = false;
  int rank = 0;
  int size = 1;
  std::string dir;
  EventLog log;
  MPI_Comm own = MPI_COMM_NULL;  // a duplicate of MPI_COMM_WORLD for causeway's own messages
  std::unordered_map<MPI_Comm, uint32_t> comms;
  uint32_t next_local_comm = 0;
  uint32_t next_global_comm = 1;  // 0 is MPI_COMM_WORLD
  std::unordered_map<MPI_Request, PendingRequest> requests;
  uint64_t next_request = 1;
  std::vector<MPI_Request> saved;
  std::unordered_map<MPI_Message, ProbedMessage> messages;
  uint64_t next_message = 1;
  ProbedMessage saved_message;
  std::vector<MPI_Status> status_buffer;
  uint64_t entered = 0;  // when the latest call was entered
};

State& S() {
  static State* state = new State();  // never destroyed: wrappers may run during exit
  return *state;
}

thread_local bool t_main_thread = false;
std::atomic<uint64_t> g_unrecorded_calls{0};

void Record(RawKind kind, uint32_t a = 0, uint32_t b = 0, uint32_t c = 0, uint64_t x = 0,
            uint64_t y = 0, uint8_t op = 0) {
  S().log.Append(RawEvent{Now(), kind, op, 0, a, b, c, x, y});
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

std::vector<int> WorldRanksOf(MPI_Comm comm) {
  int n = 0;
  PMPI_Comm_size(comm, &n);
  MPI_Group group, world;
  PMPI_Comm_group(comm, &group);
  PMPI_Comm_group(MPI_COMM_WORLD, &world);
  std::vector<int> local(static_cast<size_t>(n)), global(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) local[static_cast<size_t>(i)] = i;
  PMPI_Group_translate_ranks(group, n, local.data(), world, global.data());
  PMPI_Group_free(&group);
  PMPI_Group_free(&world);
  return global;
}

// Gives `comm` a local id and writes its definition; `global` is the id its members agreed
// on, or -1 for a communicator causeway did not see being created (the exporter then unifies
// it by its members).
uint32_t DefineComm(MPI_Comm comm, long long global) {
  State& s = S();
  const uint32_t local = s.next_local_comm++;
  s.comms[comm] = local;
  std::string line = "comm " + std::to_string(local) + " " + std::to_string(global);
  if (comm == MPI_COMM_WORLD) {
    line += " world";
  } else {
    std::vector<int> ranks = WorldRanksOf(comm);
    line += " " + std::to_string(ranks.size());
    for (int r : ranks) line += " " + std::to_string(r);
  }
  s.log.Define(line);
  return local;
}

uint32_t CommId(MPI_Comm comm) {
  State& s = S();
  auto it = s.comms.find(comm);
  if (it != s.comms.end()) return it->second;
  return DefineComm(comm, -1);
}

// Measures this rank's clock offset to rank 0 by ping-pong (the round trip with the smallest
// delay of a few) and writes it as a definition; the exporter interpolates between the offsets
// at Init and at Finalize.
void SyncClocks(const char* label) {
  State& s = S();
  constexpr int kRounds = 5;
  long long local = 0, offset = 0;
  if (s.rank == 0) {
    for (int r = 1; r < s.size; ++r) {
      uint64_t best_rtt = ~uint64_t{0};
      long long best[2] = {0, 0};
      for (int k = 0; k < kRounds; ++k) {
        uint64_t t0 = Now(), remote = 0;
        PMPI_Send(&t0, 1, MPI_UINT64_T, r, 1, s.own);
        PMPI_Recv(&remote, 1, MPI_UINT64_T, r, 2, s.own, MPI_STATUS_IGNORE);
        uint64_t t1 = Now();
        if (t1 - t0 < best_rtt) {
          best_rtt = t1 - t0;
          best[0] = static_cast<long long>(remote);
          best[1] = static_cast<long long>(remote) - static_cast<long long>(t0 + (t1 - t0) / 2);
        }
      }
      PMPI_Send(best, 2, MPI_LONG_LONG, r, 3, s.own);
    }
    local = static_cast<long long>(Now());
  } else {
    for (int k = 0; k < kRounds; ++k) {
      uint64_t t0 = 0;
      PMPI_Recv(&t0, 1, MPI_UINT64_T, 0, 1, s.own, MPI_STATUS_IGNORE);
      uint64_t now = Now();
      PMPI_Send(&now, 1, MPI_UINT64_T, 0, 2, s.own);
    }
    long long result[2];
    PMPI_Recv(result, 2, MPI_LONG_LONG, 0, 3, s.own, MPI_STATUS_IGNORE);
    local = result[0];
    offset = result[1];
  }
  s.log.Define(std::string("clock ") + label + " " + std::to_string(local) + " " +
               std::to_string(offset));
  // Rank 0 measures one rank after the other: without this barrier the ranks measured first
  // would leave MPI_Init early and wait in their first communication for those measured last,
  // a wait the program does not have.
  PMPI_Barrier(s.own);
}

// What was recorded reaches the disk however the process ends.
struct sigaction g_previous[65];
constexpr int kFatalSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTERM, SIGINT};

void OnFatalSignal(int sig) {
  State& s = S();
  if (s.started && !s.finished) {
    s.finished = true;
    s.log.FlushForCrash();
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
  sigaction(sig, &g_previous[sig], nullptr);
  raise(sig);
}

void OnExit() {
  State& s = S();
  if (!s.started || s.finished) return;
  s.finished = true;
  s.log.FlushForCrash();
  s.log.DefineForCrash("exit without MPI_Finalize");
}

void InstallHandlers() {
  for (int sig : kFatalSignals) {
    struct sigaction action;
    std::memset(&action, 0, sizeof action);
    action.sa_handler = OnFatalSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = 0;  // OnFatalSignal puts the previous handler back itself
    sigaction(sig, &action, &g_previous[sig]);
  }
  std::atexit(OnExit);
}

void Complete(MPI_Request handle, const MPI_Status* status) {
  State& s = S();
  if (handle == MPI_REQUEST_NULL) return;
  auto it = s.requests.find(handle);
  if (it == s.requests.end() || !it->second.active) return;
  const PendingRequest p = it->second;
  if (p.persistent) {
    it->second.active = false;
  } else {
    s.requests.erase(it);
  }
  switch (p.kind) {
    case RequestKind::kSend:
      Record(RawKind::kIsendComplete, 0, 0, 0, 0, p.id);
      return;
    case RequestKind::kCollective:
      Record(RawKind::kNonBlockingCollectiveComplete, p.comm, p.root, static_cast<uint32_t>(p.id),
             p.bytes, p.received, p.op);
      return;
    case RequestKind::kReceive:
      break;
  }
  int cancelled = 0;
  PMPI_Test_cancelled(status, &cancelled);
  if (cancelled) {
    Record(RawKind::kRequestCancelled, 0, 0, 0, 0, p.id);
    return;
  }
  if (status->MPI_SOURCE == MPI_PROC_NULL) return;
  int bytes = 0;
  PMPI_Get_count(status, MPI_BYTE, &bytes);
  Record(RawKind::kIrecv, p.comm, static_cast<uint32_t>(status->MPI_SOURCE),
         static_cast<uint32_t>(status->MPI_TAG), static_cast<uint64_t>(bytes), p.id);
}

void Tested() {
  State& s = S();
  for (MPI_Request handle : s.saved) {
    auto it = s.requests.find(handle);
    if (it != s.requests.end()) Record(RawKind::kRequestTest, 0, 0, 0, 0, it->second.id);
  }
}

}  // namespace

uint64_t Now() { return MonotonicNow(); }

bool Recording() {
  if (t_main_thread && S().started && !S().finished) return true;
  if (S().started && !S().finished) g_unrecorded_calls.fetch_add(1, std::memory_order_relaxed);
  return false;
}

CallScope::CallScope(MpiFunction f) : region_(static_cast<uint32_t>(f)) {
  State& s = S();
  s.entered = Now();
  s.log.Append(RawEvent{s.entered, RawKind::kEnter, 0, 0, region_, 0, 0, 0, 0});
}
CallScope::~CallScope() { Record(RawKind::kLeave, region_); }

void Started(MpiFunction init, uint64_t enter) {
  State& s = S();
  if (s.started) return;
  t_main_thread = true;
  PMPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &s.size);
  PMPI_Comm_dup(MPI_COMM_WORLD, &s.own);
  const char* dir = std::getenv("CAUSEWAY_DIR");
  s.dir = dir != nullptr && *dir != '\0' ? dir : "causeway-trace";
  ::mkdir(s.dir.c_str(), 0755);
  ::mkdir((s.dir + "/raw").c_str(), 0755);
  const uint64_t buffer_bytes = ParseSize(std::getenv("CAUSEWAY_BUFFER"), 16u << 20);
  if (!s.log.Open(RawEventsPath(s.dir, s.rank), RawDefsPath(s.dir, s.rank),
                  buffer_bytes / sizeof(RawEvent))) {
    if (s.rank == 0)
      std::fprintf(stderr, "causeway: cannot write the trace to %s; not recording\n",
                   s.dir.c_str());
    return;
  }
  char host[256] = "localhost";
  gethostname(host, sizeof host - 1);
  s.log.Define("rank " + std::to_string(s.rank) + " " + std::to_string(s.size) + " " + host);
  DefineComm(MPI_COMM_WORLD, 0);
  SyncClocks("init");
  s.started = true;
  s.log.Append(RawEvent{enter, RawKind::kEnter, 0, 0, kProgramRegion, 0, 0, 0, 0});
  s.log.Append(RawEvent{enter, RawKind::kEnter, 0, 0, static_cast<uint32_t>(init), 0, 0, 0, 0});
  Record(RawKind::kLeave, static_cast<uint32_t>(init));
  InstallHandlers();
}

void Finalizing(MpiFunction finalize) {
  State& s = S();
  if (!s.started || s.finished || !t_main_thread) return;
  const uint32_t region = static_cast<uint32_t>(finalize);
  Record(RawKind::kEnter, region);
  SyncClocks("finalize");
  Record(RawKind::kLeave, region);
  Record(RawKind::kLeave, kProgramRegion);
  s.finished = true;
  s.log.FlushForCrash();
  s.log.Define("end " + std::to_string(s.log.events()) + " " +
               std::to_string(g_unrecorded_calls.load()) + " " + std::to_string(s.log.flushes()) +
               " " + std::to_string(s.log.flush_nanoseconds()) + " " +
               (s.log.ok() ? "ok" : "lost"));
  s.log.Close();
  // Every rank's files are complete before rank 0 turns them into OTF2 (unless `causeway
  // trace` runs the program: it exports after the run, whether or not every rank got here).
  PMPI_Barrier(s.own);
  const char* exporter = std::getenv("CAUSEWAY_EXPORT");
  if (s.rank == 0 && !(exporter != nullptr && std::strcmp(exporter, "launcher") == 0)) {
    Result<ExportSummary> exported = ExportRawTrace(s.dir);
    if (!exported.has_value()) {
      std::fprintf(stderr, "causeway: writing the OTF2 trace failed: %s\n",
                   exported.error().message().c_str());
    }
  }
  PMPI_Comm_free(&s.own);
}

void Abort(MPI_Comm) {
  State& s = S();
  if (s.finished) return;
  s.finished = true;
  s.log.FlushForCrash();
  s.log.DefineForCrash("abort");
}

uint64_t Bytes(int count, MPI_Datatype type) {
  int size = 0;
  if (type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0;
  return count > 0 && size > 0 ? static_cast<uint64_t>(count) * static_cast<uint64_t>(size) : 0;
}
uint64_t CommSize(MPI_Comm comm) {
  int n = 0;
  PMPI_Comm_size(comm, &n);
  return static_cast<uint64_t>(n);
}
int CommRank(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}
uint64_t RootSends(MPI_Comm comm, int root, int count, MPI_Datatype type) {
  return CommRank(comm) == root ? Bytes(count, type) * CommSize(comm) : 0;
}
uint64_t NonRootReceives(MPI_Comm comm, int root, int count, MPI_Datatype type) {
  return CommRank(comm) == root ? 0 : Bytes(count, type);
}
uint64_t RootReceives(MPI_Comm comm, int root, int count, MPI_Datatype type) {
  return RootSends(comm, root, count, type);
}
uint64_t SumBytes(MPI_Comm comm, const int counts[], MPI_Datatype type) {
  if (counts == nullptr) return 0;
  uint64_t total = 0;
  const uint64_t n = CommSize(comm);
  for (uint64_t i = 0; i < n; ++i) total += Bytes(counts[i], type);
  return total;
}
uint64_t RootSendsV(MPI_Comm comm, int root, const int counts[], MPI_Datatype type) {
  return CommRank(comm) == root ? SumBytes(comm, counts, type) : 0;
}
uint64_t RootReceivesV(MPI_Comm comm, int root, const int counts[], MPI_Datatype type) {
  return RootSendsV(comm, root, counts, type);
}

void Send(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type) {
  if (dest == MPI_PROC_NULL) return;
  Record(RawKind::kSend, CommId(comm), static_cast<uint32_t>(dest), static_cast<uint32_t>(tag),
         Bytes(count, type));
}

void Recv(MPI_Comm comm, MPI_Datatype, const MPI_Status* status) {
  if (status->MPI_SOURCE == MPI_PROC_NULL) return;
  int bytes = 0;
  PMPI_Get_count(status, MPI_BYTE, &bytes);
  Record(RawKind::kRecv, CommId(comm), static_cast<uint32_t>(status->MPI_SOURCE),
         static_cast<uint32_t>(status->MPI_TAG), static_cast<uint64_t>(bytes));
}

void Isend(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type,
           const MPI_Request* request) {
  if (dest == MPI_PROC_NULL) return;
  State& s = S();
  const uint64_t id = s.next_request++;
  const uint32_t c = CommId(comm);
  PendingRequest p;
  p.id = id;
  p.comm = c;
  s.requests[*request] = p;
  Record(RawKind::kIsend, c, static_cast<uint32_t>(dest), static_cast<uint32_t>(tag),
         Bytes(count, type), id);
}

void Irecv(MPI_Comm comm, MPI_Datatype, const MPI_Request* request) {
  State& s = S();
  const uint64_t id = s.next_request++;
  PendingRequest p;
  p.id = id;
  p.comm = CommId(comm);
  p.kind = RequestKind::kReceive;
  s.requests[*request] = p;
  Record(RawKind::kIrecvRequest, 0, 0, 0, 0, id);
}

void SendInit(MPI_Comm comm, int dest, int tag, int count, MPI_Datatype type,
              const MPI_Request* request) {
  State& s = S();
  PendingRequest p;
  p.id = s.next_request++;
  p.comm = CommId(comm);
  p.persistent = true;
  p.active = false;
  p.peer = dest == MPI_PROC_NULL ? kNoRank : static_cast<uint32_t>(dest);
  p.tag = static_cast<uint32_t>(tag);
  p.bytes = Bytes(count, type);
  s.requests[*request] = p;
}

void RecvInit(MPI_Comm comm, const MPI_Request* request) {
  State& s = S();
  PendingRequest p;
  p.id = s.next_request++;
  p.comm = CommId(comm);
  p.kind = RequestKind::kReceive;
  p.persistent = true;
  p.active = false;
  s.requests[*request] = p;
}

void StartRequests(int count, const MPI_Request* requests) {
  State& s = S();
  for (int i = 0; i < count; ++i) {
    auto it = s.requests.find(requests[i]);
    if (it == s.requests.end() || !it->second.persistent) continue;
    PendingRequest& p = it->second;
    if (p.kind == RequestKind::kSend && p.peer == kNoRank) continue;  // to MPI_PROC_NULL
    p.active = true;
    if (p.kind == RequestKind::kSend) {
      Record(RawKind::kIsend, p.comm, p.peer, p.tag, p.bytes, p.id);
    } else {
      Record(RawKind::kIrecvRequest, 0, 0, 0, 0, p.id);
    }
  }
}

void Probed(MPI_Comm comm, const MPI_Status* status) {
  if (status->MPI_SOURCE == MPI_PROC_NULL) return;
  Record(RawKind::kProbeFound, CommId(comm), static_cast<uint32_t>(status->MPI_SOURCE),
         static_cast<uint32_t>(status->MPI_TAG), 0, 0);
}

void IProbed(MPI_Comm comm, const int* flag, const MPI_Status* status) {
  if (*flag) Probed(comm, status);
}

void MProbed(MPI_Comm comm, const MPI_Message* message, const MPI_Status* status) {
  State& s = S();
  if (*message == MPI_MESSAGE_NULL || *message == MPI_MESSAGE_NO_PROC) return;
  const ProbedMessage m{s.next_message++, CommId(comm)};
  s.messages[*message] = m;
  Record(RawKind::kProbeFound, m.comm, static_cast<uint32_t>(status->MPI_SOURCE),
         static_cast<uint32_t>(status->MPI_TAG), 0, m.handle);
}

void IMProbed(MPI_Comm comm, const int* flag, const MPI_Message* message,
              const MPI_Status* status) {
  if (*flag) MProbed(comm, message, status);
}

void SaveMessage(const MPI_Message* message) {
  State& s = S();
  s.saved_message = ProbedMessage{0, CommId(MPI_COMM_WORLD)};
  auto it = s.messages.find(*message);
  if (it == s.messages.end()) return;
  s.saved_message = it->second;
  s.messages.erase(it);
}

void MRecv(const MPI_Status* status) {
  State& s = S();
  if (status->MPI_SOURCE == MPI_PROC_NULL) return;
  int bytes = 0;
  PMPI_Get_count(status, MPI_BYTE, &bytes);
  Record(RawKind::kRecv, s.saved_message.comm, static_cast<uint32_t>(status->MPI_SOURCE),
         static_cast<uint32_t>(status->MPI_TAG), static_cast<uint64_t>(bytes),
         s.saved_message.handle);
}

void IMRecv(const MPI_Request* request) {
  State& s = S();
  PendingRequest p;
  p.id = s.next_request++;
  p.comm = s.saved_message.comm;
  p.kind = RequestKind::kReceive;
  s.requests[*request] = p;
  Record(RawKind::kIrecvRequest, 0, 0, static_cast<uint32_t>(s.saved_message.handle), 0, p.id);
}

void CollStarted(OTF2_CollectiveOp op, MPI_Comm comm, uint32_t root, uint64_t sent,
                 uint64_t received, const MPI_Request* request) {
  State& s = S();
  PendingRequest p;
  p.id = s.next_request++;
  p.comm = CommId(comm);
  p.kind = RequestKind::kCollective;
  p.root = root;
  p.bytes = sent;
  p.received = received;
  p.op = static_cast<uint8_t>(op);
  s.requests[*request] = p;
  Record(RawKind::kNonBlockingCollectiveRequest, 0, 0, 0, 0, p.id);
}

void SaveRequests(int count, const MPI_Request* requests) {
  State& s = S();
  s.saved.assign(requests, requests + (count > 0 ? count : 0));
}

void CompleteAll(int count, const MPI_Status* statuses) {
  State& s = S();
  for (int i = 0; i < count && static_cast<size_t>(i) < s.saved.size(); ++i)
    Complete(s.saved[static_cast<size_t>(i)], &statuses[i]);
}

void CompleteOne(const int* index, const MPI_Status* status) {
  State& s = S();
  if (*index == MPI_UNDEFINED || *index < 0 || static_cast<size_t>(*index) >= s.saved.size())
    return;
  Complete(s.saved[static_cast<size_t>(*index)], status);
}

void CompleteSome(const int* outcount, const int indices[], const MPI_Status statuses[]) {
  State& s = S();
  if (*outcount == MPI_UNDEFINED) return;
  for (int k = 0; k < *outcount; ++k) {
    const int i = indices[k];
    if (i >= 0 && static_cast<size_t>(i) < s.saved.size())
      Complete(s.saved[static_cast<size_t>(i)], &statuses[k]);
  }
}

void TestAll(int count, const int* flag, const MPI_Status* statuses) {
  if (*flag) {
    CompleteAll(count, statuses);
  } else {
    Tested();
  }
}

void TestOne(const int* index, const int* flag, const MPI_Status* status) {
  if (*flag && *index != MPI_UNDEFINED) {
    CompleteOne(index, status);
  } else if (!*flag) {
    Tested();
  }
}

void Cancel(const MPI_Request*) {}

// A freed request is forgotten: an active non-persistent one completes unobserved (MPI allows
// it), and its completion is not recorded.
void RequestFree(const MPI_Request* request) {
  State& s = S();
  if (request != nullptr) s.requests.erase(*request);
}

MPI_Status* StatusBuffer(int count) {
  State& s = S();
  if (s.status_buffer.size() < static_cast<size_t>(count > 0 ? count : 1))
    s.status_buffer.resize(static_cast<size_t>(count > 0 ? count : 1));
  return s.status_buffer.data();
}

// Stamped with the Enter's time, as Score-P stamps it: the operation begins when its call does.
void CollBegin() {
  S().log.Append(RawEvent{S().entered, RawKind::kCollectiveBegin, 0, 0, 0, 0, 0, 0, 0});
}

void CollEnd(OTF2_CollectiveOp op, MPI_Comm comm, uint32_t root, uint64_t sent, uint64_t received) {
  Record(RawKind::kCollectiveEnd, CommId(comm), root, 0, sent, received, static_cast<uint8_t>(op));
}

void CommCreated(MPI_Comm, const MPI_Comm* created) {
  State& s = S();
  if (created == nullptr || *created == MPI_COMM_NULL) return;
  unsigned proposal = s.next_global_comm, agreed = 0;
  PMPI_Allreduce(&proposal, &agreed, 1, MPI_UNSIGNED, MPI_MAX, *created);
  s.next_global_comm = agreed + 1;
  DefineComm(*created, agreed);
}

void CommFreed(const MPI_Comm* comm) {
  if (comm != nullptr) S().comms.erase(*comm);
}

}  // namespace cw::measure::hook
