// The what-if replay's engine (sim/replay.h describes the model): locations taking turns over
// their event streams, the MPI call each is in, and the stalls it breaks.
//
// engine.cc holds the turns, the local clock and the stall rules; engine_calls.cc what an MPI
// call publishes to its partners, what it waits for and where its events land;
// engine_one_sided.cc the one-sided calls and engine_omp.cc the OpenMP threads' synchronisation.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "sim/internal/lane.h"
#include "sim/internal/matching.h"
#include "sim/internal/network_model.h"
#include "sim/internal/omp_plan.h"
#include "sim/internal/one_sided_plan.h"
#include "sim/replay.h"

namespace cw::sim::internal {

// Calls whose cost the network model changes; set-up calls (MPI_Init, communicator creation,
// file I/O, ...) keep theirs.
bool IsCommunication(const trace::MpiFunction& f);

// MPI_Finalize is collective over all processes: they leave it once the last one entered.
inline constexpr uint64_t kFinalizeKey = uint64_t{2} << 32;
// The OpenMP barrier instances of OmpPlan, one key for all (the instance is the sequence).
inline constexpr uint64_t kOmpBarrierKey = uint64_t{3} << 32;

Dependency MakeDependency(DependencyKind kind, uint32_t id, uint32_t partner);

class Engine {
 public:
  Engine(const ReplayInput& input, const ReplayOptions& options)
      : input_(input),
        options_(options),
        defs_(*input.defs),
        network_(options.perturbation.network,
                 static_cast<double>(std::max<uint64_t>(1, input.defs->clock.resolution))),
        base_(static_cast<int64_t>(input.defs->clock.global_offset)) {}

  Result<ReplayResult> Run();

 private:
  int64_t Relative(uint64_t t) const { return static_cast<int64_t>(t) - base_; }
  uint64_t Absolute(int64_t t) const { return static_cast<uint64_t>(t + base_); }

  void SetUpLanes();
  void SetUpComputeRules();
  double RegionFactor(const Lane& lane, uint32_t region, double inherited) const;
  const trace::MpiFunction& FunctionOf(uint32_t region) const;

  void Advance(Lane& lane);
  int64_t StepClock(Lane& lane, const SimEvent& e);
  void Record(Lane& lane, const SimEvent& e, int64_t simulated);
  void LocalEvent(Lane& lane, const SimEvent& e);
  bool BeginCall(Lane& lane);
  void Publish(Lane& lane);
  // Publish's point-to-point steps for the call's record `k` (`e`); each may set `wake` to a
  // lane a published message or posting unblocks.
  void PublishSend(Lane& lane, size_t k, const SimEvent& e, uint32_t& wake);
  void PublishPosting(Lane& lane, size_t k, const SimEvent& e, uint32_t& wake);
  void PublishReceive(Lane& lane, const SimEvent& e, uint32_t& wake);
  void PublishCollective(Lane& lane, const SimEvent& e);
  // Joins the lane's arrival at `arrival` into the instance of collective record `e` and fills
  // `dep`, what its completion waits for; false if its communicator is undefined.
  bool JoinCollective(Lane& lane, const SimEvent& e, Moment arrival, Dependency& dep);
  void PublishEpochSync(Lane& lane, const SimEvent& e);
  // One-sided synchronisation (engine_one_sided.cc): which regions are OpenSHMEM's routines,
  // what a one-sided record of a call publishes or waits for, and one outside calls counted.
  void SetUpShmemRegions();
  // Perturbation::calls, by call path: kKeep, kRemove, or a cost cap in ticks.
  void SetUpCallChanges();
  bool StartsCall(uint32_t region) const;
  void PublishOneSided(Lane& lane, const SimEvent& e);
  void CountOneSided(Lane& lane, const SimEvent& e);
  // OpenMP (engine_omp.cc), after OmpPlan: a worker's team begin waits for its master's fork
  // and a lock acquisition for the previous holder's release (points); a barrier is a call
  // whose threads leave after the last one arrived; forks and releases notify.
  void SetUpOmp();
  bool BeginOmpWait(Lane& lane, const SimEvent& e);
  void NotifyOmp(Lane& lane, const SimEvent& e, Moment at);
  void JoinOmpBarrier(Lane& lane, const SimEvent& enter);
  // The OpenMP records inside the call at the window's head, counted (and notifying) as above.
  void CountOmpInCall(Lane& lane);
  void AddProbe(Lane& lane);
  const SimEvent* FindCompletion(Lane& lane, size_t from, uint64_t request);
  bool TryFinishCall(Lane& lane);
  void FinishCall(Lane& lane, int64_t ready_measured, int64_t ready_simulated, int64_t leave);
  void Block(Lane& lane, size_t dep);
  void Wake(uint32_t lane);
  void WakeWaiters(CollectiveInstance& inst);
  bool BreakStall();
  void FlushObserved(Lane& lane);
  void JoinFinalize(Lane& lane);
  void AddShift(uint32_t callpath, int64_t absorbed, int64_t gained);
  void CountVisit(uint32_t callpath);

  const ReplayInput& input_;
  const ReplayOptions& options_;
  const trace::Definitions& defs_;
  NetworkModel network_;
  int64_t base_;
  std::vector<std::unique_ptr<Lane>> lanes_;
  std::deque<uint32_t> runnable_;
  MessageTable messages_;
  CollectiveTable collectives_;
  std::vector<std::vector<uint32_t>> comm_ranks_;  // per communicator: rank of each location
  OneSidedPlan plan_;
  // Per region: 0 not OpenSHMEM, 1 an OpenSHMEM routine that communicates, 2 one that manages.
  std::vector<uint8_t> shmem_region_;
  OmpPlan omp_plan_;
  std::vector<uint8_t> omp_barrier_;  // per region, if the plan pairs anything: an OpenMP barrier
  std::vector<CallChangeTicks> call_change_;  // by call path (empty: no change anywhere)
  // Compute-scale rules by region id (indices into the perturbation's list), and the rules
  // that apply to all computation.
  std::vector<std::vector<uint32_t>> region_rules_;
  std::vector<uint32_t> general_rules_;
  FlatHashMap<uint32_t, std::vector<uint32_t>> callpath_rules_;  // ComputeScale::callpath
  ReplayResult result_;
  uint32_t done_lanes_ = 0;
  uint32_t process_count_ = 0;  // MPI ranks among the locations
};

}  // namespace cw::sim::internal
