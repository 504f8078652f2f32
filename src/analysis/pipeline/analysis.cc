#include "analysis/pipeline/analysis.h"

#include <chrono>
#include <thread>

namespace cw::analysis {
namespace {

class PhaseClock {
 public:
  explicit PhaseClock(AnalysisResult& r) : r_(r), last_(std::chrono::steady_clock::now()) {}
  void Lap(const char* phase) {
    auto now = std::chrono::steady_clock::now();
    r_.phase_seconds.emplace_back(phase, std::chrono::duration<double>(now - last_).count());
    last_ = now;
  }

 private:
  AnalysisResult& r_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace

AnalysisResult AnalyzeTrace(const trace::Trace& trace, const match::SyncGraph& graph,
                            const AnalysisOptions& options) {
  AnalysisResult r;
  PhaseClock clock(r);
  WaitStateOptions ws;
  ws.threads = options.threads;
  ws.instances_per_metric = options.instances_per_metric;
  r.waitstates = AnalyzeWaitStates(trace, graph, ws);
  clock.Lap("wait states");
  if (!options.root_causes) return r;

  r.sync_points = BuildSyncPoints(trace, std::move(r.waitstates.sync), options.threads);
  clock.Lap("sync points");
  // The two backward passes are independent: they read the same synchronisation points and
  // write different metrics (separate vectors of each location's severities). A replay pass
  // gains little from a second thread -- its steps mostly hand values between locations -- so
  // with two or more threads they run side by side, the delay pass taking the larger share.
  DelayOptions delay;
  CriticalPathOptions critical;
  if (options.threads >= 2) {
    delay.threads = options.threads - 1;
    critical.threads = 1;
    std::thread path([&] {
      r.critical_path =
          AnalyzeCriticalPath(trace, *r.sync_points, r.waitstates.severities, critical);
    });
    r.delay = AnalyzeDelay(trace, *r.sync_points, r.waitstates.severities, delay);
    path.join();
    clock.Lap("delay and critical path");
  } else {
    r.delay = AnalyzeDelay(trace, *r.sync_points, r.waitstates.severities, delay);
    clock.Lap("delay");
    r.critical_path = AnalyzeCriticalPath(trace, *r.sync_points, r.waitstates.severities, critical);
    clock.Lap("critical path");
  }
  return r;
}

}  // namespace cw::analysis
