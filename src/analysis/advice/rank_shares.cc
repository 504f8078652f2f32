#include "analysis/advice/rank_shares.h"

namespace cw::analysis {

void PutStats(comm::ByteWriter& w, const std::vector<InstanceStats>& stats) { w.PutVector(stats); }
std::vector<InstanceStats> GetStats(comm::ByteReader& r) { return r.GetVector<InstanceStats>(); }

void PutCauses(comm::ByteWriter& w, const std::vector<AdviceFinding>& findings) {
  w.Put(static_cast<uint64_t>(findings.size()));
  for (const AdviceFinding& f : findings) {
    w.Put(f.callpath);
    w.Put(f.filter);
    w.Put(f.expected.has_value());
    w.Put(f.expected.value_or(0));
    w.PutVector(f.locations);
    w.Put(f.bottleneck_instances);
    w.Put(f.bottleneck_time);
    w.Put(f.pattern_counts);
    w.Put(f.pattern_time);
    w.PutVector(f.causes);
  }
}

std::vector<AdviceFinding> GetCauses(comm::ByteReader& r) {
  std::vector<AdviceFinding> findings(r.Get<uint64_t>());
  for (AdviceFinding& f : findings) {
    f.callpath = r.Get<uint32_t>();
    f.filter = r.Get<DetectionFilter>();
    const bool expected = r.Get<bool>();
    const double value = r.Get<double>();
    if (expected) f.expected = value;
    f.locations = r.GetVector<uint32_t>();
    f.bottleneck_instances = r.Get<uint64_t>();
    f.bottleneck_time = r.Get<uint64_t>();
    f.pattern_counts = r.Get<decltype(f.pattern_counts)>();
    f.pattern_time = r.Get<decltype(f.pattern_time)>();
    f.causes = r.GetVector<AdviceCause>();
  }
  return findings;
}

void PutLoadBalance(comm::ByteWriter& w, const LoadBalanceShare& share) {
  w.PutVector(share.processes);
  for (size_t i = 0; i < share.processes.size(); ++i) {
    w.PutVector(share.boundaries[i]);
    w.Put(static_cast<uint64_t>(share.callpaths[i].size()));
    for (const auto& [callpath, time] : share.callpaths[i]) {
      w.Put(callpath);
      w.Put(time);
    }
  }
}

LoadBalanceShare GetLoadBalance(comm::ByteReader& r) {
  LoadBalanceShare share;
  share.processes = r.GetVector<ProcessBalance>();
  for (size_t i = 0; i < share.processes.size(); ++i) {
    share.boundaries.push_back(r.GetVector<Boundary>());
    std::vector<std::pair<uint32_t, uint64_t>> times(r.Get<uint64_t>());
    for (auto& [callpath, time] : times) {
      callpath = r.Get<uint32_t>();
      time = r.Get<uint64_t>();
    }
    share.callpaths.push_back(std::move(times));
  }
  return share;
}

void PutFrequency(comm::ByteWriter& w, const FrequencyShare& share) {
  w.PutVector(share.frequent);
  w.Put(static_cast<uint64_t>(share.runs.size()));
  for (const FrequencyShare::Runs& runs : share.runs) {
    w.Put(runs.location);
    w.Put(runs.pattern);
    w.Put(runs.callpath);
    w.Put(runs.runs);
    w.Put(runs.transfers);
    w.Put(runs.time);
    w.PutVector(runs.completed_by);
  }
}

FrequencyShare GetFrequency(comm::ByteReader& r) {
  FrequencyShare share;
  share.frequent = r.GetVector<FrequencyShare::Frequent>();
  share.runs.resize(r.Get<uint64_t>());
  for (FrequencyShare::Runs& runs : share.runs) {
    runs.location = r.Get<uint32_t>();
    runs.pattern = r.Get<AdvicePattern>();
    runs.callpath = r.Get<uint32_t>();
    runs.runs = r.Get<uint64_t>();
    runs.transfers = r.Get<uint64_t>();
    runs.time = r.Get<uint64_t>();
    runs.completed_by = r.GetVector<uint32_t>();
  }
  return share;
}

}  // namespace cw::analysis
