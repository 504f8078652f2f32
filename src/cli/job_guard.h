// Refuses to run a subcommand as one of several ranks of an MPI job (mpirun -np K, srun -n K):
// until the subcommand divides its work between ranks, K copies would each do all of it and
// write the same files.
#pragma once

#include "base/status.h"

namespace cw::cli {

Status RefuseMultiRankJob(const char* subcommand);

}  // namespace cw::cli
