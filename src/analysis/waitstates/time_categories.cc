#include "analysis/waitstates/time_categories.h"

#include <string>
#include <string_view>

namespace cw::analysis {
namespace {

using trace::MpiCategory;
using trace::Paradigm;
using trace::RegionRole;

bool StartsWith(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

MetricId MpiTimeCategory(const trace::MpiFunction& mpi) {
  switch (mpi.category) {
    case MpiCategory::kInitFinalize:
      return MetricId::kMpiInitExit;
    case MpiCategory::kCommMgmt:
      return MetricId::kMpiMgmtComm;
    case MpiCategory::kFileMgmt:
      return MetricId::kMpiMgmtFile;
    case MpiCategory::kWinMgmt:
      return MetricId::kMpiMgmtWin;
    case MpiCategory::kPointToPoint:
      return MetricId::kMpiPoint2Point;
    case MpiCategory::kCollective:
      return mpi.collective == trace::MpiCollective::kBarrier ? MetricId::kMpiSyncCollective
                                                              : MetricId::kMpiCollective;
    case MpiCategory::kRmaSyncActive:
      return MetricId::kMpiRmaSyncActive;
    case MpiCategory::kRmaSyncPassive:
      return MetricId::kMpiRmaSyncPassive;
    case MpiCategory::kRmaComm:
      return MetricId::kMpiRmaCommunication;
    case MpiCategory::kIoIndividual:
      return MetricId::kMpiIoIndividual;
    case MpiCategory::kIoCollective:
      return MetricId::kMpiIoCollective;
    case MpiCategory::kOther:
    case MpiCategory::kNotMpi:
      return MetricId::kMpi;
  }
  return MetricId::kMpi;
}

// OpenMP regions by role, as Scalasca 2.6's remapping names them: barriers explicit and implicit,
// critical and atomic (not their bodies, the "sblock" regions), the lock routines
// omp_(init|destroy|set|unset|test)(_nest)?_lock, ordered (not its body), taskwait and flush.
// Parallel regions, worksharing constructs, single, master and tasks are computation.
MetricId OmpTimeCategory(const trace::Region& region, std::string_view name) {
  switch (region.role) {
    case RegionRole::kBarrier:
      return MetricId::kOmpEbarrier;
    case RegionRole::kImplicitBarrier:
      return MetricId::kOmpIbarrier;
    case RegionRole::kCritical:
    case RegionRole::kAtomic:
      return MetricId::kOmpCritical;
    case RegionRole::kOrdered:
      return MetricId::kOmpOrdered;
    case RegionRole::kTaskWait:
      return MetricId::kOmpTaskwait;
    case RegionRole::kFlush:
      return MetricId::kOmpFlush;
    default:
      break;
  }
  for (std::string_view verb : {"destroy", "init", "set", "test", "unset"}) {
    for (std::string_view nest : {"", "_nest"}) {
      if (name == std::string("omp_").append(verb).append(nest).append("_lock")) {
        return MetricId::kOmpLockApi;
      }
    }
  }
  return MetricId::kComp;
}

bool Contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

// OpenSHMEM routines by what they do. Region roles tell transfers, atomics, barriers,
// collectives and allocation apart (causeway and Score-P give them); the names tell the rest:
// waits for a value, tests, locks, quiet and fence synchronise; everything else (init,
// finalize, queries, contexts, cache control) manages.
MetricId ShmemTimeCategory(const trace::Region& region, std::string_view name) {
  switch (region.role) {
    case RegionRole::kRma:
    case RegionRole::kAtomic:
      return MetricId::kShmemRma;
    case RegionRole::kBarrier:
      return MetricId::kShmemSync;
    case RegionRole::kCollOne2All:
    case RegionRole::kCollAll2One:
    case RegionRole::kCollAll2All:
    case RegionRole::kCollOther:
      return MetricId::kShmemCollective;
    case RegionRole::kAllocate:
    case RegionRole::kDeallocate:
    case RegionRole::kReallocate:
      return MetricId::kShmemManagement;
    default:
      break;
  }
  for (std::string_view sync : {"barrier", "sync", "wait", "_test", "lock", "quiet", "fence"}) {
    if (Contains(name, sync)) return MetricId::kShmemSync;
  }
  for (std::string_view collective : {"broadcast", "collect", "_to_all", "alltoall"}) {
    if (Contains(name, collective)) return MetricId::kShmemCollective;
  }
  return MetricId::kShmemManagement;
}

bool IsPthreadSynchronisation(std::string_view name) {
  for (std::string_view call :
       {"pthread_cancel", "pthread_create", "pthread_detach", "pthread_exit", "pthread_join"}) {
    if (name == call) return true;
  }
  return StartsWith(name, "pthread_mutex_") || StartsWith(name, "pthread_cond_");
}

}  // namespace

MetricId TimeCategoryOf(const trace::Definitions& defs, uint32_t region_id) {
  if (region_id >= defs.regions.size()) return MetricId::kComp;
  const trace::Region& region = defs.regions[region_id];
  std::string_view name = defs.str(region.name);
  switch (region.paradigm) {
    case Paradigm::kMeasurementSystem:
      if (name == "TRACE BUFFER FLUSH" || name == "TRACING") return MetricId::kOverhead;
      break;
    case Paradigm::kCuda:
      return name == "BUFFER FLUSH" ? MetricId::kOverhead : MetricId::kCudaTime;
    case Paradigm::kOpenCl:
      return name == "BUFFER FLUSH" ? MetricId::kOverhead : MetricId::kOpenClTime;
    case Paradigm::kOpenAcc:
      return MetricId::kOpenAccTime;
    case Paradigm::kOpenMp:
      return OmpTimeCategory(region, name);
    case Paradigm::kPthread:
      return IsPthreadSynchronisation(name) ? MetricId::kPthreadTime : MetricId::kComp;
    case Paradigm::kShmem:
      return ShmemTimeCategory(region, name);
    default:
      break;
  }
  if (region.mpi.is_mpi()) return MpiTimeCategory(region.mpi);
  return MetricId::kComp;
}

std::vector<MetricId> TimeCategories(const trace::Definitions& defs) {
  std::vector<MetricId> categories(defs.regions.size());
  for (uint32_t r = 0; r < defs.regions.size(); ++r) categories[r] = TimeCategoryOf(defs, r);
  return categories;
}

}  // namespace cw::analysis
