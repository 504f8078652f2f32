// The hooks of OpenSHMEM routines: the symmetric heap's windows, transfers and their
// completion, waits for remote updates, barriers, collectives and distributed locks.
#include "measure/runtime/shmem_hooks.h"

#include <dlfcn.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "measure/runtime/recorder.h"

namespace cw::measure::hook {
namespace {

constexpr uint32_t kNoWindow = 0xFFFFFFFFu;

struct PendingOp {
  uint32_t target;
  uint64_t id;
};

// A symmetric allocation: every PE makes the same ones in the same order, so its index names it
// alike everywhere.
struct Allocation {
  uint32_t index = 0;
  size_t bytes = 0;
};

// What the OpenSHMEM hooks keep, guarded like State by HookLock.
struct ShmemState {
  uint32_t world_window = kNoWindow;
  std::map<std::tuple<int, int, int>, uint32_t> windows;  // active set -> local window id
  std::unordered_map<ShmemContext, std::vector<PendingOp>> pending;  // non-blocking transfers
  std::unordered_set<ShmemContext> contexts;    // created by shmem_ctx_create, not yet destroyed
  std::map<uintptr_t, Allocation> allocations;  // by base address
  uint32_t next_allocation = 0;
};

ShmemState& Shmem() {
  static ShmemState* state = new ShmemState();  // never destroyed: wrappers may run during exit
  return *state;
}

thread_local int t_inside = 0;         // OpenSHMEM calls the thread is in
thread_local uint64_t t_blocking = 0;  // the blocking transfer the current call makes
thread_local uint32_t t_blocking_window = kNoWindow;

uint32_t PeTarget(int pe) { return static_cast<uint32_t>(pe); }

// The window of an active set (PE_start, logPE_stride, PE_size; size -1: all PEs), defined on
// first use; kNoWindow for a set that names PEs that do not exist.
uint32_t ActiveSetWindow(int start, int log_stride, int size) {
  State& s = S();
  ShmemState& shmem = Shmem();
  if (size < 0) {
    start = 0;
    log_stride = 0;
    size = s.size;
  }
  if (size == 1) log_stride = 0;
  if (start < 0 || size <= 0 || log_stride < 0 || log_stride > 30) return kNoWindow;
  const long long last = start + (static_cast<long long>(size) - 1) * (1LL << log_stride);
  if (last >= s.size) return kNoWindow;
  auto [it, inserted] = shmem.windows.try_emplace(std::make_tuple(start, log_stride, size), 0);
  if (inserted) {
    it->second = s.next_local_window++;
    s.log.Define("shmem_win " + std::to_string(it->second) + " " + std::to_string(start) + " " +
                 std::to_string(log_stride) + " " + std::to_string(size));
  }
  return it->second;
}

// The context a routine's operations belong to: contexts this process did not see being
// created (SHMEM_CTX_DEFAULT) are the default one.
ShmemContext ContextOf(ShmemContext ctx) {
  return Shmem().contexts.count(ctx) != 0 ? ctx : kShmemDefaultContext;
}

void CompletePending(ShmemContext ctx) {
  ShmemState& shmem = Shmem();
  auto it = shmem.pending.find(ctx);
  if (it == shmem.pending.end()) return;
  for (const PendingOp& op : it->second)
    Record(RawKind::kRmaOpCompleteBlocking, shmem.world_window, 0, 0, 0, op.id);
  shmem.pending.erase(it);
}

void CompleteAllPending() {
  ShmemState& shmem = Shmem();
  std::vector<ShmemContext> contexts;
  for (const auto& [ctx, ops] : shmem.pending) contexts.push_back(ctx);
  for (ShmemContext ctx : contexts) CompletePending(ctx);
}

// A transfer's record; blocking ones are completed by ShmemCompleteBlocking after the call.
void Transfer(RawKind kind, ShmemContext ctx, int pe, uint64_t sent, uint32_t received, uint8_t op,
              bool blocking) {
  ShmemState& shmem = Shmem();
  t_blocking = 0;
  if (shmem.world_window == kNoWindow || pe < 0 || pe >= S().size) return;
  const uint64_t id = S().next_rma_op++;
  Record(kind, shmem.world_window, PeTarget(pe), received, sent, id, op);
  if (blocking) {
    t_blocking = id;
    t_blocking_window = shmem.world_window;
  } else {
    shmem.pending[ContextOf(ctx)].push_back(PendingOp{PeTarget(pe), id});
  }
}

// A lock's id, the same on every PE: a symmetric object's place in its allocation or, for a
// static variable, in the program's image (its address differs between processes).
uint64_t LockId(const long* lock) {
  const auto address = reinterpret_cast<uintptr_t>(lock);
  const std::map<uintptr_t, Allocation>& allocations = Shmem().allocations;
  auto it = allocations.upper_bound(address);
  if (it != allocations.begin()) {
    --it;
    if (address - it->first < std::max<size_t>(it->second.bytes, 1)) {
      return (uint64_t{1} << 63) | (static_cast<uint64_t>(it->second.index) << 32) |
             ((address - it->first) & 0xFFFFFFFFu);
    }
  }
  Dl_info info;
  if (dladdr(lock, &info) != 0 && info.dli_fbase != nullptr) {
    uint64_t object = 0;  // which loaded object, by name (the same on every PE)
    for (const char* c = info.dli_fname != nullptr ? info.dli_fname : ""; *c != '\0'; ++c)
      object = object * 131 + static_cast<unsigned char>(*c);
    return (uint64_t{1} << 62) | ((object & 0x3FFF) << 48) |
           ((address - reinterpret_cast<uintptr_t>(info.dli_fbase)) & 0xFFFFFFFFFFFFu);
  }
  return address;
}

void LockRecord(RawKind kind, const long* lock) {
  const uint32_t window = Shmem().world_window;
  if (window == kNoWindow) return;
  Record(kind, window, kNoRank, 0, 0, LockId(lock), static_cast<uint8_t>(OTF2_LOCK_EXCLUSIVE));
}

}  // namespace

void* NextDefinition(const char* name) {
  void* next = dlsym(RTLD_NEXT, name);
  if (next == nullptr) {
    std::fprintf(stderr, "causeway: the OpenSHMEM library does not define %s\n", name);
    std::abort();
  }
  return next;
}

bool RecordingShmem() { return t_inside == 0 && Recording(); }

ShmemCallScope::Inside::Inside() { ++t_inside; }
ShmemCallScope::Inside::~Inside() { --t_inside; }

void ShmemStarted(uint32_t init_region, uint64_t enter) {
  State& s = S();
  if (!s.started) {
    // The recorder synchronises clocks and ends with MPI, which Open MPI's oshmem runs on.
    int mpi_initialized = 0;
    PMPI_Initialized(&mpi_initialized);
    if (!mpi_initialized) {
      std::fprintf(stderr,
                   "causeway: this OpenSHMEM library does not run on MPI; the program is not "
                   "recorded\n");
      return;
    }
    Started(init_region, enter);
    if (!s.started) return;
  } else if (RecordingHere()) {
    // MPI started the measurement (a program using both): this call is recorded as it was.
    RecordCallAt(init_region, enter);
  }
  HookLock lock;
  Shmem().world_window = ActiveSetWindow(0, 0, -1);
}

void ShmemFinalizing(uint32_t finalize_region) {
  {
    HookLock lock;
    if (RecordingHere()) CompleteAllPending();
  }
  Finalizing(finalize_region);
}

void ShmemGlobalExit() {
  // The job ends inside this call: everything recorded so far is written now.
  Abort(MPI_COMM_WORLD);
}

void ShmemContextCreated(int result, const ShmemContext* ctx) {
  if (result == 0 && ctx != nullptr) Shmem().contexts.insert(*ctx);
}

void ShmemContextDestroyed(ShmemContext ctx) {
  if (Shmem().contexts.count(ctx) == 0) return;
  CompletePending(ctx);
  Shmem().contexts.erase(ctx);
}

void ShmemAllocated(const void* base, size_t bytes) {
  if (base == nullptr) return;
  ShmemState& shmem = Shmem();
  shmem.allocations[reinterpret_cast<uintptr_t>(base)] = Allocation{shmem.next_allocation++, bytes};
}

void ShmemFreed(const void* base) { Shmem().allocations.erase(reinterpret_cast<uintptr_t>(base)); }

void ShmemPut(ShmemContext ctx, int pe, uint64_t bytes) {
  Transfer(RawKind::kRmaPut, ctx, pe, bytes, 0, 0, true);
}
void ShmemGet(ShmemContext ctx, int pe, uint64_t bytes) {
  Transfer(RawKind::kRmaGet, ctx, pe, bytes, 0, 0, true);
}
void ShmemPutNbi(ShmemContext ctx, int pe, uint64_t bytes) {
  Transfer(RawKind::kRmaPut, ctx, pe, bytes, 0, 0, false);
}
void ShmemGetNbi(ShmemContext ctx, int pe, uint64_t bytes) {
  Transfer(RawKind::kRmaGet, ctx, pe, bytes, 0, 0, false);
}
void ShmemAtomic(ShmemContext ctx, OTF2_RmaAtomicType type, int pe, uint64_t sent,
                 uint64_t received) {
  Transfer(RawKind::kRmaAtomic, ctx, pe, sent, static_cast<uint32_t>(received),
           static_cast<uint8_t>(type), true);
}

void ShmemCompleteBlocking() {
  if (t_blocking == 0) return;
  Record(RawKind::kRmaOpCompleteBlocking, t_blocking_window, 0, 0, 0, t_blocking);
  t_blocking = 0;
}

void ShmemQuiet(ShmemContext ctx) { CompletePending(ContextOf(ctx)); }

void ShmemWaitChange() {
  const uint32_t window = Shmem().world_window;
  if (window != kNoWindow) Record(RawKind::kRmaWaitChange, window);
}

void ShmemBarrier(int start, int log_stride, int size, bool completes) {
  const uint32_t window = ActiveSetWindow(start, log_stride, size);
  if (completes) CompletePending(kShmemDefaultContext);
  if (window == kNoWindow) return;
  Record(RawKind::kRmaCollectiveEnd, window, kNoRank, completes ? kSyncFull : kSyncProcess, 0, 0,
         static_cast<uint8_t>(OTF2_COLLECTIVE_OP_BARRIER));
}

void ShmemCollective(OTF2_CollectiveOp op, int start, int log_stride, int size, int root,
                     uint64_t bytes) {
  const uint32_t window = ActiveSetWindow(start, log_stride, size);
  if (window == kNoWindow) return;
  const uint64_t members = static_cast<uint64_t>(size);
  uint64_t sent = bytes, received = bytes;
  switch (op) {
    case OTF2_COLLECTIVE_OP_BCAST: {
      // PE_root counts within the active set, as the window's ranks do.
      const bool is_root = root >= 0 && S().rank == start + root * (1 << log_stride);
      sent = is_root ? bytes * (members - 1) : 0;
      received = is_root ? 0 : bytes;
      break;
    }
    case OTF2_COLLECTIVE_OP_ALLGATHER:
    case OTF2_COLLECTIVE_OP_ALLGATHERV:
      // As Score-P counts them: this PE's block to each other member, and theirs to it (for
      // collect, whose blocks differ, as if theirs were as large as this one).
      sent = received = bytes * (members - 1);
      break;
    case OTF2_COLLECTIVE_OP_ALLTOALL:
      sent = received = bytes * members;
      break;
    default:
      break;
  }
  Record(RawKind::kRmaCollectiveEnd, window, root >= 0 ? static_cast<uint32_t>(root) : kNoRank,
         kSyncFull, sent, received, static_cast<uint8_t>(op));
}

void ShmemLockRequested(const long* lock) { LockRecord(RawKind::kRmaRequestLock, lock); }
void ShmemLockAcquired(const long* lock) { LockRecord(RawKind::kRmaAcquireLock, lock); }
void ShmemLockReleased(const long* lock) {
  const uint32_t window = Shmem().world_window;
  if (window != kNoWindow) Record(RawKind::kRmaReleaseLock, window, kNoRank, 0, 0, LockId(lock));
}
void ShmemLockTested(const long* lock, int result) {
  LockRecord(result == 0 ? RawKind::kRmaAcquireLock : RawKind::kRmaTryLock, lock);
}

}  // namespace cw::measure::hook
