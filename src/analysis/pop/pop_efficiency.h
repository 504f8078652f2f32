// The POP efficiency metrics (the POP Centre of Excellence's model of parallel efficiency).
//
// Over the program's threads of execution (the CPU locations; one per MPI rank in a pure MPI
// program), with useful computation C_p = time outside MPI and the other parallel runtimes (the
// `comp` metric) and the runtime T of the run (first to last event over those locations):
//   load balance             LB   = avg_p C_p / max_p C_p
//   communication efficiency CommE = max_p C_p / T
//   parallel efficiency      PE   = LB · CommE = avg_p C_p / T
// Communication efficiency splits into serialisation efficiency (max_p C_p / T_ideal) and
// transfer efficiency (T_ideal / T), where T_ideal is the runtime on an ideal network: the
// what-if replay (sim/) with zero latency and infinite bandwidth gives it, and
// AddIdealNetworkRuntime completes the two; without it they stay unavailable.
//
// A hybrid program (a process with more than one thread) also gets POP's hybrid model, in which
// MPI sees the OpenMP runtime as useful: with O_i = T - M_i the time of process i's master thread
// outside MPI (M_i its `mpi` time),
//   MPI load balance             avg_i O_i / max_i O_i
//   MPI communication efficiency max_i O_i / T
//   MPI parallel efficiency      their product = avg_i O_i / T
//   OpenMP parallel efficiency   PE / MPI parallel efficiency, split into OpenMP load balance
//                                (LB / MPI load balance) and OpenMP communication efficiency
//                                (CommE / MPI communication efficiency = max_p C_p / max_i O_i),
// so that PE = MPI parallel efficiency x OpenMP parallel efficiency.
//
//   PopEfficiency pop = ComputePopEfficiency(trace, waitstates);
//   double lb = pop.load_balance;
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "analysis/waitstates/waitstate_analysis.h"
#include "trace/trace.h"

namespace cw::analysis {

// POP's hybrid model (above), for programs with a process of more than one thread.
struct PopHybrid {
  std::vector<uint32_t> masters;       // each process's master thread, ascending
  std::vector<double> outside_mpi;     // O_i per master above, ticks
  double average_outside_mpi = 0;      // ticks
  double max_outside_mpi = 0;          // ticks
  uint32_t max_master = trace::kNone;  // where the maximum is (lowest on ties)
  double mpi_load_balance = 0;
  double mpi_communication_efficiency = 0;
  double mpi_parallel_efficiency = 0;
  double omp_load_balance = 0;
  double omp_communication_efficiency = 0;
  double omp_parallel_efficiency = 0;
};

struct PopEfficiency {
  std::vector<uint32_t> locations;       // the CPU locations considered, ascending
  std::vector<double> computation;       // useful computation per location above, ticks
  double runtime = 0;                    // ticks
  double average_computation = 0;        // ticks
  double max_computation = 0;            // ticks
  uint32_t max_location = trace::kNone;  // where the maximum is (lowest on ties)
  double load_balance = 0;
  double communication_efficiency = 0;
  double parallel_efficiency = 0;
  // Need the runtime on an ideal network (AddIdealNetworkRuntime).
  std::optional<double> ideal_runtime;  // ticks
  std::optional<double> serialisation_efficiency;
  std::optional<double> transfer_efficiency;

  std::optional<PopHybrid> hybrid;  // programs with a process of more than one thread
};

PopEfficiency ComputePopEfficiency(const trace::Trace& trace, const WaitStateResult& waitstates);
// The same from each location's first and last event (`spans`, indexed like defs.locations), for
// a process that does not hold every location's events (the first rank of an MPI analysis job).
PopEfficiency ComputePopEfficiency(const trace::Definitions& defs,
                                   std::span<const trace::LocationSpan> spans,
                                   const WaitStateResult& waitstates);

// Completes `pop` with the runtime of its locations (first to last event) on an ideal network.
void AddIdealNetworkRuntime(PopEfficiency& pop, double ideal_runtime);

}  // namespace cw::analysis
