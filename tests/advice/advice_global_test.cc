// The global analyses of the bottleneck analysis (analysis/advice/: load balance, imbalanced
// blocks and call paths, barrier redundancy, frequency and transfer runs) on hand-built traces,
// one tick per second, with the expected numbers derived beside them.
#include <gtest/gtest.h>

#include "analysis/advice/hints.h"
#include "tests/advice/advice_fixture.h"
#include "tests/common/analysis_fixture.h"

namespace cw::analysis {
namespace {

using test::Analysis;
using testing::Scenario;

// Two ranks between MPI_Init (0..1) and MPI_Finalize, with two barriers: rank 0 works 4 s in
// the first block and 1 s in the second, rank 1 the other way round.
//   rank 0: Init 0..1, work 1..5, Barrier 5..6, work2 6..7, Barrier 7..11, Finalize 11..12
//   rank 1: Init 0..1, work 1..2, Barrier 2..6, work2 6..10, Barrier 10..11, Finalize 11..12
// With `in_main`, both blocks compute in main itself: 6 s on each process in all. With
// `finalize_twice`, each rank calls MPI_Finalize again at 12..13 (main then leaves at 14).
Scenario TwoImbalancedBlocks(bool in_main = false, bool finalize_twice = false) {
  Scenario s(2);
  for (int r = 0; r < 2; ++r) {
    const uint64_t first = r == 0 ? 5 : 2, second = r == 0 ? 7 : 10;
    testing::RankScript& rs = s.rank(r).Enter(0, "main").Call(0, 1, "MPI_Init");
    if (!in_main) rs.Call(1, first, "work");
    rs.Collective(first, 6, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    if (!in_main) rs.Call(6, second, "work2");
    rs.Collective(second, 11, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
        .Call(11, 12, "MPI_Finalize");
    if (finalize_twice) rs.Call(12, 13, "MPI_Finalize");
    rs.Leave(finalize_twice ? 14 : 13, "main");
  }
  return s;
}

TEST(AdviceTest, LoadBalanceAtThreeLevels) {
  Analysis a = AdviseOn(TwoImbalancedBlocks());
  const LoadBalance& lb = a.result.advice->load_balance;
  // Per process: rank 0 computes main 1 + work 4 + work2 1 = 6 s, synchronises 1 + 4 = 5 s in
  // the barriers, and spends 2 s in MPI_Init and MPI_Finalize; rank 1 alike with 1 + 1 + 4.
  ASSERT_EQ(lb.processes.size(), 2u);
  EXPECT_EQ(lb.processes[0].computation, 6u);
  EXPECT_EQ(lb.processes[0].synchronisation, 5u);
  EXPECT_EQ(lb.processes[0].communication, 0u);
  EXPECT_EQ(lb.processes[0].other, 2u);
  EXPECT_EQ(lb.processes[1].computation, 6u);
  EXPECT_NEAR(lb.computation_imbalance, 1.0, kAdviceEps);
  EXPECT_EQ(lb.bottleneck_processes, (std::vector<uint32_t>{0, 1}));
  // Blocks, bounded by MPI_Init's end (1), the barriers and MPI_Finalize's start (11): the
  // first (1..5 and 1..2: 4 and 1 s, mean 2.5), the second (6..7 and 6..10) and the last (0 s).
  EXPECT_EQ(lb.block_count, 3u);
  ASSERT_EQ(lb.blocks.size(), 3u);
  EXPECT_EQ(lb.blocks[0].index, 0u);  // ties by location: rank 0's block first
  EXPECT_EQ(lb.blocks[0].max, 4u);
  EXPECT_EQ(lb.blocks[0].max_location, 0u);
  EXPECT_NEAR(lb.blocks[0].mean, 2.5, kAdviceEps);
  EXPECT_EQ(lb.blocks[0].closing, a.Callpath("main/MPI_Barrier"));
  EXPECT_EQ(lb.blocks[1].index, 1u);
  EXPECT_EQ(lb.blocks[1].max_location, 1u);
  EXPECT_EQ(lb.blocks[2].max, 0u);
  // Both blocks are imbalanced (1.5 s over the mean > 0.26 s, 1 % of 26; 4/2.5 - 1 = 0.6 >
  // 0.25): one finding at the barrier that ends them, 2 x 1.5 = 3 s beyond the mean. work and
  // work2 are imbalanced call paths (4 against a mean of 2.5 s). The barriers deviate (1, 4, 4,
  // 1 s: min/mean 0.4), each 4 s instance waited 3 s for the other rank: Wait on group, 8 - 2 x
  // 2.5 = 3 s beyond the mean. Nobody communicates: both barriers are redundant (10 s). The
  // wait holds the rest: the blocks the barrier ends, and work and work2, the imbalance of the
  // processes it waited for.
  EXPECT_EQ(Patterns(a), (std::vector<std::string>{"redundant_barrier at main/MPI_Barrier on 0 1",
                                                   "wait_on_group at main/MPI_Barrier on 0 1"}))
      << Describe(a);
  const AdviceFinding& wait = Finding(a, AdvicePattern::kWaitOnGroup, "main/MPI_Barrier");
  EXPECT_EQ(wait.imbalanced_blocks, 2u);
  ASSERT_EQ(wait.root_causes.size(), 2u);
  EXPECT_EQ(wait.root_causes[0].callpath, a.Callpath("main/work"));
  EXPECT_EQ(wait.root_causes[0].location, 0u);
  EXPECT_EQ(wait.root_causes[1].callpath, a.Callpath("main/work2"));
  EXPECT_EQ(wait.root_causes[1].location, 1u);
  // With deviation bounds no instance reaches (low 0.1, high 5), the barrier's 6 s of waiting
  // (over 0.26 s) still find it, by its wait states: an instance takes (10 - 6) / 4 = 1 s without
  // them, the two 4 s instances are longer, 8 - 2 x 1 = 6 s beyond. The same story: a wait on
  // the group with the blocks and work and work2 folded in.
  AdviceParameters loose;
  loose.deviation_low = 0.1;
  loose.deviation_high = 5;
  Analysis b = AdviseOn(TwoImbalancedBlocks(), nullptr, loose);
  EXPECT_EQ(Patterns(b), (std::vector<std::string>{"redundant_barrier at main/MPI_Barrier on 0 1",
                                                   "wait_on_group at main/MPI_Barrier on 0 1"}))
      << Describe(b);
  const AdviceFinding& found = Finding(b, AdvicePattern::kWaitOnGroup, "main/MPI_Barrier");
  EXPECT_EQ(found.filter, DetectionFilter::kWaiting);
  EXPECT_EQ(found.bottleneck_instances, 2u);
  EXPECT_NEAR(*found.expected, 1, kAdviceEps);
  EXPECT_NEAR(ExcessTime(found), 6, kAdviceEps);
  EXPECT_EQ(found.imbalanced_blocks, 2u);
  EXPECT_EQ(found.root_causes.size(), 2u);
  ASSERT_EQ(a.result.advice->redundant_barriers.size(), 1u);
  EXPECT_EQ(a.result.advice->redundant_barriers[0].instances, 2u);
  EXPECT_EQ(a.result.advice->redundant_barriers[0].time, 10u);
}

// The last block ends where the first termination call begins, however many follow: with a
// second MPI_Finalize at 12..13, the blocks are those of LoadBalanceAtThreeLevels, the last one
// 11..11 (0 s; ending at the second call's start it would take 1 s on each rank).
TEST(AdviceTest, TheLastBlockEndsAtTheFirstTerminationCall) {
  Analysis a = AdviseOn(TwoImbalancedBlocks(false, true));
  const LoadBalance& lb = a.result.advice->load_balance;
  EXPECT_EQ(lb.block_count, 3u);
  ASSERT_EQ(lb.blocks.size(), 3u);
  EXPECT_EQ(lb.blocks[0].max, 4u);
  EXPECT_EQ(lb.blocks[1].max, 4u);
  EXPECT_EQ(lb.blocks[2].max, 0u);
}

// The same blocks, computing in main: 1 + 4 + 1 = 6 s on each process, so no call path is
// imbalanced. The barrier's waits (the two 4 s instances, each
// 3 s for the other rank) are explained by the two imbalanced blocks alone: the finding is an
// imbalanced block at the barrier, with the wait's filter, causes and instances.
TEST(AdviceTest, WaitsOnlyImbalancedBlocksExplainAreAnImbalancedBlock) {
  Analysis a = AdviseOn(TwoImbalancedBlocks(/*in_main=*/true));
  EXPECT_EQ(Patterns(a), (std::vector<std::string>{"redundant_barrier at main/MPI_Barrier on 0 1",
                                                   "imbalanced_block at main/MPI_Barrier on 0 1"}))
      << Describe(a);
  const AdviceFinding& f = Finding(a, AdvicePattern::kImbalancedBlock, "main/MPI_Barrier");
  EXPECT_EQ(f.filter, DetectionFilter::kDeviation);
  EXPECT_EQ(f.imbalanced_blocks, 2u);
  EXPECT_TRUE(f.root_causes.empty());
  EXPECT_EQ(f.pattern_counts[static_cast<size_t>(AdvicePattern::kWaitOnGroup)], 2u);
  // The counts are of its instances (both waited on the group); the blocks are counted apart.
  EXPECT_EQ(f.pattern_counts[static_cast<size_t>(AdvicePattern::kImbalancedBlock)], 0u);
  ASSERT_EQ(f.causes.size(), 2u);
  EXPECT_EQ(f.causes[0].time, 3u);
  EXPECT_EQ(f.causes[1].time, 3u);
  // 8 s in the two 4 s instances, against the mean (1 + 4 + 4 + 1) / 4 = 2.5: 3 s beyond it.
  EXPECT_NEAR(ExcessTime(f), 3, kAdviceEps);
}

// Rank 0 works 4 s, rank 1 1 s and then 1 s more (or writes a file for that second), then both
// meet in a barrier (4..5); main ends at 6. Nobody transfers anything: as far as the trace shows
// the barrier is redundant. It is only surely so without memory or files it could be ordering: an
// MPI window, OpenSHMEM's symmetric memory or file I/O before it makes it possibly redundant, with
// what to check.
TEST(AdviceTest, ABarrierIsSurelyRedundantOnlyWhereNothingHiddenCanDependOnIt) {
  enum Hidden { kNothing, kFile, kWindow, kSymmetric };
  auto scenario = [](Hidden hidden) {
    Scenario s(2);
    if (hidden == kWindow) s.AddWindow(0);
    if (hidden == kSymmetric) s.AddShmemWindow({0, 1});
    s.rank(0)
        .Enter(0, "main")
        .Call(0, 4, "work")
        .Collective(4, 5, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
        .Leave(6, "main");
    s.rank(1)
        .Enter(0, "main")
        .Call(0, 1, "work")
        .Call(1, 2, hidden == kFile ? "MPI_File_write_at" : "work")
        .Collective(2, 5, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
        .Leave(6, "main");
    return s;
  };
  Analysis plain = AdviseOn(scenario(kNothing));
  const AdviceFinding& sure = Finding(plain, AdvicePattern::kRedundantBarrier, "main/MPI_Barrier");
  EXPECT_EQ(sure.unseen, 0u);
  ASSERT_EQ(plain.result.advice->redundant_barriers.size(), 1u);
  EXPECT_EQ(plain.result.advice->redundant_barriers[0].unseen, 0u);
  // Held to the hotspot share as every finding: its 5 s are 42 % of the 12 s of all time; at a
  // share of 50 % it is no finding, though still listed among the redundant barriers.
  AdviceParameters half;
  half.hotspot_share = 0.5;
  Analysis cold = AdviseOn(scenario(kNothing), nullptr, half);
  for (const AdviceFinding& f : cold.result.advice->findings)
    EXPECT_NE(f.pattern, AdvicePattern::kRedundantBarrier) << Describe(cold);
  EXPECT_EQ(cold.result.advice->redundant_barriers.size(), 1u);
  const std::pair<Hidden, uint8_t> cases[] = {
      {kFile, kUnseenFileIo}, {kWindow, kUnseenWindowMemory}, {kSymmetric, kUnseenSymmetricMemory}};
  for (const auto& [hidden, bit] : cases) {
    SCOPED_TRACE(static_cast<int>(hidden));
    Analysis a = AdviseOn(scenario(hidden));
    for (const AdviceFinding& f : a.result.advice->findings)
      EXPECT_NE(f.pattern, AdvicePattern::kRedundantBarrier) << Describe(a);
    const AdviceFinding& f =
        Finding(a, AdvicePattern::kPossiblyRedundantBarrier, "main/MPI_Barrier");
    EXPECT_EQ(f.unseen, bit);
    // The hints say what to check: the general one and the one of the hidden dependency.
    EXPECT_EQ(f.hints, PossiblyRedundantHints(bit));
    ASSERT_EQ(f.hints.size(), 2u);
    EXPECT_EQ(f.hints[0].rfind("possibly redundant", 0), 0u);
    ASSERT_EQ(a.result.advice->redundant_barriers.size(), 1u);
    EXPECT_EQ(a.result.advice->redundant_barriers[0].unseen, bit);
  }
}

TEST(AdviceTest, ABarrierAfterCommunicationIsNotRedundant) {
  // Rank 0 sends rank 1 a message before the first barrier only: the first barrier is needed,
  // so its call path is not redundant; the second barrier's call path (another one: it is in
  // `phase`) has nothing before it.
  Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Send(1, 2, 1, 0, 8)
      .Collective(2, 4, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Enter(4, "phase")
      .Collective(5, 6, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Leave(7, "phase")
      .Leave(8, "main");
  s.rank(1)
      .Enter(0, "main")
      .Recv(1, 3, 0, 0, 8)
      .Collective(3, 4, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Enter(4, "phase")
      .Collective(5, 6, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0)
      .Leave(7, "phase")
      .Leave(8, "main");
  Analysis a = AdviseOn(s);
  ASSERT_EQ(a.result.advice->redundant_barriers.size(), 1u);
  EXPECT_EQ(a.result.advice->redundant_barriers[0].callpath, a.Callpath("main/phase/MPI_Barrier"));
  EXPECT_EQ(a.result.advice->redundant_barriers[0].time, 2u);
}

// Rank 0 calls MPI_Comm_rank 5 times (0..5, 1 s each), sends 8 messages of 8 bytes to rank 1
// in `small` (5..13, 1 s each), meets everybody in a barrier (13..14), then sends 8 to ranks 2,
// 3, 1, 2, 3, 1, 2, 3 in `spread` (14..22). The others receive them as they come.
Scenario TransferRuns() {
  Scenario s(4);
  testing::RankScript& r0 = s.rank(0).Enter(0, "main");
  for (uint64_t k = 0; k < 5; ++k) r0.Call(k, k + 1, "MPI_Comm_rank");
  r0.Enter(5, "small");
  for (uint64_t k = 0; k < 8; ++k) r0.Send(5 + k, 6 + k, 1, 0, 8);
  r0.Leave(13, "small").Collective(13, 14, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
  r0.Enter(14, "spread");
  const int targets[8] = {2, 3, 1, 2, 3, 1, 2, 3};
  for (uint64_t k = 0; k < 8; ++k) r0.Send(14 + k, 15 + k, targets[k], 0, 8);
  r0.Leave(22, "spread").Leave(40, "main");
  for (int r = 1; r < 4; ++r) {
    testing::RankScript& rs = s.rank(r).Enter(0, "main");
    if (r == 1) {
      for (uint64_t k = 0; k < 8; ++k) rs.Recv(5 + k, 6 + k, 0, 0, 8);
    }
    rs.Collective(13, 14, "MPI_Barrier", OTF2_COLLECTIVE_OP_BARRIER, 0, 0);
    for (uint64_t k = 0; k < 8; ++k) {
      if (targets[k] == r) rs.Recv(14 + k, 15 + k, 0, 0, 8);
    }
    rs.Leave(40, "main");
  }
  return s;
}

TEST(AdviceTest, FrequencyAnalysisFindsShortFrequentCallsAndTransferRuns) {
  // With runs of 8 and high frequency at 5 calls of at most 2 s: the 8 sends in `small` are a
  // run of small transfers to one target, the 8 in `spread` a run of blocking transfers to
  // changing targets (the barrier ends the first run; 8 s each, more than 1 % of 4 x 40 s), and
  // MPI_Comm_rank is frequent.
  Scenario s = TransferRuns();
  AdviceParameters p;
  p.frequent_count = 5;
  p.frequent_mean = 2;
  Analysis a = AdviseOn(s, nullptr, p);
  const AdviceFinding& small = Finding(a, AdvicePattern::kSmallTransfers, "main/small/MPI_Send");
  EXPECT_EQ(small.instances, 1u);  // one run
  EXPECT_EQ(small.bottleneck_instances, 8u);
  EXPECT_EQ(small.time, 8u);
  EXPECT_EQ(small.locations, std::vector<uint32_t>{0});
  const AdviceFinding& serial =
      Finding(a, AdvicePattern::kSerialisedTransfers, "main/spread/MPI_Send");
  EXPECT_EQ(serial.bottleneck_instances, 8u);
  EXPECT_EQ(serial.time, 8u);
  const AdviceFinding& frequent = Finding(a, AdvicePattern::kHighFrequency, "main/MPI_Comm_rank");
  EXPECT_EQ(frequent.instances, 5u);
  EXPECT_NEAR(frequent.mean, 1, kAdviceEps);
  // Frequent calls are held to the hotspot share as every finding is: MPI_Comm_rank's 5 s are
  // 3.1 % of the 160 s of all time, the runs' 8 s 5 %; at a share of 4 % only the runs remain.
  AdviceParameters hot = p;
  hot.hotspot_share = 0.04;
  Analysis h = AdviseOn(s, nullptr, hot);
  bool runs = false;
  for (const AdviceFinding& f : h.result.advice->findings) {
    EXPECT_FALSE(f.pattern == AdvicePattern::kHighFrequency &&
                 f.callpath == h.Callpath("main/MPI_Comm_rank"))
        << Describe(h);
    runs = runs || f.pattern == AdvicePattern::kSmallTransfers;
  }
  EXPECT_TRUE(runs) << Describe(h);
  // Eight sends are not a run of 9.
  p.transfer_run = 9;
  Analysis b = AdviseOn(s, nullptr, p);
  for (const AdviceFinding& f : b.result.advice->findings) {
    EXPECT_NE(f.pattern, AdvicePattern::kSmallTransfers) << Describe(b);
    EXPECT_NE(f.pattern, AdvicePattern::kSerialisedTransfers) << Describe(b);
  }
}

// Transfers with computation between them are no run: rank 0 sends 8 messages of 8 bytes to
// rank 1, 1 s each, `gap` s apart; rank 1 receives each as it comes. With --frequent-mean 2, a
// gap of 2 s keeps them consecutive (one run of 8, 8 s > 1 % of 2 x 100 s), a gap of 3 s ends
// the run after every transfer.
TEST(AdviceTest, ComputationBetweenTransfersEndsARun) {
  auto scenario = [](uint64_t gap) {
    Scenario s(2);
    testing::RankScript& r0 = s.rank(0).Enter(0, "main");
    testing::RankScript& r1 = s.rank(1).Enter(0, "main");
    for (uint64_t k = 0; k < 8; ++k) {
      r0.Send(k * (1 + gap), k * (1 + gap) + 1, 1, 0, 8);
      r1.Recv(k * (1 + gap), k * (1 + gap) + 1, 0, 0, 8);
    }
    r0.Leave(100, "main");
    r1.Leave(100, "main");
    return s;
  };
  AdviceParameters p;
  p.frequent_mean = 2;
  Analysis back_to_back = AdviseOn(scenario(2), nullptr, p);
  const AdviceFinding& run = Finding(back_to_back, AdvicePattern::kSmallTransfers, "main/MPI_Send");
  EXPECT_EQ(run.instances, 1u);
  EXPECT_EQ(run.bottleneck_instances, 8u);
  Analysis apart = AdviseOn(scenario(3), nullptr, p);
  for (const AdviceFinding& f : apart.result.advice->findings) {
    EXPECT_NE(f.pattern, AdvicePattern::kSmallTransfers) << Describe(apart);
  }
}

// Rank 0 sends 8 bytes to ranks 1, 2, 3, 1, 2, 3, 1, 2, one blocking send of 2 s after the
// other (send k from 2k to 2k + 2); each receiver enters its next receive when the last ended
// (the first at 0), and a receive ends with its send:
//   rank 1: 0..2 (its send began at 0), 2..8 (send at 6: 4 s Late Sender), 8..14 (4 s)
//   rank 2: 0..4 (2 s), 4..10 (4 s), 10..16 (4 s)
//   rank 3: 0..6 (4 s), 6..12 (4 s)
// The receives (2, 6, 6, 4, 6, 6, 6, 6: mean 5.25, min/mean 0.38) deviate; the six 6 s ones
// each waited 4 s for rank 0's MPI_Send. The sends are a run of 8 blocking transfers to
// changing targets (16 s > 1 % of 4 x 40 s): the receivers wait because the sends are
// serialised, and their wait (6 x 4 = 24 s) is counted in the run's finding.
TEST(AdviceTest, ReceiversWaitingForSerialisedSendsAreTheRunsFinding) {
  Scenario s(4);
  const int targets[8] = {1, 2, 3, 1, 2, 3, 1, 2};
  testing::RankScript& r0 = s.rank(0).Enter(0, "main");
  for (uint64_t k = 0; k < 8; ++k) r0.Send(2 * k, 2 * k + 2, targets[k], 0, 8);
  r0.Leave(40, "main");
  for (int r = 1; r < 4; ++r) {
    testing::RankScript& rs = s.rank(r).Enter(0, "main");
    uint64_t entered = 0;
    for (uint64_t k = 0; k < 8; ++k) {
      if (targets[k] != r) continue;
      rs.Recv(entered, 2 * k + 2, 0, 0, 8);
      entered = 2 * k + 2;
    }
    rs.Leave(40, "main");
  }
  Analysis a = AdviseOn(s);
  EXPECT_EQ(Patterns(a), (std::vector<std::string>{"serialised_transfers at main/MPI_Send on 0"}))
      << Describe(a);
  const AdviceFinding& f = Finding(a, AdvicePattern::kSerialisedTransfers, "main/MPI_Send");
  EXPECT_EQ(f.bottleneck_instances, 8u);
  EXPECT_EQ(f.time, 16u);
  EXPECT_EQ(f.pattern_counts[static_cast<size_t>(AdvicePattern::kLateSender)], 6u);
  EXPECT_EQ(f.caused_wait, 24u);
}

// Rank 0 takes MPI_Win_lock_all, puts 4 bytes into rank 1's window 8 times back to back (0..8,
// 1 s each), then calls MPI_Win_unlock_all, which takes 4 s to complete them (8..12); main ends
// at 20, rank 1's (computing 8 s as rank 0 does) at 8. With a baseline of 0.5 s for
// MPI_Win_unlock_all, its 4 s instance (mean 4 > 2 x 0.5) is slow with no remote cause; the
// puts are a run of 8 small transfers (8 s > 1 % of 28 s). The unlock
// right after the run pays for it: one finding, the run's, which counts the unlock's instance.
// Entered 1 s after the last put instead, it is no longer part of it: two findings.
TEST(AdviceTest, TheCallCompletingARunIsTheRunsFinding) {
  auto scenario = [](uint64_t unlock) {
    Scenario s(2);
    const uint32_t win = s.AddWindow(0);
    testing::RankScript& r0 = s.rank(0).Enter(0, "main").RmaLock(0, 0, "MPI_Win_lock_all", win,
                                                                 OTF2_UNDEFINED_UINT32, 1, false);
    for (uint64_t k = 0; k < 8; ++k) r0.RmaTransfer(k, k + 1, "MPI_Put", win, 1, 4, k + 1);
    r0.RmaUnlock(unlock, unlock + 4, "MPI_Win_unlock_all", win, OTF2_UNDEFINED_UINT32, 1)
        .Leave(20, "main");
    s.rank(1).Enter(0, "main").Leave(8, "main");
    return s;
  };
  const Baselines baselines = ParseOrDie("MPI_Win_unlock_all 2 0 0.5\n");
  Analysis a = AdviseOn(scenario(8), &baselines);
  EXPECT_EQ(Patterns(a), (std::vector<std::string>{"small_transfers at main/MPI_Put on 0"}))
      << Describe(a);
  const AdviceFinding& run = Finding(a, AdvicePattern::kSmallTransfers, "main/MPI_Put");
  EXPECT_EQ(run.completed_by, std::vector<uint32_t>{a.Callpath("main/MPI_Win_unlock_all")});
  EXPECT_EQ(run.pattern_counts[static_cast<size_t>(AdvicePattern::kNoRemoteCause)], 1u);
  Analysis b = AdviseOn(scenario(9), &baselines);
  EXPECT_EQ(Patterns(b),
            (std::vector<std::string>{"small_transfers at main/MPI_Put on 0",
                                      "no_remote_cause at main/MPI_Win_unlock_all on 0"}))
      << Describe(b);
}

// Rank 0 puts 4 bytes into rank 1's window 8 times back to back, 1 s each but the fourth, which
// takes 5 s (3..8; 0..12 in all), between MPI_Win_lock_all and MPI_Win_unlock_all (12..13); main
// ends at 20, rank 1's at 8. The puts' mean is 1.5 s and their longest 5 s (max / mean 3.3 > 2):
// the deviation filter finds the slow put at main/MPI_Put with no remote cause. It is one of
// the run's transfers: one finding, the run's, which counts that instance.
TEST(AdviceTest, ASlowTransferOfARunIsTheRunsFinding) {
  Scenario s(2);
  const uint32_t win = s.AddWindow(0);
  testing::RankScript& r0 = s.rank(0).Enter(0, "main").RmaLock(0, 0, "MPI_Win_lock_all", win,
                                                               OTF2_UNDEFINED_UINT32, 1, false);
  uint64_t t = 0;
  for (uint64_t k = 0; k < 8; ++k) {
    const uint64_t length = k == 3 ? 5 : 1;
    r0.RmaTransfer(t, t + length, "MPI_Put", win, 1, 4, k + 1);
    t += length;
  }
  r0.RmaUnlock(12, 13, "MPI_Win_unlock_all", win, OTF2_UNDEFINED_UINT32, 1).Leave(20, "main");
  s.rank(1).Enter(0, "main").Leave(8, "main");
  Analysis a = AdviseOn(s);
  EXPECT_EQ(Patterns(a), (std::vector<std::string>{"small_transfers at main/MPI_Put on 0"}))
      << Describe(a);
  const AdviceFinding& run = Finding(a, AdvicePattern::kSmallTransfers, "main/MPI_Put");
  EXPECT_EQ(run.pattern_counts[static_cast<size_t>(AdvicePattern::kNoRemoteCause)], 1u);
}

// The tracer's buffer flush is its own time, not the operation's: rank 0 sends 4 messages (0..1,
// 2..3, 4..13 and 14..15) and ends at 28; during the third the tracer flushed its buffer
// (5..12). Rank 1 receives them and ends at 20 (16 s in main on each rank: no imbalance). Counted,
// the sends would take 1, 1, 9 and 1 s (max / mean = 3: a deviation); without the flush 1, 1, 2 and
// 1 s (max / mean = 1.6, min / mean = 0.8): no bottleneck, and the flush is never one itself.
TEST(AdviceTest, TraceBufferFlushesAreNotTheProgramsTime) {
  Scenario s(2);
  s.rank(0)
      .Enter(0, "main")
      .Send(0, 1, 1, 0, 8)
      .Send(2, 3, 1, 0, 8)
      .Enter(4, "MPI_Send")
      .SendEvent(4, 1, 0, 8)
      .Call(5, 12, "TRACE BUFFER FLUSH")
      .Leave(13, "MPI_Send")
      .Send(14, 15, 1, 0, 8)
      .Leave(28, "main");
  s.rank(1)
      .Enter(0, "main")
      .Recv(0, 1, 0, 0, 8)
      .Recv(2, 3, 0, 0, 8)
      .Recv(4, 5, 0, 0, 8)
      .Recv(14, 15, 0, 0, 8)
      .Leave(20, "main");
  Analysis a = AdviseOn(s);
  EXPECT_TRUE(a.result.advice->findings.empty()) << Describe(a);
  const uint32_t flush = a.trace.CallpathRegion(a.Callpath("main/MPI_Send/TRACE BUFFER FLUSH"));
  EXPECT_EQ(a.result.region_types[flush], GenericType::kMeasurement);
}

}  // namespace
}  // namespace cw::analysis
