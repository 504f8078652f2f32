// What the generated OpenSHMEM wrappers call (see wrappers/shmem_functions.def).
//
// OpenSHMEM programs are recorded as Score-P records them: the symmetric heap is an RMA window
// ("All PEs", one more per active set that a barrier or collective names), transfers are RmaPut,
// RmaGet and RmaAtomic records with their completion, shmem_wait_until is an RmaWaitChange,
// distributed locks are RMA lock records and barriers and collectives are RMA collectives.
//
// The recorder is the MPI one (recorder.h): its clock synchronisation and its end use MPI, which
// Open MPI's oshmem initialises inside shmem_init; a PE is its MPI_COMM_WORLD rank.
#pragma once

#include <otf2/OTF2_Events.h>

#include <cstddef>
#include <cstdint>

#include "measure/raw/raw_format.h"
#include "measure/runtime/hooks.h"

namespace cw::measure::hook {

// A communication context (shmem_ctx_t: a pointer in every implementation); the default context
// is kShmemDefaultContext, and so is any context this process did not see being created
// (SHMEM_CTX_DEFAULT itself).
using ShmemContext = void*;
inline constexpr ShmemContext kShmemDefaultContext = nullptr;
inline constexpr int kShmemNoRoot = -1;

inline uint32_t ShmemRegion(ShmemFunction f) {
  return kShmemFirstRegion + static_cast<uint32_t>(f);
}

// The library's own definition of `name`, for routines without a pshmem_ twin. Never returns
// null: a routine the application could call but nothing defines ends the process with a message.
void* NextDefinition(const char* name);

// True if this call is to be recorded: the measurement runs and the thread is not already inside
// an OpenSHMEM call (the library calling its own public routines is part of that call).
bool RecordingShmem();

// Records the Enter of a routine on construction and its Leave on destruction, and marks the
// thread as inside an OpenSHMEM call meanwhile.
class ShmemCallScope {
 public:
  explicit ShmemCallScope(uint32_t region) : scope_(region) {}

 private:
  struct Inside {
    Inside();
    ~Inside();
  };
  Inside inside_;  // constructed before scope_ and destroyed after it
  CallScope scope_;
};

void ShmemStarted(uint32_t init_region, uint64_t enter);
void ShmemFinalizing(uint32_t finalize_region);
void ShmemGlobalExit();

// Element counts that OpenSHMEM passes as int.
inline uint64_t Elements(int n) { return n > 0 ? static_cast<uint64_t>(n) : 0; }

void ShmemContextCreated(int result, const ShmemContext* ctx);
void ShmemContextDestroyed(ShmemContext ctx);

void ShmemAllocated(const void* base, size_t bytes);
void ShmemFreed(const void* base);

// Transfers: the record at the call's start; blocking ones complete at its end
// (ShmemCompleteBlocking), non-blocking ones at their context's next quiet or barrier.
void ShmemPut(ShmemContext ctx, int pe, uint64_t bytes);
void ShmemGet(ShmemContext ctx, int pe, uint64_t bytes);
void ShmemPutNbi(ShmemContext ctx, int pe, uint64_t bytes);
void ShmemGetNbi(ShmemContext ctx, int pe, uint64_t bytes);
void ShmemAtomic(ShmemContext ctx, OTF2_RmaAtomicType type, int pe, uint64_t sent,
                 uint64_t received);
void ShmemCompleteBlocking();
void ShmemQuiet(ShmemContext ctx);

void ShmemWaitChange();

// Barriers over the active set (PE_size -1: all PEs); `completes`: a barrier, which completes
// the default context's outstanding operations, rather than a sync.
void ShmemBarrier(int start, int log_stride, int size, bool completes);
void ShmemCollective(OTF2_CollectiveOp op, int start, int log_stride, int size, int root,
                     uint64_t bytes);

void ShmemLockRequested(const long* lock);
void ShmemLockAcquired(const long* lock);
void ShmemLockReleased(const long* lock);
void ShmemLockTested(const long* lock, int result);

}  // namespace cw::measure::hook
