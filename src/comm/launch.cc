#include "comm/launch.h"

#include <cstdlib>
#include <string>

namespace cw::comm {
namespace {

uint32_t SizeFrom(const char* name) {
  const char* value = std::getenv(name);
  if (value == nullptr) return 0;
  char* end = nullptr;
  unsigned long size = std::strtoul(value, &end, 10);
  return end != value && size > 0 && size < 0xFFFFFFFFul ? static_cast<uint32_t>(size) : 1;
}

}  // namespace

uint32_t LaunchedJobSize() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_STEP_NUM_TASKS"}) {
    if (uint32_t size = SizeFrom(name); size > 0) {
      // srun sets SLURM_STEP_NUM_TASKS for every job step, MPI or not: it counts only with a
      // rank beside it.
      if (std::string(name) == "SLURM_STEP_NUM_TASKS" && std::getenv("SLURM_PROCID") == nullptr) {
        continue;
      }
      return size;
    }
  }
  return std::getenv("PMIX_RANK") != nullptr || std::getenv("PMI_RANK") != nullptr ? 1 : 0;
}

uint32_t LaunchedRanksOnNode() {
  for (const char* name : {"OMPI_COMM_WORLD_LOCAL_SIZE", "MPI_LOCALNRANKS"}) {
    if (uint32_t size = SizeFrom(name); size > 0) return size;
  }
  return 1;
}

}  // namespace cw::comm
