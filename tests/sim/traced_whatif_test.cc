// `causeway whatif` on real MPI runs: the replay of an unchanged trace reproduces every
// location's end (and writes a simulated trace that analyses exactly as the traced one), Sottile et
// al. 2006's token ring predicts the effect of noise exactly, and a prediction made from one run
// matches a second run that really has the change.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "testing/scenario.h"
#include "tests/common/analysis_fixture.h"
#include "tests/common/paths.h"
#include "tests/common/traced_program.h"

namespace cw::test {
namespace {

using nlohmann::json;

// Runs `causeway whatif` on the trace in `dir`; `report_dir`, when given, receives the output
// directory (for the simulated trace that --write-trace puts there).
json WhatIf(const std::string& dir, const std::string& options = "",
            std::string* report_dir = nullptr) {
  std::string out;
  const std::string report = cw::testing::MakeTempDir("traced-whatif");
  if (report_dir != nullptr) *report_dir = report;
  EXPECT_EQ(
      RunCommand(CausewayBinary() + " whatif -q " + dir + " -o " + report + " " + options, &out), 0)
      << out;
  std::ifstream in(report + "/whatif.json");
  return json::parse(in);
}

double Predicted(const json& w) { return w["predicted_runtime"]["mean"].get<double>(); }
double Measured(const json& w) { return w["measured_runtime"].get<double>(); }

// The relative error a prediction is allowed against a run that really has the change.
constexpr double kAgreement = 0.10;

// Runs `attempt` (trace, predict, trace the changed run; returns the prediction's relative
// error) until one attempt agrees within kAgreement, at most 3 times, and returns the last
// error. The runs share 2 cores with whatever else the machine runs: a disturbed run once made a
// prediction 17 % long. A wrong model misses in every attempt.
double ErrorAfterRetries(const std::function<double()>& attempt) {
  double error = 1;
  for (int k = 0; k < 3 && error >= kAgreement; ++k) error = attempt();
  return error;
}

// Each location's predicted end equals its measured end within 0.1 % of the runtime.
void ExpectIdentity(const json& w, const std::string& what) {
  const double tolerance = 1e-3 * Measured(w);
  for (const json& l : w["locations"]) {
    EXPECT_NEAR(l["predicted_end"].get<double>(), l["measured_end"].get<double>(), tolerance)
        << what << ", location " << l["id"];
  }
  EXPECT_NEAR(Predicted(w), Measured(w), tolerance) << what;
  EXPECT_EQ(w["replay"]["cycles_broken"].get<uint64_t>(), 0u) << what;
}

TEST(TracedWhatIfTest, UnchangedReplayReproducesEveryProgram) {
  struct Program {
    const char* name;
    int ranks;
    const char* args;
  };
  for (const Program& p :
       {Program{"late_sender", 2, ""}, Program{"many_events", 3, "500"}, Program{"probes", 2, ""},
        Program{"persistent_and_nonblocking_collectives", 3, ""}, Program{"user_regions", 2, ""},
        Program{"collectives", 3, ""}, Program{"p2p_patterns", 2, ""}, Program{"threads", 2, ""},
        Program{"rma_epochs", 3, ""}, Program{"ring", 16, "2 100"}}) {
    const std::string dir = TraceProgram(p.name, p.ranks, p.args);
    std::string report;
    ExpectIdentity(WhatIf(dir, "--write-trace", &report), p.name);
    // The simulated trace of the unchanged replay analyses exactly as the traced one.
    Analysis traced = AnalyzeFile(dir + "/traces.otf2");
    Analysis simulated = AnalyzeFile(report + "/simulated/traces.otf2");
    EXPECT_EQ(traced.ValuesByName(), simulated.ValuesByName()) << p.name;
    EXPECT_EQ(traced.report.instance_counts, simulated.report.instance_counts) << p.name;
  }
}

#if CW_HAVE_OPENMP_PROGRAMS
TEST(TracedWhatIfTest, UnchangedReplayReproducesTheHybridProgram) {
  // omp_teams.c: 2 ranks, 3 rounds of a team of 3 threads that meet at two explicit barriers
  // and the implicit one, and take a critical section and an OpenMP lock once each.
  const std::string dir = TraceProgram("omp_teams", 2, "", "", nullptr,
                                       std::string(kIdleRanksYield) + " OMP_WAIT_POLICY=passive");
  std::string report;
  const json w = WhatIf(dir, "--write-trace", &report);
  ExpectIdentity(w, "omp_teams");
  const json& replay = w["replay"];
  // 2 ranks x 3 rounds x 2 workers team begins; x 3 barriers x 3 threads arrivals.
  EXPECT_EQ(replay["omp_team_starts"].get<uint64_t>(), 12u);
  EXPECT_EQ(replay["omp_barrier_arrivals"].get<uint64_t>(), 54u);
  // Per rank and lock, 9 acquisitions: within a round each follows another thread's release
  // (2 x 3 rounds x 2 locks x 2 ranks = 24); across rounds the next one may be the same
  // thread's (at most 8 per lock and rank).
  EXPECT_GE(replay["omp_lock_handovers"].get<uint64_t>(), 24u);
  EXPECT_LE(replay["omp_lock_handovers"].get<uint64_t>(), 32u);
  Analysis traced = AnalyzeFile(dir + "/traces.otf2");
  Analysis simulated = AnalyzeFile(report + "/simulated/traces.otf2");
  EXPECT_EQ(traced.ValuesByName(), simulated.ValuesByName());
}
#endif

TEST(TracedWhatIfTest, MpiLockPredictionMatchesARunWithTheChange) {
  // 5 rounds on 3 ranks: rank 1 holds an exclusive lock on rank 0's window for 20 ms, rank 2
  // waits for it, then works 60 ms; rank 1 reaches each round's closing barrier before rank 2,
  // so its hold reaches the runtime only through the lock hand-over (about 5 x 80 ms). The
  // prediction for rank 1 working 3 times as long (--compute-scale 3@1) is compared with a run
  // in which it really does: each round grows by 2 x 20 ms, 0.2 s in all. A replay that did
  // not follow the hand-over would predict no change. (The rounds are long beside the run's
  // start and end, whose length varies between two runs by some 30 ms on a busy node.)
  double growth = 0;
  const double error = ErrorAfterRetries([&] {
    const std::string first =
        TraceProgram("rma_lock_handover", 3, "5 20000 60000", "", nullptr, kIdleRanksYield);
    const json base = WhatIf(first);
    ExpectIdentity(base, "rma_lock_handover");
    EXPECT_EQ(base["replay"]["lock_handovers"].get<uint64_t>(), 5u);
    const json predicted = WhatIf(first, "--compute-scale 3@1");
    const json real = WhatIf(
        TraceProgram("rma_lock_handover", 3, "5 20000 60000 1 3", "", nullptr, kIdleRanksYield));
    const double e = std::fabs(Predicted(predicted) - Measured(real)) / Measured(real);
    growth = Predicted(predicted) - Measured(base);
    std::printf(
        "MPI lock hand-overs, compute scale 3@1: predicted %.4f s, measured %.4f s, "
        "error %.2f %%\n",
        Predicted(predicted), Measured(real), 100 * e);
    return e;
  });
  EXPECT_GT(growth, 0.15);
  EXPECT_LT(error, kAgreement);
}

#ifdef CW_HAVE_SHMEM_PROGRAMS
TEST(TracedWhatIfTest, UnchangedReplayReproducesEveryOpenShmemProgram) {
  struct Program {
    const char* name;
    int pes;
    const char* args;
  };
  std::vector<Program> programs = {{"shmem_patterns", 3, ""}, {"shmem_ring", 4, "3 2000"}};
#ifdef CW_HAVE_SHMEM_FORTRAN
  programs.push_back({"shmem_fortran", 2, ""});
#endif
  for (const Program& p : programs) {
    const std::string dir = TraceShmemProgram(p.name, p.pes, p.args);
    std::string report;
    const json w = WhatIf(dir, "--write-trace", &report);
    ExpectIdentity(w, p.name);
    EXPECT_EQ(w["replay"]["unmatched_epoch_notifications"].get<uint64_t>(), 0u) << p.name;
    Analysis traced = AnalyzeFile(dir + "/traces.otf2");
    Analysis simulated = AnalyzeFile(report + "/simulated/traces.otf2");
    EXPECT_EQ(traced.ValuesByName(), simulated.ValuesByName()) << p.name;
  }
}

TEST(TracedWhatIfTest, OpenShmemPredictionMatchesARunWithTheChange) {
  // A ring of 4 PEs passing a token through waits for a value, 10 rounds of 10 ms work per hop
  // (about 0.4 s). The prediction for PE 2 working 3 times as long (--compute-scale 3@2) is
  // compared with a run in which it really does: every hop is on the path, so both grow by about
  // 10 x 2 x 10 ms = 0.2 s.
  double growth = 0;
  const double error = ErrorAfterRetries([&] {
    const std::string first =
        TraceShmemProgram("shmem_ring", 4, "10 10000", "", nullptr, kIdleRanksYield);
    const json base = WhatIf(first);
    ExpectIdentity(base, "shmem_ring");
    // Each PE waits 10 times for the token (PE 0 in rounds 2-10 and once after the last), each
    // wait replayed against the put that ended it.
    EXPECT_EQ(base["replay"]["value_waits"].get<uint64_t>(), 4u * 10u);
    const json predicted = WhatIf(first, "--compute-scale 3@2");
    const json real =
        WhatIf(TraceShmemProgram("shmem_ring", 4, "10 10000 2 3", "", nullptr, kIdleRanksYield));
    const double e = std::fabs(Predicted(predicted) - Measured(real)) / Measured(real);
    growth = Predicted(predicted) - Measured(base);
    std::printf(
        "OpenSHMEM ring, compute scale 3@2: predicted %.4f s, measured %.4f s, error %.2f %%\n",
        Predicted(predicted), Measured(real), 100 * e);
    return e;
  });
  EXPECT_GT(growth, 0.15);
  EXPECT_LT(error, kAgreement);
}
#endif

TEST(TracedWhatIfTest, TokenRingNoiseGrowsTheRuntimeByTheMessagesOnThePath) {
  // 16 ranks, 10 traversals: the token's path runs through all 160 messages, and each is sent
  // after a computation phase on the path (the receive before it waited for the token). A
  // constant noise k per phase therefore delays the last receive by 160 k; every other phase's
  // noise falls into a wait. MPI_Finalize, which all ranks leave together, passes the delay to
  // every location's end: the runtime grows by exactly 160 k.
  const std::string dir = TraceProgram("ring", 16, "10 200");
  const json base = WhatIf(dir);
  ExpectIdentity(base, "ring");
  const double measured = Measured(base);
  // Each draw is rounded to whole ticks of the trace's timer (a calibrated TSC rate need not be
  // a whole number of ticks per microsecond): 160 draws may be off by 80 ticks, under 0.1 us.
  const double rounding = 1e-7;
  for (int k : {0, 1, 2, 4, 8}) {
    const json w = WhatIf(dir, "--noise const:" + std::to_string(k) + "us");
    const double increase = Predicted(w) - measured;
    EXPECT_NEAR(increase, 160 * k * 1e-6, rounding) << "k = " << k << " us";
    for (const json& l : w["locations"]) {
      EXPECT_NEAR(l["predicted_end"].get<double>() - l["measured_end"].get<double>(),
                  160 * k * 1e-6, rounding)
          << "k = " << k << ", location " << l["id"];
    }
  }
}

TEST(TracedWhatIfTest, PredictionFromOneRunMatchesARunWithTheChange) {
  // A ring of 4 ranks, 10 traversals of 10 ms work per hop (about 0.4 s, after MPI_Init and
  // rank 0's 0.1 s head start). The
  // prediction from this run for rank 2 working 3 times as long (--compute-scale 3@2) is
  // compared with a second run in which rank 2 really does: on a ring every hop is on the path,
  // so both should grow by about 10 x 2 x 10 ms = 0.2 s. The second case makes rank 1 twice as
  // fast (0.05 s less).
  // An attempt agrees when every case does (a run slowed by other work once measured 11 % above
  // its prediction).
  struct Case {
    const char* scale;
    const char* program_args;
  };
  const Case cases[] = {Case{"3@2", "10 10000 2 3"}, Case{"0.5@1", "10 10000 1 0.5"}};
  std::vector<double> errors;
  ErrorAfterRetries([&] {
    const std::string first = TraceProgram("ring", 4, "10 10000", "", nullptr, kIdleRanksYield);
    errors.clear();
    for (const Case& c : cases) {
      const json predicted = WhatIf(first, std::string("--compute-scale ") + c.scale);
      const json real =
          WhatIf(TraceProgram("ring", 4, c.program_args, "", nullptr, kIdleRanksYield));
      errors.push_back(std::fabs(Predicted(predicted) - Measured(real)) / Measured(real));
      std::printf("compute scale %s: predicted %.4f s, measured %.4f s, error %.2f %%\n", c.scale,
                  Predicted(predicted), Measured(real), 100 * errors.back());
    }
    return *std::max_element(errors.begin(), errors.end());
  });
  for (size_t k = 0; k < errors.size(); ++k) EXPECT_LT(errors[k], kAgreement) << cases[k].scale;
}

}  // namespace
}  // namespace cw::test
