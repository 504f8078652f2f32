#include "analysis/metrics/metric_catalog.h"

#include <array>

namespace cw::analysis {
namespace {

using M = MetricId;
using U = MetricUnit;

// Order equals MetricId order (checked by a unit test); parents precede children.
constexpr std::array<MetricInfo, kMetricCount> kMetrics = {{
    {M::kTime, "time", "Time", U::kSeconds, std::nullopt,
     "Total time of the locations: the inclusive time of their root call paths"},
    {M::kExecution, "execution", "Execution", U::kSeconds, M::kTime,
     "Time spent executing the program, without measurement overhead"},
    {M::kComp, "comp", "Computation", U::kSeconds, M::kExecution,
     "Time outside MPI and the other parallel-programming runtimes"},
    {M::kMpi, "mpi", "MPI", U::kSeconds, M::kExecution, "Time spent in MPI calls"},
    {M::kMpiManagement, "mpi_management", "Management", U::kSeconds, M::kMpi,
     "Time in MPI calls that set up and tear down the environment, communicators, files and "
     "windows"},
    {M::kMpiInitExit, "mpi_init_exit", "Init/Exit", U::kSeconds, M::kMpiManagement,
     "Time in MPI_Init, MPI_Init_thread, MPI_Initialized, MPI_Finalize and MPI_Finalized"},
    {M::kMpiInitCompletion, "mpi_init_completion", "Initialization Completion", U::kSeconds,
     M::kMpiInitExit, "Time in MPI_Init after the first process has left it"},
    {M::kMpiFinalizeWait, "mpi_finalize_wait", "Wait at Finalize", U::kSeconds, M::kMpiInitExit,
     "Time in MPI_Finalize before the last process has entered it"},
    {M::kMpiMgmtComm, "mpi_mgmt_comm", "Communicator Management", U::kSeconds, M::kMpiManagement,
     "Time in communicator, group and topology management calls"},
    {M::kMpiMgmtFile, "mpi_mgmt_file", "File Management", U::kSeconds, M::kMpiManagement,
     "Time in MPI file management calls (open, close, seek, set_view, ...)"},
    {M::kMpiMgmtWin, "mpi_mgmt_win", "Window Management", U::kSeconds, M::kMpiManagement,
     "Time in MPI window management calls (create, allocate, free, attach, ...)"},
    {M::kMpiSynchronization, "mpi_synchronization", "Synchronization", U::kSeconds, M::kMpi,
     "Time in MPI calls that only synchronise: barriers and one-sided synchronisation"},
    {M::kMpiSyncCollective, "mpi_sync_collective", "Collective", U::kSeconds,
     M::kMpiSynchronization, "Time in MPI_Barrier and MPI_Ibarrier"},
    {M::kMpiBarrierWait, "mpi_barrier_wait", "Wait at Barrier", U::kSeconds, M::kMpiSyncCollective,
     "Time in a barrier before the last process has entered it"},
    {M::kMpiBarrierCompletion, "mpi_barrier_completion", "Barrier Completion", U::kSeconds,
     M::kMpiSyncCollective, "Time in a barrier after the first process has left it"},
    {M::kMpiRmaSynchronization, "mpi_rma_synchronization", "Remote Memory Access", U::kSeconds,
     M::kMpiSynchronization, "Time in MPI one-sided synchronisation calls"},
    {M::kMpiRmaSyncActive, "mpi_rma_sync_active", "Active Target", U::kSeconds,
     M::kMpiRmaSynchronization,
     "Time in active-target synchronisation (fence, post, start, complete, wait, test)"},
    {M::kMpiRmaSyncPassive, "mpi_rma_sync_passive", "Passive Target", U::kSeconds,
     M::kMpiRmaSynchronization, "Time in passive-target synchronisation (lock, unlock, flush)"},
    {M::kMpiCommunication, "mpi_communication", "Communication", U::kSeconds, M::kMpi,
     "Time in MPI calls that move data"},
    {M::kMpiPoint2Point, "mpi_point2point", "Point-to-point", U::kSeconds, M::kMpiCommunication,
     "Time in point-to-point calls, request completion (Wait*, Test*) included"},
    {M::kMpiLateSender, "mpi_latesender", "Late Sender", U::kSeconds, M::kMpiPoint2Point,
     "Time a receive waits for a send that has not started yet"},
    {M::kMpiLateSenderWo, "mpi_latesender_wo", "Messages in Wrong Order", U::kSeconds,
     M::kMpiLateSender,
     "Late Sender time of a receive whose message was sent after one received later"},
    {M::kMpiLswoDifferent, "mpi_lswo_different", "From different sources", U::kSeconds,
     M::kMpiLateSenderWo,
     "Wrong-order Late Sender time where the two messages came from "
     "different processes"},
    {M::kMpiLswoSame, "mpi_lswo_same", "From same source", U::kSeconds, M::kMpiLateSenderWo,
     "Wrong-order Late Sender time where both messages came from the same process"},
    {M::kMpiLateReceiver, "mpi_latereceiver", "Late Receiver", U::kSeconds, M::kMpiPoint2Point,
     "Time a blocking send waits for the receiver to post its receive"},
    {M::kMpiCollective, "mpi_collective", "Collective", U::kSeconds, M::kMpiCommunication,
     "Time in collective communication other than barriers"},
    {M::kMpiEarlyReduce, "mpi_earlyreduce", "Early Reduce", U::kSeconds, M::kMpiCollective,
     "Time the root of an N-to-1 operation waits for the last process to send"},
    {M::kMpiEarlyScan, "mpi_earlyscan", "Early Scan", U::kSeconds, M::kMpiCollective,
     "Time a process waits in a prefix reduction for a lower-ranked process"},
    {M::kMpiLateBroadcast, "mpi_latebroadcast", "Late Broadcast", U::kSeconds, M::kMpiCollective,
     "Time a process waits in a 1-to-N operation for the root to enter it"},
    {M::kMpiWaitNxn, "mpi_wait_nxn", "Wait at N x N", U::kSeconds, M::kMpiCollective,
     "Time in an N-to-N operation before the last process has entered it"},
    {M::kMpiNxnCompletion, "mpi_nxn_completion", "N x N Completion", U::kSeconds, M::kMpiCollective,
     "Time in an N-to-N operation after the first process has left it"},
    {M::kMpiRmaCommunication, "mpi_rma_communication", "Remote Memory Access", U::kSeconds,
     M::kMpiCommunication, "Time in MPI one-sided data transfer calls (put, get, accumulate)"},
    {M::kMpiIo, "mpi_io", "File I/O", U::kSeconds, M::kMpi, "Time in MPI file reads and writes"},
    {M::kMpiIoIndividual, "mpi_io_individual", "Individual", U::kSeconds, M::kMpiIo,
     "Time in non-collective MPI file reads and writes"},
    {M::kMpiIoCollective, "mpi_io_collective", "Collective", U::kSeconds, M::kMpiIo,
     "Time in collective MPI file reads and writes"},
    {M::kOmpTime, "omp_time", "OpenMP", U::kSeconds, M::kExecution,
     "Time in OpenMP synchronisation (barriers, critical, locks, ordered, taskwait, flush)"},
    {M::kPthreadTime, "pthread_time", "POSIX threads", U::kSeconds, M::kExecution,
     "Time in POSIX thread management, mutex and condition-variable calls"},
    {M::kCudaTime, "cuda_time", "CUDA", U::kSeconds, M::kExecution,
     "Time in CUDA regions (API calls, kernels and transfers on GPU streams)"},
    {M::kOpenClTime, "opencl_time", "OpenCL", U::kSeconds, M::kExecution, "Time in OpenCL regions"},
    {M::kOpenAccTime, "openacc_time", "OpenACC", U::kSeconds, M::kExecution,
     "Time in OpenACC regions"},
    {M::kOverhead, "overhead", "Overhead", U::kSeconds, M::kTime,
     "Time the measurement system spent flushing its trace buffers"},
    {M::kVisits, "visits", "Visits", U::kOccurrences, std::nullopt,
     "Number of times a call path was entered"},
    {M::kSyncs, "syncs", "Synchronizations", U::kOccurrences, std::nullopt,
     "Number of synchronisation operations: messages and collectives that move no data"},
    {M::kSyncsP2p, "syncs_p2p", "Point-to-point", U::kOccurrences, M::kSyncs,
     "Zero-byte point-to-point messages sent and received"},
    {M::kSyncsSend, "syncs_send", "Sends", U::kOccurrences, M::kSyncsP2p,
     "Zero-byte messages sent"},
    {M::kMpiSlrCount, "mpi_slr_count", "Late Receivers", U::kOccurrences, M::kSyncsSend,
     "Late Receiver instances of zero-byte messages"},
    {M::kSyncsRecv, "syncs_recv", "Receives", U::kOccurrences, M::kSyncsP2p,
     "Zero-byte messages received"},
    {M::kMpiSlsCount, "mpi_sls_count", "Late Senders", U::kOccurrences, M::kSyncsRecv,
     "Late Sender instances of zero-byte messages"},
    {M::kMpiSlswoCount, "mpi_slswo_count", "Messages in Wrong Order", U::kOccurrences,
     M::kMpiSlsCount, "Wrong-order Late Sender instances of zero-byte messages"},
    {M::kSyncsColl, "syncs_coll", "Collective", U::kOccurrences, M::kSyncs,
     "Collective operations in which the location sent and received no data"},
    {M::kComms, "comms", "Communications", U::kOccurrences, std::nullopt,
     "Number of communication operations: messages and collectives that move data"},
    {M::kCommsP2p, "comms_p2p", "Point-to-point", U::kOccurrences, M::kComms,
     "Point-to-point messages with data sent and received"},
    {M::kCommsSend, "comms_send", "Sends", U::kOccurrences, M::kCommsP2p,
     "Messages with data sent"},
    {M::kMpiClrCount, "mpi_clr_count", "Late Receivers", U::kOccurrences, M::kCommsSend,
     "Late Receiver instances of messages with data"},
    {M::kCommsRecv, "comms_recv", "Receives", U::kOccurrences, M::kCommsP2p,
     "Messages with data received"},
    {M::kMpiClsCount, "mpi_cls_count", "Late Senders", U::kOccurrences, M::kCommsRecv,
     "Late Sender instances of messages with data"},
    {M::kMpiClswoCount, "mpi_clswo_count", "Messages in Wrong Order", U::kOccurrences,
     M::kMpiClsCount, "Wrong-order Late Sender instances of messages with data"},
    {M::kCommsColl, "comms_coll", "Collective", U::kOccurrences, M::kComms,
     "Collective operations that moved data at the location"},
    {M::kCommsCxch, "comms_cxch", "Exchange", U::kOccurrences, M::kCommsColl,
     "Collective operations in which the location sent and received data"},
    {M::kCommsCsrc, "comms_csrc", "As source", U::kOccurrences, M::kCommsColl,
     "Collective operations in which the location only sent data"},
    {M::kCommsCdst, "comms_cdst", "As destination", U::kOccurrences, M::kCommsColl,
     "Collective operations in which the location only received data"},
    {M::kCommsRma, "comms_rma", "Remote Memory Access", U::kOccurrences, M::kComms,
     "MPI one-sided transfers"},
    {M::kCommsRmaPuts, "comms_rma_puts", "Puts", U::kOccurrences, M::kCommsRma,
     "MPI one-sided put operations"},
    {M::kCommsRmaGets, "comms_rma_gets", "Gets", U::kOccurrences, M::kCommsRma,
     "MPI one-sided get operations"},
    {M::kBytes, "bytes", "Bytes transferred", U::kBytes, std::nullopt,
     "Bytes moved by MPI communication"},
    {M::kBytesP2p, "bytes_p2p", "Point-to-point", U::kBytes, M::kBytes,
     "Bytes sent and received in point-to-point messages"},
    {M::kBytesSent, "bytes_sent", "Sent", U::kBytes, M::kBytesP2p,
     "Bytes sent in point-to-point messages"},
    {M::kBytesRcvd, "bytes_rcvd", "Received", U::kBytes, M::kBytesP2p,
     "Bytes received in matched point-to-point messages (as the sender recorded them)"},
    {M::kBytesColl, "bytes_coll", "Collective", U::kBytes, M::kBytes,
     "Bytes sent and received in collective operations"},
    {M::kBytesCout, "bytes_cout", "Outgoing", U::kBytes, M::kBytesColl,
     "Bytes a location contributed to collective operations"},
    {M::kBytesCin, "bytes_cin", "Incoming", U::kBytes, M::kBytesColl,
     "Bytes a location received in collective operations"},
    {M::kBytesRma, "bytes_rma", "Remote Memory Access", U::kBytes, M::kBytes,
     "Bytes moved by MPI one-sided operations"},
    {M::kBytesPut, "bytes_put", "Sent", U::kBytes, M::kBytesRma, "Bytes written by MPI puts"},
    {M::kBytesGet, "bytes_get", "Received", U::kBytes, M::kBytesRma, "Bytes read by MPI gets"},
}};

}  // namespace

const MetricInfo& Metric(MetricId id) { return kMetrics[static_cast<size_t>(id)]; }

std::span<const MetricInfo> AllMetrics() { return kMetrics; }

std::span<const MetricId> MetricWithAncestors(MetricId id) {
  struct Chains {
    std::array<std::array<MetricId, kMaxMetricDepth>, kMetricCount> ids{};
    std::array<size_t, kMetricCount> length{};
    Chains() {
      for (size_t m = 0; m < kMetricCount; ++m) {
        for (std::optional<MetricId> p = static_cast<MetricId>(m); p;
             p = kMetrics[static_cast<size_t>(*p)].parent) {
          ids[m][length[m]++] = *p;
        }
      }
    }
  };
  static const Chains chains;
  size_t m = static_cast<size_t>(id);
  return {chains.ids[m].data(), chains.length[m]};
}

std::optional<MetricId> FindMetric(std::string_view name) {
  for (const MetricInfo& m : kMetrics) {
    if (m.name == name) return m.id;
  }
  return std::nullopt;
}

}  // namespace cw::analysis
