// Whether an MPI launcher (mpirun, mpiexec, srun) started this process, read from the
// environment the launchers set, without initialising MPI.
//
//   if (comm::LaunchedJobSize() > 1) ...   // one of several ranks of a job
#pragma once

#include <cstdint>

namespace cw::comm {

// The number of ranks of the job this process belongs to, as the launcher says (Open MPI's
// mpirun, MPICH's Hydra and srun with PMI-2 say it; srun with PMIx only says the rank: then 1);
// 0 when no launcher started the process.
uint32_t LaunchedJobSize();

// How many ranks of the job run on this node, as the launcher says (Open MPI, MPICH's Hydra);
// 1 when it does not say.
uint32_t LaunchedRanksOnNode();

}  // namespace cw::comm
