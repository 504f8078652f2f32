// The replay over synchronisation points (sim/sync_replay/sync_replay.h) against the event
// replay it stands in for: on random MPI programs, on a hand-built one with non-blocking,
// synchronous and rendezvous messages and every collective family, and on every real trace it
// models, each location's predicted end must be the event replay's exactly, for changes of the
// kinds the bottleneck analysis makes (call paths scaled on one location or rank, compute
// windows, capped and removed calls). The event replay's rules have exact tests of their own
// (replay_rules_test.cc); agreement with it, tick for tick, is what this replay must show.
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "bench/synthetic_trace.h"
#include "match/matcher.h"
#include "otf2/trace_reader.h"
#include "sim/sync_replay/sync_replay.h"
#include "sim/trace_source.h"
#include "testing/random_mpi_scenario.h"
#include "testing/temp_dir.h"
#include "tests/common/paths.h"

namespace cw::sim {
namespace {

using testing::RankScript;

trace::Trace ReadScenario(const testing::Scenario& s) {
  Result<trace::Trace> t = otf2::ReadTrace(s.WriteOrDie(testing::MakeTempDir("sync")), {});
  EXPECT_TRUE(t.has_value()) << t.error().message();
  return t ? std::move(*t) : trace::Trace{};
}

bool IsMpi(const trace::Trace& t, uint32_t callpath) {
  const uint32_t region = t.CallpathRegion(callpath);
  return region < t.defs.regions.size() && t.defs.regions[region].mpi.is_mpi();
}

std::string RegionOf(const trace::Trace& t, uint32_t callpath) {
  return std::string(t.defs.str(t.defs.regions[t.CallpathRegion(callpath)].name));
}

// The changes to compare on `t`: nothing; each of the first computation call paths shortened
// on one location, on a rank and lengthened everywhere; half the computation of a window of
// location 0; every MPI call path capped at three ticks; each barrier call path removed; and
// nothing again. Call paths come from the events, so every trace gets changes that hit it.
std::vector<Perturbation> ChangesFor(const trace::Trace& t) {
  std::vector<Perturbation> out(1);
  std::set<uint32_t> compute, mpi, barriers;
  for (uint32_t l = 0; l < t.location_count(); ++l) {
    const trace::LocationEvents& ev = t.location(l);
    for (uint32_t i = 0; i < ev.size(); ++i) {
      if (ev.kind(i) != trace::EventKind::kEnter) continue;
      const uint32_t cp = ev.ref(i);
      if (!IsMpi(t, cp)) {
        compute.insert(cp);
      } else {
        mpi.insert(cp);
        if (RegionOf(t, cp) == "MPI_Barrier") barriers.insert(cp);
      }
    }
  }
  const uint32_t last = t.location_count() - 1;
  int taken = 0;
  for (uint32_t cp : compute) {
    if (++taken > 4) break;
    Perturbation one;
    one.compute.push_back(ComputeScale{"", 0.5, {}, last, cp});
    out.push_back(one);
    Perturbation rank;
    rank.compute.push_back(ComputeScale{"", 0.3, *ParseRankSet("0"), trace::kNone, cp});
    out.push_back(rank);
    Perturbation all;
    all.compute.push_back(ComputeScale{"", 1.7, {}, trace::kNone, cp});
    out.push_back(all);
  }
  const trace::LocationEvents& first = t.location(0);
  if (first.size() > 1) {
    const uint64_t span = first.last_time() - first.first_time();
    Perturbation window;
    window.windows.push_back(
        ComputeWindow{0, first.first_time() + span / 4, first.first_time() + span / 2, 0.5});
    out.push_back(window);
  }
  const double tick = 1.0 / static_cast<double>(std::max<uint64_t>(1, t.defs.clock.resolution));
  for (uint32_t cp : mpi) {
    Perturbation cap;
    cap.calls.push_back(CallChange{cp, false, 3 * tick});
    out.push_back(cap);
  }
  for (uint32_t cp : barriers) {
    Perturbation removed;
    removed.calls.push_back(CallChange{cp, true, std::nullopt});
    out.push_back(removed);
  }
  // No change again: after replays that went through every point, SyncReplay answers it as the
  // measured run without replaying.
  out.emplace_back();
  return out;
}

// Replays `t` under each change both ways; false if the points replay does not model `t`.
bool ExpectSameAsEventReplay(const trace::Trace& t) {
  const match::SyncGraph graph = match::MatchTrace(t, 2);
  std::string why;
  std::unique_ptr<SyncReplay> fast = SyncReplay::Build(t, graph, why, 2);
  if (fast == nullptr) return false;
  EXPECT_TRUE(why.empty());
  int compared = 0, moved = 0;
  for (const Perturbation& p : ChangesFor(t)) {
    SCOPED_TRACE(p.Describe().empty() ? std::string("no change") : p.Describe().front());
    ReplayOptions options;
    options.perturbation = p;
    Result<ReplayResult> events = RunReplay(TraceInput(t), options);
    if (!events.has_value()) {
      ADD_FAILURE() << events.error().message();
      continue;
    }
    EXPECT_TRUE(fast->Models(p));
    std::optional<ReplayResult> points = fast->Run(p);
    const ReplayStats& s = events->stats;
    if (s.eager_resolved + s.unmatched_receives + s.incomplete_collectives + s.cycles_broken > 0) {
      // The event replay broke a stall: its rules, not the points', give the answer.
      EXPECT_FALSE(points.has_value());
      continue;
    }
    if (!points.has_value() || points->locations.size() != events->locations.size()) {
      ADD_FAILURE() << "the points replay gave no result, or not for every location";
      continue;
    }
    for (size_t l = 0; l < events->locations.size(); ++l) {
      const LocationOutcome& e = events->locations[l];
      const LocationOutcome& f = points->locations[l];
      EXPECT_EQ(f.events, e.events) << "location " << l;
      EXPECT_EQ(f.first, e.first) << "location " << l;
      EXPECT_EQ(f.measured_end, e.measured_end) << "location " << l;
      EXPECT_EQ(f.predicted_end, e.predicted_end) << "location " << l;
    }
    ++compared;
    moved +=
        std::any_of(events->locations.begin(), events->locations.end(),
                    [](const LocationOutcome& o) { return o.predicted_end != o.measured_end; });
  }
  // The changes moved the program (an agreement on unmoved ends would show nothing).
  EXPECT_GT(compared, 1);
  EXPECT_GT(moved, 0);
  return true;
}

TEST(SyncReplayTest, AgreesWithTheEventReplayOnRandomPrograms) {
  for (uint32_t seed = 1; seed <= 40; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    EXPECT_TRUE(ExpectSameAsEventReplay(ReadScenario(testing::RandomMpiScenario(seed))));
  }
}

// Three ranks at 10 ticks per second (a factor 0.5 rounds each gap): non-blocking halo
// messages completed in MPI_Waitall, a 1 MiB message (rendezvous) whose receive is posted late
// and one posted early, an MPI_Ssend, and MPI_Bcast, MPI_Reduce and MPI_Allreduce, inside
// nested computation regions, then MPI_Finalize.
testing::Scenario MixedProgram() {
  testing::Scenario s(3, 10);
  const uint64_t big = 1 << 20;
  for (int r = 0; r < 3; ++r) {
    RankScript& k = s.rank(r);
    const uint64_t skew = static_cast<uint64_t>(r) * 5;
    const uint64_t recv_request = 10 + static_cast<uint64_t>(r);
    const uint64_t send_request = 20 + static_cast<uint64_t>(r);
    const int right = (r + 1) % 3, left = (r + 2) % 3;
    k.Enter(0, "main").Call(1, 5, "MPI_Init");
    k.Enter(6, "solve").Enter(7, "kernel").Leave(20 + skew, "kernel").Leave(23 + skew, "solve");
    k.Irecv(24 + skew, 25 + skew, recv_request);
    k.Isend(26 + skew, 27 + skew, right, 1, 64, send_request);
    k.Enter(28 + skew, "kernel").Leave(40 + 2 * skew, "kernel");
    k.Complete(41 + 2 * skew, 70, "MPI_Waitall", [&](RankScript& w) {
      w.IrecvEvent(69, left, 1, 64, recv_request);
      w.IsendCompleteEvent(70, send_request);
    });
    k.Collective(71 + skew, 90, "MPI_Allreduce", OTF2_COLLECTIVE_OP_ALLREDUCE, 8, 8);
  }
  // Rank 0 sends 1 MiB to rank 1, which posts late (buffered in the measured run), then 1 MiB to
  // rank 2, which posted early (a rendezvous), and rank 1 sends rank 2 an MPI_Ssend.
  s.rank(0).Send(91, 100, 1, 2, big).Send(101, 130, 2, 3, big);
  s.rank(1).Enter(91, "kernel").Leave(105, "kernel").Recv(106, 110, 0, 2, big);
  s.rank(1).Complete(111, 140, "MPI_Ssend", [](RankScript& c) { c.SendEvent(139, 2, 4, 8); });
  s.rank(2).Recv(91, 131, 0, 3, big).Enter(132, "kernel").Leave(135, "kernel");
  s.rank(2).Recv(136, 141, 1, 4, 8);
  for (int r = 0; r < 3; ++r) {
    RankScript& k = s.rank(r);
    const uint64_t skew = static_cast<uint64_t>(r) * 3;
    k.Enter(145, "kernel").Leave(150 + skew, "kernel");
    k.Collective(151 + skew, 160, "MPI_Bcast", OTF2_COLLECTIVE_OP_BCAST, 8, 8, 1);
    k.Enter(161, "solve").Leave(170 + 2 * skew, "solve");
    k.Collective(171 + 2 * skew, 185, "MPI_Reduce", OTF2_COLLECTIVE_OP_REDUCE, 8, 8, 2);
    k.Collective(186, 188 + skew, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    k.Call(200, 210, "MPI_Finalize").Leave(211, "main");
  }
  return s;
}

TEST(SyncReplayTest, AgreesWithTheEventReplayOnNonBlockingRendezvousAndRootedOperations) {
  EXPECT_TRUE(ExpectSameAsEventReplay(ReadScenario(MixedProgram())));
}

// The benchmarks' stencil program (bench/synthetic_trace.h), whose 20-million-event trace the
// bottleneck analysis's cost is measured on: halos of 8 KiB (eager), 128 KiB (rendezvous: the
// sends wait for their receives' postings) and, on two ranks, to the rank itself.
TEST(SyncReplayTest, AgreesWithTheEventReplayOnTheBenchmarkStencil) {
  for (const auto& [ranks, bytes] :
       {std::pair<uint32_t, uint64_t>{16, 8192}, std::pair<uint32_t, uint64_t>{9, 128 * 1024},
        std::pair<uint32_t, uint64_t>{2, 128 * 1024}}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks, " + std::to_string(bytes) + " bytes");
    bench::SyntheticTraceOptions o;
    o.ranks = ranks;
    o.iterations = 25;
    o.message_bytes = bytes;
    Result<bench::SyntheticTraceFacts> facts =
        bench::WriteSyntheticTrace(testing::MakeTempDir("sync"), o);
    ASSERT_TRUE(facts.has_value()) << facts.error().message();
    Result<trace::Trace> t = otf2::ReadTrace(facts->anchor, {});
    ASSERT_TRUE(t.has_value()) << t.error().message();
    EXPECT_TRUE(ExpectSameAsEventReplay(*t));
  }
}

// More sends between two points than a point counts (16 bits): rank 0 sends 70,000 messages of
// 8 bytes (eager) with MPI_Isend, none of whose calls waits for anything, completes them in one
// MPI_Waitall (no point either: it completes no receive) and finalizes; rank 1 receives each
// with MPI_Recv. The calls of the 32,767th and the 65,534th sends become points that publish
// the sends before them (the Finalize then publishes 4,466); without them the Finalize would
// count 70,000 and the points replay refuse the trace. Both ranks compute between bursts of
// 1,000 messages, which the changes scale.
testing::Scenario ManySendsProgram() {
  constexpr uint64_t kSends = 70000;
  testing::Scenario s(2);
  RankScript& sender = s.rank(0);
  RankScript& receiver = s.rank(1);
  sender.Enter(0, "main");
  receiver.Enter(0, "main");
  uint64_t t = 1;  // the sender's clock
  uint64_t u = 1;  // the receiver's: 4 ticks a receive, after the send it receives
  for (uint64_t k = 0; k < kSends; ++k) {
    if (k % 1000 == 0) {
      sender.Enter(t, "kernel").Leave(t + 50, "kernel");
      receiver.Enter(u, "kernel").Leave(u + 30, "kernel");
      t += 51;
      u += 31;
    }
    sender.Isend(t, t + 1, 1, 0, 8, k + 1);
    receiver.Recv(std::max(u, t), std::max(u, t) + 3, 0, 0, 8);
    u = std::max(u, t) + 4;
    t += 2;
  }
  sender.Complete(t, t + 2, "MPI_Waitall", [&](RankScript& w) {
    for (uint64_t k = 0; k < kSends; ++k) w.IsendCompleteEvent(t + 2, k + 1);
  });
  const uint64_t end = std::max(t + 3, u);
  for (RankScript* r : {&sender, &receiver})
    r->Call(end, end + 10, "MPI_Finalize").Leave(end + 11, "main");
  return s;
}

TEST(SyncReplayTest, AgreesWithTheEventReplayAfterMoreSendsThanAPointCounts) {
  EXPECT_TRUE(ExpectSameAsEventReplay(ReadScenario(ManySendsProgram())));
}

TEST(SyncReplayTest, AgreesWithTheEventReplayOnEveryRealTraceItModels) {
  int modelled = 0;
  for (const std::string& name : test::RealTraceNames()) {
    SCOPED_TRACE(name);
    Result<trace::Trace> t = otf2::ReadTrace(test::RealTrace(name) + "/traces.otf2", {});
    ASSERT_TRUE(t.has_value()) << t.error().message();
    const bool compared = ExpectSameAsEventReplay(*t);
    std::printf("%-40s %s\n", name.c_str(), compared ? "compared" : "not modelled");
    modelled += compared ? 1 : 0;
  }
  EXPECT_GT(modelled, 0);
}

// What only the event replay models is refused with its reason, not replayed wrongly.
TEST(SyncReplayTest, RefusesWhatOnlyTheEventReplayModels) {
  testing::Scenario probe(2);
  probe.rank(0).Enter(0, "main").Send(1, 2, 1, 0, 8).Leave(3, "main");
  probe.rank(1).Enter(0, "main").Probe(0, 1, 0, 0).Recv(1, 2, 0, 0, 8).Leave(3, "main");
  const trace::Trace t = ReadScenario(probe);
  const match::SyncGraph graph = match::MatchTrace(t, 1);
  std::string why;
  EXPECT_EQ(SyncReplay::Build(t, graph, why), nullptr);
  EXPECT_EQ(why, "probes");

  const trace::Trace random = ReadScenario(testing::RandomMpiScenario(3));
  const match::SyncGraph random_graph = match::MatchTrace(random, 1);
  std::unique_ptr<SyncReplay> fast = SyncReplay::Build(random, random_graph, why);
  ASSERT_NE(fast, nullptr);
  Perturbation ideal;
  ideal.network.ideal = true;
  EXPECT_FALSE(fast->Models(ideal));
  Perturbation region;
  region.compute.push_back(*ParseComputeScale("w0=0.5"));
  EXPECT_FALSE(fast->Models(region));
  Perturbation noise;
  noise.noise = *ParseDistribution("const:2us");
  EXPECT_FALSE(fast->Models(noise));
}

}  // namespace
}  // namespace cw::sim
