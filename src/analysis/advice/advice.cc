#include "analysis/advice/advice.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

#include "analysis/advice/barrier_redundancy.h"
#include "analysis/advice/cause_analysis.h"
#include "analysis/advice/detection.h"
#include "analysis/advice/frequency.h"
#include "analysis/advice/hints.h"
#include "analysis/advice/instance_stats.h"
#include "analysis/advice/load_balance.h"
#include "analysis/advice/location_walk.h"
#include "analysis/advice/rank_shares.h"
#include "analysis/advice/records.h"
#include "analysis/generic/construct_map.h"
#include "comm/wire.h"
#include "trace/scheduling.h"

namespace cw::analysis {
namespace {

// Removes the findings `folded` marks (another finding took them in), keeping the order.
void EraseFolded(std::vector<AdviceFinding>& findings, const std::vector<bool>& folded) {
  size_t kept = 0;
  for (size_t i = 0; i < findings.size(); ++i) {
    if (folded[i]) continue;
    if (kept != i) findings[kept] = std::move(findings[i]);
    ++kept;
  }
  findings.resize(kept);
}

bool IsTransferRun(AdvicePattern p) {
  return p == AdvicePattern::kSmallTransfers || p == AdvicePattern::kSerialisedTransfers;
}

// One problem, one finding: a run of transfers is what makes its call path frequent, what its
// targets wait for and what the call completing it takes. A high-frequency finding at a run's
// call path, a wait finding all of whose causes are the run's call path on the run's locations
// (receivers waiting for the serialised sends before theirs), a slow completion call right
// after the runs on their locations, and the slow transfers of the run's own call path there
// (some of a run's many transfers are always slower than the others) are counted in the run's
// finding and leave the list.
void FoldIntoTransferRuns(std::vector<AdviceFinding>& findings) {
  std::vector<bool> folded(findings.size(), false);
  for (AdviceFinding& run : findings) {
    if (!IsTransferRun(run.pattern)) continue;
    auto in_run = [&run](const AdviceCause& c) {
      return c.callpath == run.callpath &&
             std::binary_search(run.locations.begin(), run.locations.end(), c.location);
    };
    for (size_t i = 0; i < findings.size(); ++i) {
      AdviceFinding& f = findings[i];
      if (folded[i] || &f == &run) continue;
      const bool frequent =
          f.pattern == AdvicePattern::kHighFrequency && f.callpath == run.callpath;
      const bool waits_for_it = IsWaitPattern(f.pattern) && !f.causes.empty() &&
                                std::all_of(f.causes.begin(), f.causes.end(), in_run);
      // The completion call after the run (MPI_Win_unlock_all after the puts) is slow because
      // it completes them.
      const bool on_its_locations =
          std::all_of(f.locations.begin(), f.locations.end(), [&run](uint32_t l) {
            return std::binary_search(run.locations.begin(), run.locations.end(), l);
          });
      const bool completes_it =
          f.pattern == AdvicePattern::kNoRemoteCause &&
          std::binary_search(run.completed_by.begin(), run.completed_by.end(), f.callpath) &&
          on_its_locations;
      const bool is_it = f.pattern == AdvicePattern::kNoRemoteCause && f.callpath == run.callpath &&
                         on_its_locations;
      if (!frequent && !waits_for_it && !completes_it && !is_it) continue;
      for (size_t k = 0; k < kAdvicePatternCount; ++k) {
        run.pattern_counts[k] += f.pattern_counts[k];
        run.pattern_time[k] += f.pattern_time[k];
      }
      if (waits_for_it) {
        for (const AdviceCause& c : f.causes) run.caused_wait += c.time;
      }
      folded[i] = true;
    }
  }
  EraseFolded(findings, folded);
}

// One problem, one finding: a wait is what its causes' imbalance costs the others. An
// imbalanced local call path whose slowest process caused a wait finding's instances becomes
// a root cause of every such finding (one computation can make processes wait at several
// places), and the imbalanced blocks a waited-at synchronisation ends are counted in it; both
// leave the list. Waits take them in order of excess.
void FoldIntoWaits(std::vector<AdviceFinding>& findings) {
  std::vector<size_t> waits;
  for (size_t i = 0; i < findings.size(); ++i) {
    if (IsWaitPattern(findings[i].pattern)) waits.push_back(i);
  }
  std::stable_sort(waits.begin(), waits.end(), [&](size_t a, size_t b) {
    return ExcessTime(findings[a]) > ExcessTime(findings[b]);
  });
  std::vector<bool> folded(findings.size(), false);
  for (size_t w : waits) {
    AdviceFinding& wait = findings[w];
    for (size_t i = 0; i < findings.size(); ++i) {
      AdviceFinding& f = findings[i];
      if (f.locations.empty()) continue;
      if (f.pattern == AdvicePattern::kImbalancedCallpath) {
        const uint32_t slowest = f.locations.front();
        const bool caused =
            std::any_of(wait.causes.begin(), wait.causes.end(),
                        [&](const AdviceCause& c) { return c.location == slowest; });
        if (!caused) continue;
        wait.root_causes.push_back(RootCause{f.callpath, slowest, f.max, f.mean});
        folded[i] = true;
      } else if (!folded[i] && f.pattern == AdvicePattern::kImbalancedBlock &&
                 f.callpath == wait.callpath && wait.pattern == AdvicePattern::kWaitOnGroup) {
        wait.imbalanced_blocks += f.bottleneck_instances;
        wait.blocks.insert(wait.blocks.end(), f.blocks.begin(), f.blocks.end());
        folded[i] = true;
      }
    }
  }
  // A group wait that imbalanced blocks explain but no imbalanced call path does: every process
  // works as much as the others in all, yet not in each block. The blocks are what to fix.
  for (size_t w : waits) {
    AdviceFinding& wait = findings[w];
    if (wait.pattern != AdvicePattern::kWaitOnGroup || wait.imbalanced_blocks == 0 ||
        !wait.root_causes.empty()) {
      continue;
    }
    // Its instances keep their pattern counts (they waited on the group); imbalanced_blocks
    // counts the blocks.
    wait.pattern = AdvicePattern::kImbalancedBlock;
    wait.hints = HintsFor(wait.pattern, wait.type, wait.between_threads);
  }
  EraseFolded(findings, folded);
}

// On a node with more threads than CPUs, or whose CPUs other processes took, an operation slow
// with no process to blame most likely waited for a CPU: that comes first, before the network or
// the algorithm.
void HintAtTheScheduler(const trace::Definitions& defs, std::vector<AdviceFinding>& findings) {
  std::string hint;
  if (trace::Oversubscribed(defs)) {
    hint = "the run was oversubscribed (" + trace::OversubscriptionText(defs) +
           "): the operation most likely waited for a CPU; measure again with at most one process "
           "or thread per CPU (and pinned) before changing the program";
  } else if (trace::ContendedForCpus(defs)) {
    hint = "other processes took the run's CPUs (" + trace::CpuContentionText(defs) +
           "): the operation most likely waited for a CPU; check the node's other jobs and the "
           "pinning, and measure again on a quiet node before changing the program";
  } else {
    return;
  }
  for (AdviceFinding& f : findings) {
    if (f.pattern == AdvicePattern::kNoRemoteCause ||
        f.pattern == AdvicePattern::kCompetingTransfer) {
      f.hints.insert(f.hints.begin(), hint);
    }
  }
}

// A wait whose main cause is a process that the scheduler kept off a CPU for a good part of its
// computation (its samples measured it): that process was late partly for want of a CPU, which no
// change to the program's work would remove.
void HintAtDescheduledCauses(const trace::Definitions& defs, std::vector<AdviceFinding>& findings) {
  for (AdviceFinding& f : findings) {
    if (!IsWaitPattern(f.pattern) || f.causes.empty()) continue;
    const uint32_t rank = defs.RankOfLocation(f.causes.front().location);
    for (const trace::Definitions::RankSchedule& r : defs.rank_schedules) {
      const double share = trace::DescheduledShare(r);
      if (r.rank != rank || share < trace::kContendedShare) continue;
      char hint[240];
      std::snprintf(hint, sizeof hint,
                    "rank %u, which it waited for most, was descheduled %.0f %% of its "
                    "computation: part of the waiting is the scheduler's; measure again with "
                    "at most one process or thread per CPU (and pinned) before changing the "
                    "program",
                    rank, 100 * share);
      f.hints.insert(f.hints.begin(), hint);
      break;
    }
  }
}

}  // namespace

double ExcessTime(const AdviceFinding& f) {
  const double expected = f.expected ? *f.expected : f.mean;
  return std::max(0.0, static_cast<double>(f.bottleneck_time) -
                           expected * static_cast<double>(f.bottleneck_instances));
}

namespace {

constexpr uint32_t kFirst = 0;  // the rank of an analysis job that finishes the advice

// On a rank of an analysis job: every rank's instance statistics and location time merged, so
// that every rank detects the same bottlenecks.
void MergeInstanceStats(comm::Communicator& comm, std::vector<InstanceStats>& stats,
                        uint64_t& total_time) {
  comm::ByteWriter mine;
  PutStats(mine, stats);
  mine.Put(total_time);
  std::vector<comm::Bytes> shares = comm.Gather(mine.Take(), kFirst);
  comm::ByteWriter merged;
  if (comm.rank() == kFirst) {
    stats.assign(stats.size(), InstanceStats{});
    total_time = 0;
    for (const comm::Bytes& bytes : shares) {
      comm::ByteReader r(bytes);
      const std::vector<InstanceStats> share = GetStats(r);
      for (size_t c = 0; c < share.size() && c < stats.size(); ++c) stats[c].Merge(share[c]);
      total_time += r.Get<uint64_t>();
    }
    PutStats(merged, stats);
    merged.Put(total_time);
  }
  const comm::Bytes all = comm.Broadcast(merged.Take(), kFirst);
  comm::ByteReader r(all);
  stats = GetStats(r);
  total_time = r.Get<uint64_t>();
}

// What each rank finds on its own locations: the causes of the bottlenecks and its shares of
// the global analyses.
struct LocalShares {
  std::vector<AdviceFinding> findings;
  LoadBalanceShare balance;
  std::vector<BarrierMember> barriers;
  FrequencyShare frequency;
};

// On a rank of an analysis job: the shares of every rank gathered on the first, combined in
// rank (so location) order. False on the other ranks, which are done.
bool GatherShares(comm::Communicator& comm, LocalShares& shares) {
  comm::ByteWriter mine;
  PutCauses(mine, shares.findings);
  PutLoadBalance(mine, shares.balance);
  mine.PutVector(shares.barriers);
  PutFrequency(mine, shares.frequency);
  const std::vector<comm::Bytes> gathered = comm.Gather(mine.Take(), kFirst);
  if (comm.rank() != kFirst) return false;
  shares = LocalShares{};
  for (const comm::Bytes& bytes : gathered) {
    comm::ByteReader r(bytes);
    std::vector<AdviceFinding> share = GetCauses(r);
    if (shares.findings.empty()) {
      shares.findings = std::move(share);
    } else {
      MergeCauses(shares.findings, share);
    }
    MergeLoadBalance(shares.balance, GetLoadBalance(r));
    const std::vector<BarrierMember> members = r.GetVector<BarrierMember>();
    shares.barriers.insert(shares.barriers.end(), members.begin(), members.end());
    MergeFrequency(shares.frequency, GetFrequency(r));
  }
  return true;
}

// Each finding's construct type, time, instance statistics and hints.
void DescribeFindings(const trace::Trace& trace, std::span<const GenericType> region_types,
                      const std::vector<InstanceStats>& stats,
                      std::vector<AdviceFinding>& findings) {
  for (AdviceFinding& f : findings) {
    const InstanceStats& s = stats[f.callpath];
    const uint32_t region = trace.CallpathRegion(f.callpath);
    f.type = CallpathType(trace, region_types, f.callpath);
    f.between_threads = region < trace.defs.regions.size() &&
                        trace.defs.regions[region].paradigm == trace::Paradigm::kOpenMp;
    f.time = s.total;
    f.mean = s.Mean();
    f.min = s.min;
    f.max = s.max;
    f.instances = s.count;
    f.hints = HintsFor(f.pattern, f.type, f.between_threads);
  }
  std::erase_if(findings, [](const AdviceFinding& f) { return f.bottleneck_instances == 0; });
}

// The findings by the time their bottleneck instances took beyond what was expected of them,
// at most `parameters.max_findings` of them.
void RankFindings(std::vector<AdviceFinding> findings, const AdviceParameters& parameters,
                  Advice& advice) {
  std::stable_sort(findings.begin(), findings.end(),
                   [](const AdviceFinding& a, const AdviceFinding& b) {
                     return std::make_tuple(-ExcessTime(a), a.callpath) <
                            std::make_tuple(-ExcessTime(b), b.callpath);
                   });
  if (findings.size() > parameters.max_findings) {
    advice.findings_left_out = findings.size() - parameters.max_findings;
    findings.resize(parameters.max_findings);
  }
  advice.findings = std::move(findings);
}

// The analysis in one process (`comm` null) or on one rank of an MPI analysis job, whose
// `in.trace` holds the events of its own locations only: the ranks merge their instance
// statistics (every rank detects the same bottlenecks from them), analyse the causes and the
// shares of the global analyses on their own locations, and the first rank combines the shares
// in location order and finishes, with the same code one process runs.
std::optional<Advice> AnalyzeAdviceShared(const AdviceInput& in, const AdviceParameters& parameters,
                                          comm::Communicator* comm,
                                          const trace::Partition* partition) {
  Advice advice;
  advice.parameters = parameters;
  if (in.baselines != nullptr) advice.baselines = in.baselines_path;
  const trace::Trace& trace = *in.trace;
  advice.total_time = TotalLocationTime(trace);
  // The instance statistics and the runs of transfers, from one walk over every event, which
  // also collects the instances the cause analysis will read. On a rank of an analysis job, the
  // profiles of the other ranks' locations are not at hand, so it reads every event.
  const std::vector<uint8_t> candidates =
      comm == nullptr ? HotspotCandidates(trace, in.region_types, advice.total_time, parameters)
                      : std::vector<uint8_t>{};
  WalkedLocations walked =
      WalkLocations(trace, in.region_types, candidates, parameters, in.threads);
  std::vector<InstanceStats>& stats = walked.stats;
  AddWaiting(in.severities, stats);
  if (comm != nullptr) MergeInstanceStats(*comm, stats, advice.total_time);

  DetectionInput detect;
  detect.trace = &trace;
  detect.stats = stats;
  detect.region_types = in.region_types;
  detect.total_time = advice.total_time;
  detect.baselines = in.baselines;
  detect.processes = ProcessCount(trace.defs);
  const std::vector<DetectedBottleneck> bottlenecks =
      DetectBottlenecks(detect, parameters, &advice.candidates);

  CauseInput causes;
  causes.trace = &trace;
  causes.graph = in.graph;
  causes.edges = in.edges;
  causes.region_types = in.region_types;
  causes.bottlenecks = bottlenecks;
  // Unless a profile missed instances the walk measured (the lists would then lack some), or
  // there are no candidates (an analysis job's rank): then every event is read.
  if (BottlenecksAmong(bottlenecks, candidates)) {
    causes.instances = walked.candidate_instances;
  }
  causes.threads = in.threads;
  causes.comm = comm;
  causes.partition = partition;
  LocalShares shares;
  shares.findings = AnalyzeCauses(causes);

  GlobalInput global;
  global.trace = &trace;
  global.graph = in.graph;
  global.region_types = in.region_types;
  global.severities = in.severities;
  global.total_time = advice.total_time;
  global.threads = in.threads;
  const std::vector<uint32_t> member_instance = MemberInstances(*in.graph);
  global.member_instance = member_instance;
  shares.balance = ShareLoadBalance(global);
  shares.barriers = ShareBarrierMembers(global);
  shares.frequency = ShareFrequency(global, parameters, std::move(walked.runs));
  if (comm != nullptr && !GatherShares(*comm, shares)) return std::nullopt;

  std::vector<AdviceFinding>& findings = shares.findings;
  FinishCauses(findings);
  DescribeFindings(trace, in.region_types, stats, findings);
  advice.load_balance = FinishLoadBalance(shares.balance, global, parameters, findings);
  advice.redundant_barriers =
      FinishRedundantBarriers(std::move(shares.barriers), global, parameters, findings);
  FinishFrequency(std::move(shares.frequency), global, parameters, findings);
  // A run's transfers among all of its call path's (the predicted saving merges or overlaps
  // them at the shortest or longest).
  for (AdviceFinding& f : findings) {
    if (!IsTransferRun(f.pattern) || f.callpath >= stats.size()) continue;
    f.min = stats[f.callpath].min;
    f.max = stats[f.callpath].max;
  }
  FoldIntoTransferRuns(findings);
  FoldIntoWaits(findings);
  HintAtTheScheduler(trace.defs, findings);
  HintAtDescheduledCauses(trace.defs, findings);
  RankFindings(std::move(findings), parameters, advice);
  return advice;
}

}  // namespace

Advice AnalyzeAdvice(const AdviceInput& in, const AdviceParameters& parameters) {
  return *AnalyzeAdviceShared(in, parameters, nullptr, nullptr);
}

std::optional<Advice> AnalyzeAdviceAsJobRank(const AdviceInput& in,
                                             const AdviceParameters& parameters,
                                             comm::Communicator& comm,
                                             const trace::Partition& partition) {
  return AnalyzeAdviceShared(in, parameters, &comm, &partition);
}

}  // namespace cw::analysis
