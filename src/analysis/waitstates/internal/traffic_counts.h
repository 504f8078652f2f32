// Message, synchronisation and byte counts of one location, accumulated per call path and
// written to the severities once at the end (private).
//
// Counting happens per event; pushing every count up the metric tree right away would cost a
// dozen severity updates per message. The accumulator does one array update per event instead.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "analysis/metrics/severity.h"
#include "trace/enums.h"
#include "trace/file_io.h"

namespace cw::analysis::internal {

// Scalasca's classes of MPI file calls (its remapping specification, scout.spec): reads and
// writes, individual or collective, and the other file calls, which count as individual
// operations if they delete, query or seek and as collective ones otherwise.
enum class FileOperation : uint8_t {
  kNone,
  kIndividualRead,
  kIndividualWrite,
  kIndividualOther,
  kCollectiveRead,
  kCollectiveWrite,
  kCollectiveOther,
};
// The class of a region named `name` (kNone for anything but an MPI file call).
FileOperation FileOperationOf(std::string_view name);

class TrafficCounts {
 public:
  explicit TrafficCounts(uint32_t callpaths) : slot_(callpaths, trace::kNone) {}

  void Send(uint32_t callpath, uint64_t bytes) {
    Counters& c = At(callpath);
    (bytes == 0 ? c.syncs_send : c.comms_send) += 1;
    c.bytes_sent += bytes;
  }
  void Receive(uint32_t callpath, uint64_t bytes) {
    Counters& c = At(callpath);
    (bytes == 0 ? c.syncs_recv : c.comms_recv) += 1;
    c.bytes_rcvd += bytes;
  }
  void Collective(uint32_t callpath, uint64_t sent, uint64_t received) {
    Counters& c = At(callpath);
    if (sent > 0 && received > 0) {
      ++c.cxch;
    } else if (sent > 0) {
      ++c.csrc;
    } else if (received > 0) {
      ++c.cdst;
    } else {
      ++c.syncs_coll;
    }
    c.bytes_cout += sent;
    c.bytes_cin += received;
  }
  void Rma(uint32_t callpath, bool put, uint64_t bytes) {
    Counters& c = At(callpath);
    (put ? c.puts : c.gets) += 1;
    (put ? c.bytes_put : c.bytes_get) += bytes;
  }

  // A visit of an MPI file call, counted as Scalasca counts it (FileOperationOf).
  void FileOperationVisit(uint32_t callpath, FileOperation op) {
    Counters& c = At(callpath);
    switch (op) {
      case FileOperation::kIndividualRead:
        ++c.file_irops;
        break;
      case FileOperation::kIndividualWrite:
        ++c.file_iwops;
        break;
      case FileOperation::kIndividualOther:
        ++c.file_iops;
        break;
      case FileOperation::kCollectiveRead:
        ++c.file_crops;
        break;
      case FileOperation::kCollectiveWrite:
        ++c.file_cwops;
        break;
      case FileOperation::kCollectiveOther:
        ++c.file_cops;
        break;
      case FileOperation::kNone:
        break;
    }
  }
  // The bytes an MPI-IO operation moved (its IoOperationComplete), under the call path, mode
  // and flags of its IoOperationBegin.
  void FileBytes(uint32_t callpath, uint8_t otf2_mode, bool collective, uint64_t bytes) {
    Counters& c = At(callpath);
    if (otf2_mode == trace::kIoModeRead) (collective ? c.file_crbytes : c.file_irbytes) += bytes;
    if (otf2_mode == trace::kIoModeWrite) (collective ? c.file_cwbytes : c.file_iwbytes) += bytes;
  }

  // Adds every count to its metric and the metric's ancestors.
  void WriteTo(LocationSeverities& severities) const;

 private:
  struct Counters {
    uint32_t callpath;
    uint64_t syncs_send = 0, comms_send = 0, bytes_sent = 0;
    uint64_t syncs_recv = 0, comms_recv = 0, bytes_rcvd = 0;
    uint64_t syncs_coll = 0, cxch = 0, csrc = 0, cdst = 0, bytes_cout = 0, bytes_cin = 0;
    uint64_t puts = 0, gets = 0, bytes_put = 0, bytes_get = 0;
    // MPI file calls: reads, writes and the others (management), individual and collective.
    uint64_t file_iops = 0, file_irops = 0, file_iwops = 0, file_cops = 0, file_crops = 0,
             file_cwops = 0;
    uint64_t file_irbytes = 0, file_iwbytes = 0, file_crbytes = 0, file_cwbytes = 0;
  };

  Counters& At(uint32_t callpath) {
    uint32_t& slot = slot_[callpath];
    if (slot == trace::kNone) {
      slot = static_cast<uint32_t>(counters_.size());
      counters_.push_back(Counters{callpath});
    }
    return counters_[slot];
  }

  std::vector<uint32_t> slot_;  // by call path: index into counters_, or kNone
  std::vector<Counters> counters_;
};

}  // namespace cw::analysis::internal
