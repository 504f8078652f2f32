// What crosses between the ranks of an MPI analysis job for the bottleneck analysis: each rank's
// instance statistics (merged and sent back, for every rank's detection), and the shares of its
// locations that the first rank combines (the cause analysis's findings, the load balance, the
// barrier members, the frequency analysis). Written and read back in the same order.
#pragma once

#include <vector>

#include "analysis/advice/advice_types.h"
#include "analysis/advice/barrier_redundancy.h"
#include "analysis/advice/frequency.h"
#include "analysis/advice/instance_stats.h"
#include "analysis/advice/load_balance.h"
#include "comm/wire.h"

namespace cw::analysis {

void PutStats(comm::ByteWriter& w, const std::vector<InstanceStats>& stats);
std::vector<InstanceStats> GetStats(comm::ByteReader& r);

// The share AnalyzeCauses returns: per finding its locations, counts, times and causes.
void PutCauses(comm::ByteWriter& w, const std::vector<AdviceFinding>& findings);
std::vector<AdviceFinding> GetCauses(comm::ByteReader& r);

void PutLoadBalance(comm::ByteWriter& w, const LoadBalanceShare& share);
LoadBalanceShare GetLoadBalance(comm::ByteReader& r);

void PutFrequency(comm::ByteWriter& w, const FrequencyShare& share);
FrequencyShare GetFrequency(comm::ByteReader& r);

}  // namespace cw::analysis
