#include "analysis/advice/hints.h"

namespace cw::analysis {
namespace {

// A slow operation with no process to blame: what can make it slow depends on what it is. A
// collective algorithm is only a choice for collectives; a completion call is slow because of
// what it completes.
std::vector<std::string> NoRemoteCauseHints(GenericType type) {
  const std::string other_jobs =
      "check what else ran on the nodes (other jobs, more processes and threads than cores) "
      "and the process pinning";
  switch (type) {
    case GenericType::kLocal:
    case GenericType::kWorkSharing:
      return {
          "its instances differ although they should do alike: look for input-dependent "
          "work, cache effects or operating-system noise",
          other_jobs};
    case GenericType::kGroupSync:
    case GenericType::kGroupComm:
      return {
          "the operation itself was slow, with no process to blame: check the message "
          "sizes and the algorithm the library chose (another collective algorithm, or a "
          "different collective)",
          "overlap it with computation (its non-blocking form)", other_jobs};
    case GenericType::kCommSync:
      return {
          "the completion call waited for the transfers it completes: post them earlier, "
          "or complete them later with computation in between",
          other_jobs};
    case GenericType::kSend:
    case GenericType::kReceive:
    case GenericType::kPut:
    case GenericType::kGet:
    case GenericType::kAtomic:
      return {
          "the transfer itself was slow, with no process to blame: check the message sizes "
          "and the network",
          "overlap it with computation (its non-blocking form: MPI_Isend/MPI_Irecv, "
          "MPI_Rput/MPI_Rget, shmem_*_nbi)",
          other_jobs};
    default:
      return {"the operation itself was slow, with no process to blame", other_jobs};
  }
}

// The same for OpenMP's constructs, where the partners are the threads of a team.
std::vector<std::string> ThreadHints(AdvicePattern pattern) {
  switch (pattern) {
    case AdvicePattern::kWaitOnGroup:
      return {
          "distribute the work before this barrier more evenly over the threads: a dynamic "
          "or guided schedule for the loop before it, or smaller chunks",
          "if the threads do not need each other's results here, drop the barrier (nowait on "
          "the worksharing construct it ends)"};
    case AdvicePattern::kWaitOnLock:
      return {
          "hold the lock for less time: move work out of the critical section or the "
          "locked region",
          "update a single variable with an atomic construct or a reduction instead of a "
          "critical section",
          "use several locks (named critical sections, one lock per independent datum)"};
    case AdvicePattern::kNoRemoteCause:
      return {
          "the construct itself was slow, with no thread to blame: check the OpenMP "
          "runtime's wait policy (OMP_WAIT_POLICY) and the threads' binding (OMP_PROC_BIND, "
          "OMP_PLACES)",
          "check what else ran on the nodes (other jobs, more threads than cores)"};
    case AdvicePattern::kImbalancedBlock:
    case AdvicePattern::kImbalancedCallpath:
      return {
          "distribute the work of this part more evenly over the threads: a dynamic or "
          "guided schedule, or smaller chunks"};
    default:
      return {};
  }
}

}  // namespace

std::vector<std::string> PossiblyRedundantHints(uint8_t unseen) {
  std::vector<std::string> hints = {
      "possibly redundant: no process transfers anything since the previous synchronisation, "
      "but the barrier may order what the trace cannot show; remove it only after checking "
      "that"};
  if ((unseen & kUnseenSymmetricMemory) != 0) {
    hints.emplace_back(
        "no PE stores into symmetric memory before it what another PE gets, reads through "
        "shmem_ptr or waits for after it, and no pSync or pWrk array of a collective before "
        "it is used again after it");
  }
  if ((unseen & kUnseenWindowMemory) != 0) {
    hints.emplace_back(
        "no process stores into an RMA window before it what another process accesses after "
        "it (by MPI_Get, MPI_Put or, in a shared-memory window, by loads and stores)");
  }
  if ((unseen & kUnseenFileIo) != 0) {
    hints.emplace_back(
        "no process reads after it a file another process wrote before it (the barrier may "
        "order the file's writes and reads)");
  }
  return hints;
}

std::vector<std::string> HintsFor(AdvicePattern pattern, GenericType type, bool between_threads) {
  if (between_threads) {
    std::vector<std::string> hints = ThreadHints(pattern);
    if (!hints.empty()) return hints;
  }
  switch (pattern) {
    case AdvicePattern::kWaitOnGroup:
      return {"distribute the work before this operation more evenly over the processes",
              "replace the global synchronisation by point-to-point synchronisation with the "
              "processes that really depend on each other",
              "use the non-blocking form (MPI_Ibarrier, MPI_Iallreduce, ...) and compute while "
              "the others arrive"};
    case AdvicePattern::kWaitOnLock:
      return {"do more local computation before asking for the lock",
              "hold the lock for less time: move work out of the locked region",
              "use several locks (one per independent datum) or shared locks for readers"};
    case AdvicePattern::kWaitOnValue:
      return {"do more local computation before waiting for the value",
              "have the writer update the value earlier"};
    case AdvicePattern::kCompetingTransfer:
      return {"use non-blocking transfers (_nbi, MPI_Rput/MPI_Rget) and complete them together",
              "spread the transfers over several target processes or over time"};
    case AdvicePattern::kLateSender:
      return {"send earlier: less computation before the send on the sending process",
              "post the receive as non-blocking (MPI_Irecv) early and compute until MPI_Wait",
              "balance the work between sender and receiver"};
    case AdvicePattern::kLateReceiver:
      return {"post the receive earlier on the receiving process",
              "use a non-blocking send (MPI_Isend) and compute until MPI_Wait",
              "messages above the eager limit wait for their receive: send smaller messages or "
              "raise the eager limit"};
    case AdvicePattern::kNoRemoteCause:
      return NoRemoteCauseHints(type);
    case AdvicePattern::kImbalancedBlock:
    case AdvicePattern::kImbalancedCallpath:
      return {"distribute the work of this part more evenly over the processes"};
    case AdvicePattern::kRedundantBarrier:
      return {
          "remove the barrier: no process communicates since the previous synchronisation, "
          "and the program has no shared, window or symmetric memory and no file I/O there "
          "that it could be ordering"};
    case AdvicePattern::kPossiblyRedundantBarrier:
      return PossiblyRedundantHints(0);
    case AdvicePattern::kSmallTransfers:
      return {
          "combine the small transfers to one target into one bulk transfer (message "
          "aggregation)"};
    case AdvicePattern::kSerialisedTransfers:
      return {"use non-blocking transfers to the different targets and complete them together",
              "use a bulk or collective transfer if appropriate"};
    case AdvicePattern::kHighFrequency:
      if (type == GenericType::kLocal) {
        return {
            "the function is short and very frequent: inline it, or leave it out of the "
            "measurement (causeway trace --filter-exclude; its recording distorts the timing)"};
      }
      return {
          "the operation is short and very frequent: call it less often (keep what it returns, "
          "or combine its calls into fewer larger ones); each call pays the library's fixed "
          "cost"};
  }
  return {};
}

}  // namespace cw::analysis
