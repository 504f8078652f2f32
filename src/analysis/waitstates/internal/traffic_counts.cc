#include "analysis/waitstates/internal/traffic_counts.h"

#include "analysis/waitstates/internal/context.h"

namespace cw::analysis::internal {

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
