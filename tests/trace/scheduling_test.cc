// Oversubscription and CPU contention from the tracer's notes of where each rank ran.
#include "trace/scheduling.h"

#include <gtest/gtest.h>

namespace cw::trace {
namespace {

constexpr int64_t kSecond = 1'000'000'000;

Definitions::RankSchedule Rank(uint32_t rank, const char* host, int cpus, int64_t ran_s,
                               int64_t waited_s) {
  return Definitions::RankSchedule{
      rank, host, cpus, cpus, ran_s * kSecond, waited_s < 0 ? -1 : waited_s * kSecond, -1, -1};
}

// The same with its node's CPU time and the part a hypervisor stole, in seconds.
Definitions::RankSchedule Stolen(Definitions::RankSchedule r, int64_t node_s, int64_t stolen_s) {
  r.node_ns = node_s * kSecond;
  r.node_stolen_ns = stolen_s * kSecond;
  return r;
}

// Host a (2 CPUs) runs ranks 0 and 1, one thread each (no locations defined: one per rank), so it
// is not oversubscribed; rank 0 could run 10 s and waited 1 s of them for a CPU: 10 %, the
// threshold, contended. Rank 1 waited 5 of 100 s: 5 %, not. Host b (1 CPU) runs ranks 2 and 3:
// oversubscribed, so rank 2's 50 % is the run's own doing, not contention. Rank 4's kernel kept
// no account.
Definitions Node() {
  Definitions defs;
  defs.rank_schedules = {Rank(0, "a", 2, 9, 1), Rank(1, "a", 2, 95, 5), Rank(2, "b", 1, 5, 5),
                         Rank(3, "b", 1, 10, 0), Rank(4, "c", 4, 10, -1)};
  return defs;
}

TEST(SchedulingTest, ContentionIsWaitingOnANodeTheRunDidNotOversubscribe) {
  const Definitions defs = Node();
  EXPECT_TRUE(Oversubscribed(defs));
  EXPECT_EQ(OversubscriptionText(defs), "host b: 2 processes with 2 threads on 1 CPUs");
  EXPECT_DOUBLE_EQ(WaitedShare(defs.rank_schedules[0]), 0.1);
  EXPECT_DOUBLE_EQ(WaitedShare(defs.rank_schedules[2]), 0.5);
  EXPECT_EQ(WaitedShare(defs.rank_schedules[4]), -1);
  EXPECT_TRUE(ContendedForCpus(defs));
  EXPECT_EQ(CpuContentionText(defs), "rank 0 waited 1 s for a CPU (10 % of the time it could run)");
}

TEST(SchedulingTest, TheRankThatWaitedTheLargestShareIsNamed) {
  Definitions defs = Node();
  defs.rank_schedules[1] = Rank(1, "a", 2, 3, 1);  // 25 %
  EXPECT_EQ(CpuContentionText(defs),
            "rank 1 waited 1 s for a CPU (25 % of the time it could run); 2 ranks waited 10 % or "
            "more");
  defs.rank_schedules[0] = Rank(0, "a", 99, 1, 0);
  defs.rank_schedules[1] = Rank(1, "a", 2, 99, 1);  // 1 %
  EXPECT_FALSE(ContendedForCpus(defs));
  EXPECT_EQ(CpuContentionText(defs), "");
}

// Steal time: a hypervisor gave part of a node's CPU time to other virtual machines. Host a's
// 2 CPUs over 10 s are 20 CPU-seconds; the hypervisor stole 2 of them while rank 0 recorded:
// 10 %, the threshold, contended though no rank waited for a CPU in the node's own account.
// Rank 1 on host b saw 1 of 40 stolen (2.5 %): not. Steal is counted on oversubscribed nodes
// too: the run's own load does not make it.
TEST(SchedulingTest, AHypervisorStealingTheCpusIsContention) {
  Definitions defs;
  defs.rank_schedules = {Stolen(Rank(0, "a", 2, 10, 0), 20, 2),
                         Stolen(Rank(1, "b", 4, 10, 0), 40, 1)};
  EXPECT_DOUBLE_EQ(StolenShare(defs.rank_schedules[0]), 0.1);
  EXPECT_DOUBLE_EQ(StolenShare(defs.rank_schedules[1]), 0.025);
  EXPECT_TRUE(ContendedForCpus(defs));
  EXPECT_EQ(CpuContentionText(defs),
            "the hypervisor took 10 % of host a's CPU time (steal) while rank 0 recorded");
  // Both kinds: the waiting rank first, then the node that lost the most.
  defs.rank_schedules.push_back(Stolen(Rank(2, "c", 8, 3, 1), 80, 16));  // 25 % waited, 20 % stolen
  EXPECT_EQ(CpuContentionText(defs),
            "rank 2 waited 1 s for a CPU (25 % of the time it could run); the hypervisor took 20 % "
            "of host c's CPU time (steal) while rank 2 recorded");
  // Unknown or inconsistent figures are no steal.
  EXPECT_EQ(StolenShare(Rank(3, "d", 2, 1, 0)), -1);
  EXPECT_EQ(StolenShare(Stolen(Rank(3, "d", 2, 1, 0), 1, 2)), -1);
  EXPECT_EQ(StolenShare(Stolen(Rank(3, "d", 2, 1, 0), 0, 0)), -1);
  Definitions quiet;
  quiet.rank_schedules = {Stolen(Rank(0, "a", 2, 10, 0), 20, 1)};
  EXPECT_FALSE(ContendedForCpus(quiet));
}

// The computation the samples measured and the part descheduled, in milliseconds.
Definitions::RankSchedule Sampled(Definitions::RankSchedule r, int64_t measured_ms,
                                  int64_t descheduled_ms) {
  r.computation_measured_ns = measured_ms * 1'000'000;
  r.computation_descheduled_ns = descheduled_ms * 1'000'000;
  return r;
}

// Rank 0's samples spanned 2 s of computation, 0.5 s of it descheduled: 25 %. Rank 1's 4 s
// with 0.2 s: 5 %. Rank 2 took no samples, rank 3's samples spanned no computation: unknown,
// and left out of the sums. Over the known ranks 0.7 of 6 s: 11.7 %, printed as 12 %.
TEST(SchedulingTest, DescheduledComputationIsTheShareTheSamplesMeasured) {
  Definitions defs;
  defs.rank_schedules = {Sampled(Rank(0, "a", 2, 3, 1), 2000, 500),
                         Sampled(Rank(1, "a", 2, 5, 0), 4000, 200), Rank(2, "a", 2, 5, 0),
                         Sampled(Rank(3, "a", 2, 5, 0), 0, 0)};
  EXPECT_DOUBLE_EQ(DescheduledShare(defs.rank_schedules[0]), 0.25);
  EXPECT_DOUBLE_EQ(DescheduledShare(defs.rank_schedules[1]), 0.05);
  EXPECT_EQ(DescheduledShare(defs.rank_schedules[2]), -1);
  EXPECT_EQ(DescheduledShare(defs.rank_schedules[3]), -1);
  ASSERT_NE(MostDescheduled(defs), nullptr);
  EXPECT_EQ(MostDescheduled(defs)->rank, 0u);
  EXPECT_EQ(DescheduledText(defs),
            "the ranks' computation was descheduled 12 % of the 6 s their samples measured "
            "(rank 0 the most: 25 % of 2 s)");
  // More descheduled than measured is inconsistent: unknown.
  EXPECT_EQ(DescheduledShare(Sampled(Rank(4, "a", 2, 5, 0), 10, 20)), -1);
  Definitions unsampled;
  unsampled.rank_schedules = {Rank(0, "a", 2, 3, 1)};
  EXPECT_EQ(MostDescheduled(unsampled), nullptr);
  EXPECT_EQ(DescheduledText(unsampled), "");
}

}  // namespace
}  // namespace cw::trace
