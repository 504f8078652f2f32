// The graph's life: started when MPI_Init returns, ended in MPI_Finalize, by MPI_Abort, an exit
// without MPI_Finalize or a fatal signal; the segment file and the memory map beside it.
#include "measure/tag_runtime/tag_state.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

#include "measure/core/clock_offset.h"
#include "measure/core/patterns.h"
#include "measure/core/process_end.h"
#include "measure/core/timer.h"
#include "measure/tag_runtime/tag_hooks.h"

namespace cw::measure::tag_runtime {
namespace {

// initial-exec: the library is loaded at start-up (LD_PRELOAD), so its thread-local data is in
// the static TLS block and read without a call to __tls_get_addr on every MPI call.
thread_local bool t_graph_thread __attribute__((tls_model("initial-exec"))) = false;

std::string SegmentPath(const State& s) {
  return s.dir + "/rank-" + std::to_string(s.rank) + ".seg";
}
std::string MapsPath(const State& s) { return s.dir + "/rank-" + std::to_string(s.rank) + ".maps"; }

// Copies /proc/self/maps beside the segment (what `causeway tag` needs to name the return
// addresses) and notes the executable ranges it lists.
void WriteMaps(State& s) {
  std::string text;
  if (FILE* in = std::fopen("/proc/self/maps", "r")) {
    char buffer[4096];
    size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, in)) > 0) text.append(buffer, n);
    std::fclose(in);
  }
  const std::string path = MapsPath(s), temporary = path + ".new";
  if (FILE* out = std::fopen(temporary.c_str(), "w")) {
    std::fwrite(text.data(), 1, text.size(), out);
    std::fclose(out);
    std::rename(temporary.c_str(), path.c_str());
  }
  s.mapped.clear();
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    unsigned long begin = 0, end = 0;
    char perms[8] = {};
    if (std::sscanf(line.c_str(), "%lx-%lx %7s", &begin, &end, perms) == 3 && perms[2] == 'x') {
      s.mapped.emplace_back(begin, end);
    }
  }
}

bool Mapped(const State& s, uint64_t address) {
  for (const auto& [begin, end] : s.mapped) {
    if (address >= begin && address < end) return true;
  }
  return false;
}

void OnFatalSignal(int sig) { EndGraph(tag_segment::RunState::kSignalled, sig); }
void OnExit() { EndGraph(tag_segment::RunState::kExited); }

// The segment file, mapped shared and zero-filled (ftruncate leaves it sparse: pages that are
// never written take neither memory nor disk).
void* MapSegment(const std::string& path, uint64_t bytes) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC, 0644);
  if (fd < 0) return nullptr;
  void* memory = MAP_FAILED;
  if (::ftruncate(fd, static_cast<off_t>(bytes)) == 0) {
    memory = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  }
  ::close(fd);
  return memory == MAP_FAILED ? nullptr : memory;
}

}  // namespace

// Made when the library is loaded, before any wrapper can run; never destroyed: wrappers may
// run during exit.
State* const g_state = new State();

State& S() { return *g_state; }

bool OnGraphThread() { return t_graph_thread && !S().finished.load(std::memory_order_relaxed); }

uint32_t NodeHere(tag_segment::NodeKind kind, uint32_t name) {
  State& s = S();
  Frame frames[kMaxFrames];
  bool truncated = false;
  const uint32_t n = s.paths->Capture(frames, s.regions.data(),
                                      static_cast<uint32_t>(s.regions.size()), &truncated);
  // Sikora et al. 2016's recently-used path: a call from where the last one came from (a loop
  // calling MPI_Test) is that node again, without hashing its frames.
  RecentPath& recent = s.recent;
  if (recent.node != kNone && recent.kind == kind && recent.name == name && recent.count == n &&
      std::memcmp(recent.frames, frames, n * sizeof(Frame)) == 0) {
    return recent.node;
  }
  uint32_t node = s.writer->FindNode(kind, name, frames, n);
  if (node != kNone) {
    recent.Remember(kind, name, frames, n, node);
    return node;
  }
  s.writer->Begin();
  node = s.writer->NodeFor(kind, name, frames, n, truncated);
  s.writer->Commit();
  if (node != kNone) recent.Remember(kind, name, frames, n, node);
  for (uint32_t i = 0; i < n; ++i) {
    if ((frames[i].address & tag_segment::kRegionFrame) == 0 && !Mapped(s, frames[i].address)) {
      WriteMaps(s);  // a module loaded since the map was written
      break;
    }
  }
  return node;
}

void WritePending(uint32_t node, uint64_t entry, uint64_t start, uint64_t exit,
                  const std::vector<PendingIn>& in, const std::vector<PendingOut>& out,
                  const std::vector<PendingCompletion>& completions) {
  tag_segment::SegmentWriter& w = *S().writer;
  const double duration = exit >= start ? static_cast<double>(exit - start) : 0;
  for (const PendingOut& o : out) w.MessageOut(node, o.peer, o.bytes, duration);
  const int64_t my_entry = OnRankZeroClock(entry);
  for (const PendingIn& i : in) {
    w.MessageIn(i.node, i.peer, i.sender, i.via, i.bytes, duration,
                static_cast<double>(i.sender_entry - my_entry));
  }
  for (const PendingCompletion& c : completions) {
    if (c.start == node) continue;  // begun and completed in one activity
    w.Complete(node, c.start, entry >= c.started ? static_cast<double>(entry - c.started) : 0);
  }
}

void WriteSteps(uint32_t node, const std::vector<PendingIn>& in,
                const std::vector<PendingOut>& out) {
  tag_segment::SegmentWriter& w = *S().writer;
  bool any = false;
  for (const PendingOut& o : out) {
    w.Step(node, o.peer);
    any = true;
  }
  for (const PendingIn& i : in) {
    if (i.via != tag_segment::Via::kPointToPoint) continue;
    w.Step(node, i.peer);
    any = true;
  }
  if (!any) w.Step(node, kNone);
}

void EndGraph(tag_segment::RunState state, int signal) {
  State& s = S();
  if (!s.started.load() || s.finished.exchange(true)) return;
  tag_segment::Header& h = s.writer->header();
  h.signal = signal;
  h.other_thread_calls = s.other_thread_calls.load(std::memory_order_relaxed);
  // A signal that arrived in the middle of an update leaves the counter odd: the update is not
  // finished, so only the state is set, and readers report the last activity as partial.
  if (h.sequence.load(std::memory_order_relaxed) % 2 == 1) {
    h.state.store(static_cast<uint32_t>(state), std::memory_order_release);
    return;
  }
  s.writer->Begin();
  const uint64_t now = TimerNow();
  s.writer->Calibrate(now, MonotonicNow());
  s.writer->End(now, state);
  s.writer->Commit();
}

}  // namespace cw::measure::tag_runtime

namespace cw::measure::tag_hook {

using namespace cw::measure::tag_runtime;

uint64_t Now() { return TimerNow(); }

bool Recording() {
  const State& s = S();
  return s.started.load(std::memory_order_relaxed) && !s.finished.load(std::memory_order_relaxed);
}

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

void Started(MpiFunction init, uint64_t enter) {
  State& s = S();
  if (s.started) return;
  PMPI_Comm_rank(MPI_COMM_WORLD, &s.rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &s.size);
  PMPI_Query_thread(&s.thread_level);
  const char* dir = std::getenv("CAUSEWAY_DIR");
  const std::string base = dir != nullptr && *dir != '\0' ? dir : "causeway-tag";
  ::mkdir(base.c_str(), 0755);
  s.dir = base + "/tag";
  ::mkdir(s.dir.c_str(), 0755);
  const char* depth_text = std::getenv("CAUSEWAY_TAG_RECURSION_DEPTH");
  const uint32_t depth =
      depth_text != nullptr ? static_cast<uint32_t>(std::strtoul(depth_text, nullptr, 10)) : 3;
  s.region_patterns = SplitPatterns(std::getenv("CAUSEWAY_TAG_REGIONS"));

  tag_segment::Capacities capacities;
  tag_segment::Header probe{};
  s.segment_bytes = tag_segment::Layout(capacities, probe);
  // Laid out under another name and renamed when its header is written: a reader that finds
  // rank-<r>.seg never sees a segment that is not one yet.
  const std::string fresh = SegmentPath(s) + ".new";
  s.segment = MapSegment(fresh, s.segment_bytes);
  // Every rank records, or none: a rank that did not would send no piggybacks, and the others
  // would wait for them.
  int mapped = s.segment != nullptr ? 1 : 0, everywhere = 0;
  PMPI_Allreduce(&mapped, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (everywhere == 0) {
    if (s.segment != nullptr) {
      ::munmap(s.segment, s.segment_bytes);
      ::unlink(fresh.c_str());
      s.segment = nullptr;
    }
    if (!mapped) {
      std::fprintf(stderr,
                   "causeway: rank %d cannot write its task activity graph to %s; no rank "
                   "records one\n",
                   s.rank, s.dir.c_str());
    }
    return;
  }
  // The graph begins when the process does (the library is loaded before the program's main),
  // as a trace's program region does.
  uint64_t begin = LibraryLoadTime();
  if (begin == 0 || begin > enter) begin = enter;
  s.writer =
      std::make_unique<tag_segment::SegmentWriter>(s.segment, capacities, s.rank, s.size, begin);
  tag_segment::Header& h = s.writer->header();
  h.pid = static_cast<int32_t>(::getpid());
  h.recursion_depth = depth;
  std::rename(fresh.c_str(), SegmentPath(s).c_str());
  s.paths = std::make_unique<CallPaths>(depth);
  s.writer->Begin();
  for (uint32_t f = 0; f < kMpiFunctionCount; ++f)
    s.names[f] = s.writer->Name(kMpiFunctions[f].name);
  s.writer->Calibrate(TimerNow(), MonotonicNow());
  s.writer->Commit();
  WriteMaps(s);

  MPI_Comm own = MPI_COMM_NULL;
  PMPI_Comm_dup(MPI_COMM_WORLD, &own);
  s.clock_offset = CompareClockWithRankZero(own, s.rank, s.size, TimerNow).offset;
  h.clock_offset = s.clock_offset;
  // Rank 0 measures one rank after the other: without this the ranks measured first would
  // leave MPI_Init early and wait in their first communication for the others, a wait the
  // program does not have.
  PMPI_Barrier(own);
  PMPI_Comm_free(&own);
  s.piggybacks.AddShadow(MPI_COMM_WORLD);
  s.piggybacks.AddShadow(MPI_COMM_SELF);

  t_graph_thread = true;
  s.started = true;
  WatchProcessEnd(OnFatalSignal, OnExit);
  // MPI_Init itself is the first activity.
  const uint32_t node = NodeHere(tag_segment::NodeKind::kMpi, s.names[static_cast<uint32_t>(init)]);
  s.writer->Begin();
  const uint64_t now = TimerNow();
  s.writer->Visit(node, enter, now, now);
  s.writer->Commit();
}

void Finalizing(MpiFunction finalize) {
  State& s = S();
  if (!s.started || s.finished || !t_graph_thread) return;
  s.call = Call{};
  s.call.open = true;
  s.call.entry = TimerNow();
  s.call.node = NodeHere(tag_segment::NodeKind::kMpi, s.names[static_cast<uint32_t>(finalize)]);
  // Nothing travels after this: the collectives' exchanges complete, the piggybacks in flight
  // arrive and the shadows go.
  CompleteLinks(true);
  s.piggybacks.Finish();
}

void Finalized() {
  State& s = S();
  if (!s.started || s.finished || !t_graph_thread || !s.call.open) return;
  const uint64_t now = TimerNow();
  s.writer->Begin();
  s.writer->Visit(s.call.node, s.call.entry, now, now);
  s.writer->Commit();
  s.call.open = false;
  EndGraph(tag_segment::RunState::kEnded);
}

void Abort(MPI_Comm) {
  // MPI_Abort does not return: its activity ends here.
  State& s = S();
  if (OnGraphThread() && s.call.open) {
    const uint64_t now = TimerNow();
    s.writer->Begin();
    s.writer->Visit(s.call.node, s.call.entry, now, now);
    s.writer->Commit();
    s.call.open = false;
  }
  EndGraph(tag_segment::RunState::kAborted);
}

}  // namespace cw::measure::tag_hook
