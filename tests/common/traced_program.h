// Runs a program of tests/programs under `causeway trace` with mpirun (tests of the mpi label).
#pragma once

#include <string>

namespace cw::test {

inline constexpr const char* kMpirun = "timeout 180 mpirun --allow-run-as-root --oversubscribe";
inline constexpr const char* kOshrun = "timeout 180 oshrun --allow-run-as-root --oversubscribe";
// Debian's Open MPI 4.1 crashes in shmem_finalize unless its memory patcher is off.
inline constexpr const char* kShmemEnvironment = "OMPI_MCA_memory=^patcher";

// Trace options for tests that count records exactly: stack walks at the calls, no samples. A
// sample lands wherever the program spent CPU time, the language runtime's start-up included
// (libgfortran's frames in shmem_fortran, now and then), and adds its walked frames. No write
// marks either: Open MPI's own eventfd writes inside some MPI calls mark a barrier in some
// runs and not in others (measure/runtime/write_calls.h).
inline constexpr const char* kExactCounts = "--callpaths calls --write-marks off";

// Open MPI's ranks poll while they wait; on an oversubscribed node they take the CPU from the
// ranks that compute. Tests that compare the measured times of two runs set this environment.
inline constexpr const char* kIdleRanksYield = "OMPI_MCA_mpi_yield_when_idle=1";

// kMpirun on `ranks` ranks: "timeout 180 mpirun ... -np 3".
std::string MpirunOn(int ranks);

// Runs `program args` on `ranks` ranks under causeway trace and returns the trace directory;
// fails the test if the run fails (the trace's exit status is its command's). `environment` is
// prefixed to the command (VAR=value ...).
std::string TraceProgram(const std::string& name, int ranks, const std::string& args = "",
                         const std::string& trace_options = "", std::string* output = nullptr,
                         const std::string& environment = "");

// The same for an OpenSHMEM program on `pes` PEs, run with oshrun (kShmemEnvironment and
// `environment`).
std::string TraceShmemProgram(const std::string& name, int pes, const std::string& args = "",
                              const std::string& trace_options = "", std::string* output = nullptr,
                              const std::string& environment = "");

}  // namespace cw::test
