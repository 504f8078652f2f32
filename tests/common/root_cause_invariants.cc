#include "tests/common/root_cause_invariants.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <map>
#include <tuple>

#include "report/json_writer.h"

namespace cw::test {
namespace {

using analysis::MetricId;
using analysis::SyncPattern;

// Delay metrics of each pattern, in SyncPattern order.
constexpr MetricId kDelayAggregate[] = {
    MetricId::kDelayLateSenderAggregate,
    MetricId::kDelayLateReceiverAggregate,
    MetricId::kDelayBarrierAggregate,
    MetricId::kDelayN2nAggregate,
    MetricId::kDelay12nAggregate,
    MetricId::kDelayN21Aggregate,
    MetricId::kDelayScanAggregate,
    MetricId::kDelayFinalizeAggregate,
    MetricId::kDelaySendersAggregate,
    MetricId::kDelayOmpBarrierAggregate,
    MetricId::kDelayOmp,  // kOmpLock: never followed, no delay costs (not read)
    MetricId::kDelayRmaCollectiveAggregate,
    MetricId::kDelayRmaLatePostAggregate,
    MetricId::kDelayRmaEarlyWaitAggregate,
    MetricId::kDelayRmaLockAggregate,
    MetricId::kDelayShmemBarrierWaitAggregate,
    MetricId::kDelayShmemCollectiveWaitAggregate,
    MetricId::kDelayShmemLockContentionAggregate,
    MetricId::kDelayShmemWaitOnValueAggregate,
};
static_assert(std::size(kDelayAggregate) == analysis::kSyncPatternCount);

// Patterns classify into groups (direct/indirect, propagating/terminal): Late Sender, Late
// Receiver, MPI collectives, MPI one-sided, OpenSHMEM. OpenMP's waits are not classified (-1).
constexpr int kGroups = 5;
int GroupOf(SyncPattern p) {
  if (analysis::IsOpenMp(p)) return -1;
  if (analysis::IsPointToPoint(p)) return static_cast<int>(p);
  if (analysis::IsShmem(p)) return 4;
  return analysis::IsOneSided(p) ? 3 : 2;
}

// The classification metrics of a group of patterns.
struct Classes {
  MetricId direct, indirect, propagating, terminal;
};
Classes ClassesOf(int group) {
  switch (group) {
    case 0:
      return {MetricId::kMpiWaitDirectLateSender, MetricId::kMpiWaitIndirectLateSender,
              MetricId::kMpiWaitPropagatingLs, MetricId::kMpiWaitTerminalLs};
    case 1:
      return {MetricId::kMpiWaitDirectLateReceiver, MetricId::kMpiWaitIndirectLateReceiver,
              MetricId::kMpiWaitPropagatingLr, MetricId::kMpiWaitTerminalLr};
    case 3:
      return {MetricId::kMpiWaitDirectRma, MetricId::kMpiWaitIndirectRma,
              MetricId::kMpiWaitPropagatingRma, MetricId::kMpiWaitTerminalRma};
    case 4:
      return {MetricId::kShmemWaitDirect, MetricId::kShmemWaitIndirect,
              MetricId::kShmemWaitPropagating, MetricId::kShmemWaitTerminal};
    default:
      return {MetricId::kMpiWaitDirectCollective, MetricId::kMpiWaitIndirectCollective,
              MetricId::kMpiWaitPropagatingCollective, MetricId::kMpiWaitTerminalCollective};
  }
}

double Near(double expected) { return 1e-9 * (1.0 + std::fabs(expected)); }

}  // namespace

void ExpectRootCauseInvariants(const Analysis& a, const InvariantOptions& options) {
  ASSERT_TRUE(a.result.sync_points && a.result.delay && a.result.critical_path);
  const analysis::SyncPoints& sp = *a.result.sync_points;
  const double seconds_per_tick = 1.0 / static_cast<double>(a.trace.defs.clock.resolution);

  // Every location's roles are in time order: by call, then kind (delayer, waiter, group), then
  // id; each edge role sits at its edge's call and its edge knows where.
  for (uint32_t loc : sp.participants) {
    const analysis::LocationSyncPoints& l = sp.locations[loc];
    for (size_t c = 1; c < l.calls.size(); ++c) {
      ASSERT_LT(l.calls[c - 1], l.calls[c]) << "location " << loc << " call " << c;
    }
    for (size_t r = 0; r < l.roles.size(); ++r) {
      const analysis::SyncRole& role = l.roles[r];
      ASSERT_LT(role.activity, l.calls.size());
      if (r > 0) {
        const analysis::SyncRole& before = l.roles[r - 1];
        auto order = [](const analysis::SyncRole& x) {
          return std::make_tuple(x.activity, static_cast<int>(x.kind), x.id);
        };
        ASSERT_LT(order(before), order(role)) << "location " << loc << " role " << r;
      }
      if (role.kind == analysis::RoleKind::kGroup) continue;
      const analysis::WaitEdge& e = sp.edges[role.id];
      const bool waiter = role.kind == analysis::RoleKind::kWaiter;
      EXPECT_EQ(l.call_of(role), waiter ? e.waiter_event : e.delayer_event);
      EXPECT_EQ(role.partner, waiter ? e.delayer : e.waiter);
      EXPECT_EQ(role.wait, e.wait);
      EXPECT_EQ(waiter ? sp.ends[role.id].waiter_role : sp.ends[role.id].delayer_role, r);
    }
  }

  // Waiting followed per pattern, and per (pattern group, location, call path).
  double followed[analysis::kSyncPatternCount] = {};
  std::map<std::tuple<int, uint32_t, uint32_t>, double> waited;  // (group, location, callpath)
  for (const analysis::WaitEdge& e : sp.edges) {
    double w = static_cast<double>(e.wait) * seconds_per_tick;
    followed[static_cast<int>(e.pattern)] += w;
    const trace::LocationEvents& ev = a.trace.location(e.waiter);
    uint32_t callpath = ev.callpath(e.waiter_event);
    int group = GroupOf(e.pattern);
    if (group >= 0) waited[{group, e.waiter, callpath}] += w;
  }

  double all_waiting = 0, all_costs = 0;
  for (int p = 0; p < analysis::kSyncPatternCount; ++p) {
    SyncPattern pattern = static_cast<SyncPattern>(p);
    SCOPED_TRACE(std::string(analysis::SyncPatternName(pattern)));
    if (analysis::FollowedByBottleneckAnalysisOnly(pattern)) {
      EXPECT_EQ(followed[p], 0.0);  // its edges never reach the synchronisation points
      continue;
    }
    double costs = a.report.Total(kDelayAggregate[p]);
    // Every edge carries its wait-state metric's value: followed + unfollowed = the metric.
    double unfollowed = static_cast<double>(sp.unfollowed_wait[p]) * seconds_per_tick;
    double metric = 0;
    for (MetricId m : analysis::WaitMetricsOf(pattern)) metric += a.report.Total(m);
    EXPECT_NEAR(followed[p] + unfollowed, metric, Near(metric));
    EXPECT_NEAR(costs, followed[p], Near(followed[p]));
    all_waiting += followed[p];
    all_costs += costs;
  }
  EXPECT_NEAR(all_costs, all_waiting, Near(all_waiting));
  EXPECT_NEAR(a.report.Total(MetricId::kDelay), all_waiting, Near(all_waiting));

  // Direct + indirect and propagating + terminal, per location and call path.
  std::map<std::tuple<int, uint32_t, uint32_t>, double> direct, indirect, propagating, terminal;
  for (const report::Value& v : a.report.values) {
    for (int group = 0; group < kGroups; ++group) {
      Classes c = ClassesOf(group);
      auto key = std::make_tuple(group, v.location, v.callpath);
      if (v.metric == c.direct) direct[key] += v.value;
      if (v.metric == c.indirect) indirect[key] += v.value;
      if (v.metric == c.propagating) propagating[key] += v.value;
      if (v.metric == c.terminal) terminal[key] += v.value;
      if (v.metric == c.indirect || v.metric == c.propagating) {
        EXPECT_GE(v.value, 0.0);
      }
    }
  }
  for (const auto& [key, w] : waited) {
    EXPECT_NEAR(direct[key] + indirect[key], w, Near(w));
    EXPECT_NEAR(propagating[key] + terminal[key], w, Near(w));
    EXPECT_LE(indirect[key], w + Near(w));
    EXPECT_LE(propagating[key], w + Near(w));
  }
  for (const auto* classes : {&direct, &indirect, &propagating, &terminal}) {
    for (const auto& [key, value] : *classes) {
      EXPECT_TRUE(waited.contains(key) || std::fabs(value) < 1e-12)
          << "classified time where nothing waited: location " << std::get<1>(key);
    }
  }

  // The critical path spans the window.
  const analysis::CriticalPathResult& cp = *a.result.critical_path;
  if (sp.participants.empty()) return;
  if (options.clock_condition_holds) {
    EXPECT_EQ(cp.length + cp.untracked, cp.window.length());
  } else {
    EXPECT_LE(cp.length + cp.untracked, cp.window.length());
  }
  const double window = static_cast<double>(cp.window.length()) * seconds_per_tick;
  EXPECT_NEAR(a.report.Total(MetricId::kCriticalPath),
              static_cast<double>(cp.length) * seconds_per_tick, Near(window));
  for (size_t i = 1; i < cp.segments.size() && options.clock_condition_holds; ++i) {
    EXPECT_EQ(cp.segments[i].begin, cp.segments[i - 1].end) << "gap before segment " << i;
  }
  // Everyone's time is attributed once: processes x window.
  if (options.clock_condition_holds) {
    double processes = static_cast<double>(cp.processes);
    double impact =
        a.report.Total(MetricId::kPerformanceImpact) +
        (cp.unattributed_waiting + static_cast<double>(cp.untracked_time)) * seconds_per_tick;
    EXPECT_NEAR(impact, processes * window, Near(processes * window));
    EXPECT_NEAR(
        a.report.Total(MetricId::kCriticalImbalanceImpact) +
            (cp.unattributed_waiting + static_cast<double>(cp.untracked_time)) * seconds_per_tick,
        processes * window - (a.report.Total(MetricId::kCriticalPathActivities) +
                              a.report.Total(MetricId::kNonCriticalPathActivities)),
        Near(processes * window));
  }
}

void ExpectThreadIndependent(const std::string& anchor) {
  Analysis one = AnalyzeFile(anchor, 1);
  std::string expected = report::ToJson(one.report);
  for (unsigned threads : {2u, 4u}) {
    Analysis many = AnalyzeFile(anchor, threads);
    EXPECT_EQ(report::ToJson(many.report), expected) << threads << " threads";
  }
}

std::vector<uint32_t> PathLocations(const Analysis& a) {
  std::vector<uint32_t> locations;
  for (const analysis::PathSegment& s : a.result.critical_path->segments) {
    if (locations.empty() || locations.back() != s.location) locations.push_back(s.location);
  }
  return locations;
}

}  // namespace cw::test
