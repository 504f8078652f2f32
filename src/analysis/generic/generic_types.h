// The generic operation types of Su 2010 (PPW, Table 4-1): what a construct does, whatever its
// programming model. The automatic analyses are written against these, not against MPI or
// OpenSHMEM names; construct_map.h says which construct is which.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace cw::analysis {

enum class GenericType : uint8_t {
  kLocal,               // computation and everything no other type names
  kInitialization,      // MPI_Init, shmem_init
  kTermination,         // MPI_Finalize, shmem_finalize
  kEnvironmentInquiry,  // MPI_Comm_rank, shmem_my_pe
  kGroupSync,           // barriers
  kGroupComm,           // collectives that move data
  kMemoryManagement,    // window creation, symmetric allocation
  kPut,                 // one-sided put
  kGet,                 // one-sided get
  kSend,                // two-sided send
  kReceive,             // two-sided receive (and probes)
  kCommSync,            // explicit communication synchronisation: MPI_Wait, fences, quiet
  kLockAcquire,
  kLockRelease,
  kAtomic,       // one-sided atomic operations
  kWorkSharing,  // OpenMP loops, sections, single
  kWaitOnValue,  // shmem_wait_until
  kMeasurement,  // the measurement system's own work (trace buffer flushes): never the program's
};
inline constexpr int kGenericTypeCount = static_cast<int>(GenericType::kMeasurement) + 1;

// The type's name in the construct map and in reports: "group_sync", "wait_on_value", ...
std::string_view GenericTypeName(GenericType type);
std::optional<GenericType> ParseGenericType(std::string_view name);

}  // namespace cw::analysis
