#include "cli/job_guard.h"

#include <string>

#include "comm/launch.h"

namespace cw::cli {

Status RefuseMultiRankJob(const char* subcommand) {
  const uint32_t ranks = comm::LaunchedJobSize();
  if (ranks <= 1) return OkStatus();
  const std::string n = std::to_string(ranks);
  return MakeError(ErrorCode::kInvalidArgument,
                   "started as one of " + n + " ranks of an MPI job: `causeway " + subcommand +
                       "` does not divide its work between MPI ranks yet, and " + n +
                       " copies would each do all of it and write the same files; start one "
                       "process (without mpirun, or with -np 1) and set its parallelism with "
                       "--threads");
}

}  // namespace cw::cli
