#include "trace/enums.h"

#include <array>
#include <cstddef>

namespace cw::trace {
namespace {

template <size_t N>
const char* Lookup(const std::array<const char*, N>& names, unsigned value) {
  return value < N ? names[value] : "UNKNOWN";
}

constexpr std::array<const char*, 39> kRoleNames = {"UNKNOWN",
                                                    "FUNCTION",
                                                    "WRAPPER",
                                                    "LOOP",
                                                    "CODE",
                                                    "PARALLEL",
                                                    "SECTIONS",
                                                    "SECTION",
                                                    "WORKSHARE",
                                                    "SINGLE",
                                                    "SINGLE_SBLOCK",
                                                    "MASTER",
                                                    "CRITICAL",
                                                    "CRITICAL_SBLOCK",
                                                    "ATOMIC",
                                                    "BARRIER",
                                                    "IMPLICIT_BARRIER",
                                                    "FLUSH",
                                                    "ORDERED",
                                                    "ORDERED_SBLOCK",
                                                    "TASK",
                                                    "TASK_CREATE",
                                                    "TASK_WAIT",
                                                    "COLL_ONE2ALL",
                                                    "COLL_ALL2ONE",
                                                    "COLL_ALL2ALL",
                                                    "COLL_OTHER",
                                                    "FILE_IO",
                                                    "POINT2POINT",
                                                    "RMA",
                                                    "DATA_TRANSFER",
                                                    "ARTIFICIAL",
                                                    "THREAD_CREATE",
                                                    "THREAD_WAIT",
                                                    "TASK_UNTIED",
                                                    "ALLOCATE",
                                                    "DEALLOCATE",
                                                    "REALLOCATE",
                                                    "FILE_IO_METADATA"};

constexpr std::array<const char*, 25> kParadigmNames = {
    "UNKNOWN",   "USER",     "COMPILER",  "OPENMP",    "MPI",     "CUDA",   "MEASUREMENT_SYSTEM",
    "PTHREAD",   "HMPP",     "OMPSS",     "HARDWARE",  "GASPI",   "UPC",    "SHMEM",
    "WINTHREAD", "QTTHREAD", "ACETHREAD", "TBBTHREAD", "OPENACC", "OPENCL", "MTAPI",
    "SAMPLING",  "NONE",     "HIP",       "KOKKOS"};

constexpr std::array<const char*, 4> kLocationTypeNames = {"UNKNOWN", "CPU_THREAD",
                                                           "ACCELERATOR_STREAM", "METRIC"};

constexpr std::array<const char*, 23> kCollectiveOpNames = {"BARRIER",
                                                            "BCAST",
                                                            "GATHER",
                                                            "GATHERV",
                                                            "SCATTER",
                                                            "SCATTERV",
                                                            "ALLGATHER",
                                                            "ALLGATHERV",
                                                            "ALLTOALL",
                                                            "ALLTOALLV",
                                                            "ALLTOALLW",
                                                            "ALLREDUCE",
                                                            "REDUCE",
                                                            "REDUCE_SCATTER",
                                                            "SCAN",
                                                            "EXSCAN",
                                                            "REDUCE_SCATTER_BLOCK",
                                                            "CREATE_HANDLE",
                                                            "DESTROY_HANDLE",
                                                            "ALLOCATE",
                                                            "DEALLOCATE",
                                                            "CREATE_HANDLE_AND_ALLOCATE",
                                                            "DESTROY_HANDLE_AND_DEALLOCATE"};

}  // namespace

const char* RegionRoleName(RegionRole role) {
  return Lookup(kRoleNames, static_cast<unsigned>(role));
}
const char* ParadigmName(Paradigm paradigm) {
  return Lookup(kParadigmNames, static_cast<unsigned>(paradigm));
}
const char* LocationTypeName(LocationType type) {
  return Lookup(kLocationTypeNames, static_cast<unsigned>(type));
}
const char* CollectiveOpName(CollectiveOp op) {
  return Lookup(kCollectiveOpNames, static_cast<unsigned>(op));
}

}  // namespace cw::trace
