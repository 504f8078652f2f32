#include "driver/job_analysis.h"

#include <sys/resource.h>

#include <chrono>
#include <future>

#include "analysis/advice/advice.h"
#include "analysis/advice/delay_root_causes.h"
#include "analysis/pipeline/analysis.h"
#include "analysis/pop/pop_efficiency.h"
#include "analysis/waitstates/waitstate_analysis.h"
#include "driver/internal/job_shares.h"
#include "driver/predicted_saving.h"
#include "job_read/owned_locations.h"
#include "match/matcher.h"
#include "sim/otf2_source.h"
#include "sim/whatif.h"
#include "trace/partition.h"

namespace cw::driver {
namespace {

using internal::AddDelayResult;
using internal::AddPathFacts;
using internal::GetAnalysisInstances;
using internal::GetDiagnostics;
using internal::GetEventViews;
using internal::GetReportInstances;
using internal::GetSeverities;
using internal::GetSpans;
using internal::PutAnalysisInstances;
using internal::PutDelayResult;
using internal::PutDiagnostics;
using internal::PutEventViews;
using internal::PutPathFacts;
using internal::PutReportInstances;
using internal::PutSeverities;
using internal::PutSpans;
using job_read::AgreeOnStatus;
using job_read::ReadOwnedLocations;

constexpr uint32_t kFirstRank = 0;

// Times the phases of the job; collective (every rank laps every phase).
class PhaseLog {
 public:
  explicit PhaseLog(comm::Communicator& comm)
      : comm_(comm), since_(std::chrono::steady_clock::now()), bytes_(comm.traffic().bytes_sent) {}

  void Lap(const char* name) {
    const double mine =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - since_).count();
    const uint64_t slowest_us =
        comm_.AllReduce(static_cast<uint64_t>(mine * 1e6), comm::ReduceOp::kMax);
    const uint64_t bytes =
        comm_.AllReduce(comm_.traffic().bytes_sent - bytes_, comm::ReduceOp::kSum);
    phases_.push_back(JobPhase{name, static_cast<double>(slowest_us) / 1e6, bytes});
    since_ = std::chrono::steady_clock::now();
    bytes_ = comm_.traffic().bytes_sent;
  }
  std::vector<JobPhase> Take() { return std::move(phases_); }

 private:
  comm::Communicator& comm_;
  std::chrono::steady_clock::time_point since_;
  uint64_t bytes_;
  std::vector<JobPhase> phases_;
};

// Every rank's peak resident set, on the first rank.
std::vector<uint64_t> GatherPeakMemory(comm::Communicator& comm) {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  comm::ByteWriter out;
  out.Put(static_cast<uint64_t>(usage.ru_maxrss) * 1024);  // Linux reports KiB
  std::vector<uint64_t> peaks;
  for (const comm::Bytes& bytes : comm.Gather(out.Take(), kFirstRank)) {
    comm::ByteReader in(bytes);
    peaks.push_back(in.Get<uint64_t>());
  }
  return peaks;
}

// The trace replayed on an ideal network (POP's T_ideal), streamed from the file so that the
// first rank never needs every location's events (sim/otf2_source.h).
// `comms`: the communicators as the reader left them (moved to the threads that used them).
std::optional<sim::ReplayResult> ReplayOnIdealNetwork(const std::string& path,
                                                      std::vector<trace::Comm> comms) {
  Result<std::unique_ptr<sim::StreamedTrace>> streamed = sim::StreamedTrace::Open(path);
  if (!streamed) return std::nullopt;
  (*streamed)->SetCommunicators(std::move(comms));
  Result<sim::ReplayResult> replay = sim::ReplayOnIdealNetwork((*streamed)->Input());
  if (!replay) return std::nullopt;
  return std::move(*replay);
}

// What the root-cause analyses found on one rank.
struct RootCauses {
  Diagnostics sync_points;
  analysis::DelayResult delay;
  analysis::CriticalPathFacts path;
};

// Every rank builds the synchronisation points of its locations (from the followed edges of
// `waitstates`, KeepFollowedEdges), runs its part of the delay
// analysis (its severities get its locations' delay costs) and walks the critical path where it
// crosses its locations: three passes, each lapped. The rank keeps its synchronisation points
// for the first rank's finish.
RootCauses AnalyzeRootCauses(const trace::Trace& trace, analysis::WaitStateResult& waitstates,
                             const trace::Partition& partition, comm::Communicator& comm,
                             unsigned threads, analysis::Semantics semantics,
                             std::optional<analysis::SyncPoints>& sync_points, PhaseLog& log) {
  const analysis::RankShare share{&comm, &partition};
  sync_points.emplace(analysis::BuildSyncPoints(trace, std::move(waitstates.sync), threads, share));
  log.Lap("sync points");
  RootCauses r;
  r.sync_points = sync_points->diagnostics;
  analysis::DelayOptions delay;
  delay.threads = threads;
  delay.semantics = semantics;
  r.delay = analysis::AnalyzeDelay(trace, *sync_points, waitstates.severities, delay);
  log.Lap("delay");
  r.path = analysis::WalkCriticalPath(trace, *sync_points, threads, semantics);
  log.Lap("critical path");
  return r;
}

// What every rank sends the first one after its analyses.
comm::Bytes AnalysisShare(const trace::Trace& trace, const match::SyncGraph& graph,
                          const analysis::WaitStateResult& waitstates,
                          const std::optional<RootCauses>& root_causes,
                          std::span<const uint32_t> owned) {
  comm::ByteWriter out;
  if (root_causes) {
    PutDiagnostics(out, root_causes->sync_points);
    PutDelayResult(out, root_causes->delay);
    PutPathFacts(out, owned, root_causes->path);
  }
  PutSpans(out, owned, trace::LocationSpans(trace));
  std::vector<trace::FileIoUse> file_io;
  std::vector<trace::CallSiteUse> call_sites;
  for (uint32_t loc : owned) {
    std::vector<trace::FileIoUse> uses = trace::FileIoOf(trace, loc);
    file_io.insert(file_io.end(), uses.begin(), uses.end());
    std::vector<trace::CallSiteUse> sites = trace::CallSiteUses(trace, loc);
    call_sites.insert(call_sites.end(), sites.begin(), sites.end());
  }
  out.PutVector(file_io);
  out.PutVector(call_sites);
  PutSeverities(out, owned, waitstates.severities);
  PutAnalysisInstances(out, waitstates.instances);
  out.PutVector(waitstates.instance_counts);
  out.Put(waitstates.violations);
  out.Put(graph.stats);
  PutDiagnostics(out, trace.diagnostics);
  PutDiagnostics(out, graph.diagnostics);
  return out.Take();
}

// The first rank adds the shares up in rank order.
void AddShares(const std::vector<comm::Bytes>& shares, size_t instances_per_metric,
               report::TraceFacts& facts, analysis::AnalysisResult& analysis,
               analysis::CriticalPathFacts* path) {
  analysis::WaitStateResult& waitstates = analysis.waitstates;
  Diagnostics reader, matcher;
  analysis::InstanceCollector instances(instances_per_metric);
  Diagnostics sync_points;
  for (const comm::Bytes& share : shares) {
    comm::ByteReader in(share);
    if (path != nullptr) {
      sync_points.Merge(GetDiagnostics(in));
      AddDelayResult(in, *analysis.delay);
      AddPathFacts(in, *path);
    }
    GetSpans(in, facts.spans);
    const std::vector<trace::FileIoUse> file_io = in.GetVector<trace::FileIoUse>();
    facts.file_io.insert(facts.file_io.end(), file_io.begin(), file_io.end());
    const std::vector<trace::CallSiteUse> call_sites = in.GetVector<trace::CallSiteUse>();
    facts.call_sites.insert(facts.call_sites.end(), call_sites.begin(), call_sites.end());
    GetSeverities(in, waitstates.severities);
    const std::vector<analysis::Instance> kept = GetAnalysisInstances(in);
    const std::vector<uint64_t> offered = in.GetVector<uint64_t>();
    instances.Absorb(kept, offered);
    const auto violations = in.Get<analysis::ClockViolations>();
    waitstates.violations.p2p += violations.p2p;
    waitstates.violations.collective += violations.collective;
    waitstates.violations.probe += violations.probe;
    facts.matching += in.Get<match::MatchStats>();
    reader.Merge(GetDiagnostics(in));
    matcher.Merge(GetDiagnostics(in));
    CW_CHECK(in.done());
  }
  if (path != nullptr) {
    // The report reads only their diagnostics.
    analysis.sync_points.emplace();
    analysis.sync_points->diagnostics = std::move(sync_points);
  }
  // As one process: the reader's diagnostics, then the matcher's.
  facts.diagnostics.Merge(reader);
  facts.diagnostics.Merge(matcher);
  waitstates.instances = instances.Sorted();
  waitstates.instance_counts.assign(analysis::kMetricCount, 0);
  for (int m = 0; m < analysis::kMetricCount; ++m) {
    waitstates.instance_counts[static_cast<size_t>(m)] =
        instances.Offered(static_cast<analysis::MetricId>(m));
  }
}

// The event views: the first rank says which instances the timelines show, every rank computes
// its locations' share, and the first rank adds the shares up.
report::EventViews GatherEventViews(const report::Report* full, const trace::Trace& trace,
                                    const match::SyncGraph& graph, std::span<const uint32_t> owned,
                                    comm::Communicator& comm) {
  comm::ByteWriter instances;
  if (full != nullptr) PutReportInstances(instances, full->instances);
  comm::Bytes bytes = comm.Broadcast(instances.Take(), kFirstRank);
  report::Report shell;
  comm::ByteReader in(bytes);
  shell.instances = GetReportInstances(in);
  comm::ByteWriter out;
  PutEventViews(out, report::EventViewsOf(shell, trace, graph, owned));
  std::vector<comm::Bytes> shares = comm.Gather(out.Take(), kFirstRank);
  report::EventViews views;
  for (size_t r = 0; r < shares.size(); ++r) {
    comm::ByteReader share(shares[r]);
    if (r == 0) {
      views = GetEventViews(share);
    } else {
      report::MergeEventViews(views, GetEventViews(share));
    }
  }
  return views;
}

}  // namespace

Result<std::optional<JobReport>> AnalyzeAsJobRank(const std::string& path,
                                                  const TraceAnalysisOptions& options,
                                                  comm::Communicator& comm) {
  Diagnostics ignored;  // the reader reports the definitions' diagnostics again
  Result<trace::Definitions> defs = otf2::ReadDefinitions(path, ignored);
  CW_RETURN_IF_ERROR(AgreeOnStatus(defs ? OkStatus() : Status(tl::unexpected(defs.error())), comm));
  // Ranks beyond the number of locations own none and only take part in the exchanges.
  const trace::Partition partition = trace::PartitionLocations(*defs, comm.size());
  const std::vector<uint32_t>& owned = partition.owned[comm.rank()];
  const bool first = comm.rank() == kFirstRank;

  PhaseLog log(comm);
  CW_ASSIGN_OR_RETURN(trace::Trace trace, ReadOwnedLocations(path, options.read, partition, comm));
  log.Lap("read");
  // Beside the analysis: it reads the file, not the trace.
  std::future<std::optional<sim::ReplayResult>> ideal;
  if (first) {
    ideal = std::async(std::launch::async, [&path, comms = trace.defs.comms]() mutable {
      return ReplayOnIdealNetwork(path, std::move(comms));
    });
  }
  const match::SyncGraph graph =
      match::MatchOwnedLocations(trace, partition, comm, options.read.threads);
  log.Lap("match");
  analysis::AnalysisOptions analysis_options = options.analysis;
  analysis_options.threads = options.read.threads;
  analysis::WaitStateOptions wait_options = analysis::WaitStateOptionsFor(analysis_options);
  wait_options.comm = &comm;
  wait_options.partition = &partition;
  analysis::WaitStateResult waitstates = analysis::AnalyzeWaitStates(trace, graph, wait_options);
  log.Lap("wait states");
  std::optional<RootCauses> root_causes;
  std::optional<analysis::SyncPoints> sync_points;
  std::vector<analysis::WaitEdge> bottleneck_only =
      analysis::KeepFollowedEdges(waitstates.sync, options.analysis.semantics);
  if (options.analysis.root_causes) {
    root_causes = AnalyzeRootCauses(trace, waitstates, partition, comm, options.read.threads,
                                    options.analysis.semantics, sync_points, log);
  }
  const std::vector<analysis::GenericType> region_types =
      (options.analysis.constructs != nullptr ? *options.analysis.constructs
                                              : analysis::ConstructMap::Builtin())
          .ClassifyRegions(trace.defs);
  std::optional<analysis::Advice> advice;
  if (options.analysis.advice) {
    analysis::AdviceInput in;
    in.trace = &trace;
    in.graph = &graph;
    in.edges = analysis::BottleneckEdges(sync_points ? sync_points->edges : waitstates.sync.edges,
                                         bottleneck_only);
    in.region_types = region_types;
    in.severities = waitstates.severities;
    in.baselines = options.analysis.baselines;
    in.baselines_path = options.analysis.baselines_path;
    in.threads = options.read.threads;
    advice =
        analysis::AnalyzeAdviceAsJobRank(in, options.analysis.advice_parameters, comm, partition);
    log.Lap("advice");
  }

  std::vector<comm::Bytes> shares =
      comm.Gather(AnalysisShare(trace, graph, waitstates, root_causes, owned), kFirstRank);
  root_causes.reset();
  if (!first) sync_points.reset();  // the first rank finishes the critical path with its own
  std::optional<JobReport> result;
  if (first) {
    const uint32_t n = trace.location_count();
    report::TraceFacts facts;
    facts.spans.resize(n);
    analysis::AnalysisResult analysis;
    analysis.semantics = options.analysis.semantics;
    analysis.waitstates.severities.assign(n, analysis::LocationSeverities(trace.call_tree.size()));
    std::optional<analysis::CriticalPathFacts> path_facts;
    if (options.analysis.root_causes) {
      analysis.delay.emplace();
      path_facts.emplace();
      path_facts->own.assign(n, {});
      path_facts->own_untracked.assign(n, 0);
      path_facts->on_path.assign(n, {});
      path_facts->on_path_untracked.assign(n, 0);
    }
    AddShares(shares, options.analysis.instances_per_metric, facts, analysis,
              path_facts ? &*path_facts : nullptr);
    if (path_facts) {
      analysis::CriticalPathOptions critical;
      critical.threads = options.read.threads;
      critical.semantics = options.analysis.semantics;
      analysis.critical_path = analysis::FinishCriticalPath(
          *sync_points, *path_facts, analysis.waitstates.severities, critical);
      sync_points.reset();
    }
    analysis.pop = analysis::ComputePopEfficiency(trace.defs, facts.spans, analysis.waitstates);
    if (std::optional<sim::ReplayResult> replay = ideal.get()) {
      analysis::AddIdealNetworkRuntime(
          analysis.pop, static_cast<double>(sim::PredictedSpan(*replay, analysis.pop.locations)));
    }
    analysis.region_types = region_types;
    if (advice) {
      // Every location's delay costs are here, gathered: the same as AnalyzeTrace's.
      if (options.analysis.root_causes) {
        analysis::AddDelayRootCauses(analysis.waitstates.severities, *advice);
      }
      // One replay at a time: each streams the whole trace and holds the OTF2 library's read
      // buffers of every location (about 2 MiB each), where the trace is too big for one
      // process.
      CW_RETURN_IF_ERROR(PredictSavings(trace, path, *advice, options.predictions, 1));
      analysis.advice = std::move(advice);
    }
    report::Report report = report::BuildReport(trace, facts, analysis);
    result.emplace(JobReport{std::move(trace), std::move(report), {}, {}, {}});
  }
  report::EventViews views = GatherEventViews(result ? &result->report : nullptr,
                                              result ? result->trace : trace, graph, owned, comm);
  log.Lap("report");
  std::vector<uint64_t> peaks = GatherPeakMemory(comm);
  if (result) {
    result->views = std::move(views);
    result->phases = log.Take();
    result->peak_memory = std::move(peaks);
  }
  return result;
}

}  // namespace cw::driver
