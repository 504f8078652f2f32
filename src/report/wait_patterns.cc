#include "report/wait_patterns.h"

namespace cw::report {
namespace {

using analysis::MetricId;

constexpr WaitPattern kPatterns[] = {
    {MetricId::kMpiLateSender, "a receive waited for a send that had not started yet"},
    {MetricId::kMpiLateReceiver, "a blocking send waited for its receiver to post the receive"},
    {MetricId::kMpiBarrierWait, "processes waited in a barrier for the last one to arrive"},
    {MetricId::kMpiBarrierCompletion, "processes stayed in a barrier after the first one left"},
    {MetricId::kMpiWaitNxn, "processes waited in an all-to-all operation for the last one"},
    {MetricId::kMpiNxnCompletion,
     "processes stayed in an all-to-all operation after the first left"},
    {MetricId::kMpiWaitSenders,
     "processes waited in a v-collective (MPI_Alltoallv/w, Allgatherv), or in the call that "
     "completed a non-blocking collective, for the last process that sends them data"},
    {MetricId::kMpiLateBroadcast, "processes waited in a broadcast or scatter for the root"},
    {MetricId::kMpiEarlyReduce, "a root waited in a reduce or gather for the last sender"},
    {MetricId::kMpiEarlyScan, "processes waited in a scan for lower ranks"},
    {MetricId::kMpiRmaWaitAtFence, "processes waited in MPI_Win_fence for the last one"},
    {MetricId::kMpiRmaWaitAtCreate, "processes waited to create a window for the last one"},
    {MetricId::kMpiRmaWaitAtFree, "processes waited in MPI_Win_free for the last one"},
    {MetricId::kMpiRmaSyncLatePost,
     "an origin waited in MPI_Win_start/complete for a target to post its window"},
    {MetricId::kMpiRmaCommLatePost,
     "an origin waited in a one-sided transfer for a target to post its window"},
    {MetricId::kMpiRmaEarlyWait, "a target waited in MPI_Win_wait for an origin to complete"},
    {MetricId::kMpiRmaSyncLockCompetition,
     "a process waited in a lock call for another to release a window lock"},
    {MetricId::kMpiRmaCommLockCompetition,
     "a process waited in a one-sided transfer for another to release a window lock"},
    {MetricId::kShmemBarrierWait,
     "PEs waited in an OpenSHMEM barrier or sync for the last PE of the active set",
     "SHMEM Wait at Barrier"},
    {MetricId::kShmemLockContention,
     "a PE waited in shmem_set_lock for the PE holding the lock to release it"},
    {MetricId::kShmemWaitOnValue,
     "a PE waited in shmem_wait_until for the remote put or atomic that changed the value"},
    {MetricId::kShmemWaitForProgress,
     "a PE waited in shmem_quiet for a target, busy outside OpenSHMEM, to enter the library"},
    {MetricId::kShmemCollectiveWait,
     "PEs waited in an OpenSHMEM collective for the last PE (or the broadcast's root)"},
    {MetricId::kOmpEbarrierWait,
     "threads waited in an explicit OpenMP barrier for the last thread of their team",
     "OMP Wait at Explicit Barrier"},
    {MetricId::kOmpIbarrierWait,
     "threads waited in an implicit OpenMP barrier for the last thread of their team",
     "OMP Wait at Implicit Barrier"},
    {MetricId::kOmpLockContentionCritical,
     "a thread waited to enter an OpenMP critical section until the previous holder left it",
     "OMP Critical Contention"},
    {MetricId::kOmpLockContentionApi,
     "a thread waited in omp_set_lock until the thread holding the lock released it",
     "OMP Lock API Contention"},
    {MetricId::kMpiFinalizeWait, "processes waited in MPI_Finalize for the last one to arrive"},
    {MetricId::kMpiInitCompletion, "processes stayed in MPI_Init after the first one left"},
};

}  // namespace

std::string_view WaitPattern::name() const {
  return label != nullptr ? std::string_view(label) : analysis::Metric(metric).display;
}

std::span<const WaitPattern> WaitPatterns() { return kPatterns; }

}  // namespace cw::report
