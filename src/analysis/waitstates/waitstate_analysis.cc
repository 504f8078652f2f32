#include "analysis/waitstates/waitstate_analysis.h"

#include <algorithm>
#include <memory>

#include "analysis/waitstates/internal/collective_patterns.h"
#include "analysis/waitstates/internal/context.h"
#include "analysis/waitstates/internal/init_finalize.h"
#include "analysis/waitstates/internal/location_scan.h"
#include "analysis/waitstates/internal/omp_idle.h"
#include "analysis/waitstates/internal/omp_patterns.h"
#include "analysis/waitstates/internal/p2p_patterns.h"
#include "analysis/waitstates/internal/rma_patterns.h"
#include "analysis/waitstates/internal/shmem_patterns.h"
#include "analysis/waitstates/internal/shmem_progress.h"
#include "analysis/waitstates/time_categories.h"
#include "base/parallel.h"
#include "comm/wire.h"

namespace cw::analysis {
namespace {

// The time tree and visits from the call-path profile the trace measured while reading.
void AddProfile(const internal::Context& ctx, uint32_t location, LocationSeverities& severities) {
  for (const trace::LocationEvents::CallpathTime& t : ctx.trace.location(location).profile()) {
    MetricId category = ctx.time_category[ctx.trace.CallpathRegion(t.callpath)];
    internal::AddWithAncestors(severities, category, t.callpath, static_cast<double>(t.exclusive));
    severities.Add(MetricId::kVisits, t.callpath, static_cast<double>(t.visits));
  }
}

// Every rank learns every location's MPI_Init and MPI_Finalize call from the rank that owns it.
void ShareInitFinalize(const trace::Partition& partition, comm::Communicator& comm,
                       internal::InitFinalize& calls) {
  comm::ByteWriter out;
  for (uint32_t loc : partition.owned[comm.rank()]) {
    out.Put(loc);
    out.Put(calls.init[loc]);
    out.Put(calls.finalize[loc]);
  }
  for (const comm::Bytes& bytes : comm.AllGather(out.Take())) {
    comm::ByteReader in(bytes);
    while (!in.done()) {
      const uint32_t loc = in.Get<uint32_t>();
      calls.init[loc] = in.Get<internal::InitFinalize::Call>();
      calls.finalize[loc] = in.Get<internal::InitFinalize::Call>();
    }
  }
}

}  // namespace

WaitStateResult AnalyzeWaitStates(const trace::Trace& trace, const match::SyncGraph& graph,
                                  const WaitStateOptions& options) {
  const std::vector<MetricId> categories = TimeCategories(trace.defs);
  const std::vector<trace::MpiFunction> callpath_mpi = trace::CallpathMpiFunctions(trace);
  const internal::Context ctx{trace,
                              graph,
                              categories,
                              callpath_mpi,
                              options.sync_edges,
                              options.probes_wait,
                              options.interval_completions,
                              options.one_sided_sync,
                              options.sender_waits,
                              options.comm,
                              options.partition};
  const internal::CallpathFlags callpaths = internal::ComputeCallpathFlags(trace);
  const unsigned threads = options.threads == 0 ? 1 : options.threads;

  // Collective instances are evaluated once each, then charged by their members' locations.
  const internal::CollectiveOutcomes collective = internal::EvaluateCollectives(ctx, threads);
  // One-sided epochs pair processes by their window's synchronisation calls.
  const std::vector<std::vector<internal::RmaWait>> rma =
      internal::EvaluateRmaEpochs(ctx, collective.members, threads);
  // OpenSHMEM's locks and waits for a value pair PEs by their records on the symmetric heap.
  const std::vector<std::vector<internal::ShmemWait>> shmem =
      internal::EvaluateShmemWaits(ctx, threads);
  const std::vector<std::vector<internal::ProgressWait>> progress =
      internal::EvaluateShmemProgress(ctx, threads);
  // OpenMP's barriers and locks pair the threads of a process.
  internal::OmpOutcomes omp = internal::EvaluateOmpWaits(ctx, threads);

  const uint32_t n = trace.location_count();
  std::vector<std::unique_ptr<internal::LocationOutput>> outputs(n);
  internal::InitFinalize init_finalize;
  init_finalize.init.resize(n);
  init_finalize.finalize.resize(n);
  ParallelFor(n, threads, [&](size_t index) {
    uint32_t loc = static_cast<uint32_t>(index);
    auto out = std::make_unique<internal::LocationOutput>(trace.call_tree.size(),
                                                          options.instances_per_metric);
    AddProfile(ctx, loc, out->severities);
    internal::ScanLocation(ctx, callpaths, loc, *out, init_finalize.init[loc],
                           init_finalize.finalize[loc]);
    internal::AnalyzePointToPoint(ctx, loc, *out);
    internal::ApplyCollectiveOutcomes(ctx, loc, collective, *out);
    internal::ApplyRmaWaits(ctx, rma[loc], loc, *out);
    internal::ApplyShmemWaits(ctx, shmem[loc], loc, *out);
    internal::ApplyProgressWaits(progress[loc], loc, *out);
    internal::ApplyOmpOutcomes(ctx, omp, loc, *out);
    out->traffic.WriteTo(out->severities);
    out->traffic = internal::TrafficCounts(0);
    outputs[index] = std::move(out);
  });
  // Distributed: a rank analyses only its own locations' events.
  const bool distributed = ctx.Distributed();
  if (distributed) ShareInitFinalize(*options.partition, *options.comm, init_finalize);
  // MPI_Init and MPI_Finalize compare every location with the latest one: a second, short step.
  init_finalize.Summarize();

  WaitStateResult result;
  result.severities.reserve(n);
  InstanceCollector instances(options.instances_per_metric);
  for (uint32_t loc = 0; loc < n; ++loc) {
    internal::LocationOutput& out = *outputs[loc];
    // Distributed, the calls of other ranks' locations are known, their events are not.
    if (ctx.Holds(loc)) {
      internal::ApplyInitFinalize(ctx, loc, init_finalize, out);
    }
    result.violations.p2p += out.violations.p2p;
    result.violations.collective += out.violations.collective;
    result.violations.probe += out.violations.probe;
    instances.Merge(out.instances);
    result.severities.push_back(std::move(out.severities));
  }
  // Idle threads compare each thread's time with its master's: after every location's profile.
  internal::AddOmpIdleThreads(ctx, result.severities);
  if (options.sync_edges) {
    // The locations' edges, concatenated in location order (copied in parallel).
    std::vector<size_t> first(n + 1, 0);
    for (uint32_t loc = 0; loc < n; ++loc) first[loc + 1] = first[loc] + outputs[loc]->edges.size();
    result.sync.edges.resize(first[n]);
    ParallelFor(n, threads, [&](size_t loc) {
      std::copy(outputs[loc]->edges.begin(), outputs[loc]->edges.end(),
                result.sync.edges.begin() + static_cast<std::ptrdiff_t>(first[loc]));
    });
    if (options.interval_completions) {
      result.sync.completions.resize(n);
      ParallelFor(n, threads, [&](size_t loc) {
        std::vector<EventCompletion>& c = outputs[loc]->completions;
        std::sort(c.begin(), c.end(), [](const EventCompletion& a, const EventCompletion& b) {
          return a.event < b.event;
        });
        result.sync.completions[loc] = std::move(c);
      });
    }
    internal::CollectSyncGroups(ctx, collective, threads, result.sync);
    internal::CollectInitFinalizeGroups(ctx, init_finalize, result.sync);
    internal::AppendOmpGroups(omp, result.sync);
  }
  ParallelFor(n, threads, [&](size_t loc) { outputs[loc].reset(); });
  result.instances = instances.Sorted();
  result.instance_counts.resize(kMetricCount);
  for (int m = 0; m < kMetricCount; ++m) {
    result.instance_counts[static_cast<size_t>(m)] = instances.Offered(static_cast<MetricId>(m));
  }
  return result;
}

}  // namespace cw::analysis
