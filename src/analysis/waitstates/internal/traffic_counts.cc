#include "analysis/waitstates/internal/traffic_counts.h"

#include <regex>
#include <string>

#include "analysis/waitstates/internal/context.h"

namespace cw::analysis::internal {

FileOperation FileOperationOf(std::string_view name) {
  // The patterns of Scalasca 2.6's scout.spec, which Cube's MPI file operation metrics follow.
  static const std::regex kIndividual("^MPI_File_i?(read|write)(_at|_shared)?$");
  static const std::regex kCollective(
      "^MPI_File_((iread|iwrite)_(all|at_all)|(read|write)_(all|at_all|ordered)(_begin|_end)?)$");
  static const std::regex kOther(
      "^MPI_File_(close|delete|get_(amode|atomicity|byte_offset|group|info|position(_shared)?|"
      "size|type_extent|view)|open|preallocate|seek(_shared)?|set_(atomicity|info|size|view)|"
      "sync)$");
  static const std::regex kIndividualOther("(delete|get|seek)");
  const std::string text(name);
  const bool read = text.find("read") != std::string::npos;
  if (std::regex_match(text, kIndividual)) {
    return read ? FileOperation::kIndividualRead : FileOperation::kIndividualWrite;
  }
  if (std::regex_match(text, kCollective)) {
    return read ? FileOperation::kCollectiveRead : FileOperation::kCollectiveWrite;
  }
  if (std::regex_match(text, kOther)) {
    return std::regex_search(text, kIndividualOther) ? FileOperation::kIndividualOther
                                                     : FileOperation::kCollectiveOther;
  }
  return FileOperation::kNone;
}

void TrafficCounts::WriteTo(LocationSeverities& severities) const {
  auto add = [&](MetricId metric, uint32_t callpath, uint64_t value) {
    if (value != 0) AddWithAncestors(severities, metric, callpath, static_cast<double>(value));
  };
  for (const Counters& c : counters_) {
    add(MetricId::kSyncsSend, c.callpath, c.syncs_send);
    add(MetricId::kCommsSend, c.callpath, c.comms_send);
    add(MetricId::kBytesSent, c.callpath, c.bytes_sent);
    add(MetricId::kSyncsRecv, c.callpath, c.syncs_recv);
    add(MetricId::kCommsRecv, c.callpath, c.comms_recv);
    add(MetricId::kBytesRcvd, c.callpath, c.bytes_rcvd);
    add(MetricId::kSyncsColl, c.callpath, c.syncs_coll);
    add(MetricId::kCommsCxch, c.callpath, c.cxch);
    add(MetricId::kCommsCsrc, c.callpath, c.csrc);
    add(MetricId::kCommsCdst, c.callpath, c.cdst);
    add(MetricId::kBytesCout, c.callpath, c.bytes_cout);
    add(MetricId::kBytesCin, c.callpath, c.bytes_cin);
    add(MetricId::kCommsRmaPuts, c.callpath, c.puts);
    add(MetricId::kCommsRmaGets, c.callpath, c.gets);
    add(MetricId::kBytesPut, c.callpath, c.bytes_put);
    add(MetricId::kBytesGet, c.callpath, c.bytes_get);
    add(MetricId::kMpiFileIops, c.callpath, c.file_iops);
    add(MetricId::kMpiFileIrops, c.callpath, c.file_irops);
    add(MetricId::kMpiFileIwops, c.callpath, c.file_iwops);
    add(MetricId::kMpiFileCops, c.callpath, c.file_cops);
    add(MetricId::kMpiFileCrops, c.callpath, c.file_crops);
    add(MetricId::kMpiFileCwops, c.callpath, c.file_cwops);
    add(MetricId::kMpiFileIrbytes, c.callpath, c.file_irbytes);
    add(MetricId::kMpiFileIwbytes, c.callpath, c.file_iwbytes);
    add(MetricId::kMpiFileCrbytes, c.callpath, c.file_crbytes);
    add(MetricId::kMpiFileCwbytes, c.callpath, c.file_cwbytes);
  }
}

}  // namespace cw::analysis::internal
