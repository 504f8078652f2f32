// Enumerations of the trace model. Their numeric values equal OTF2's (OTF2 3.0), so that the
// reader converts by value; the model itself never includes <otf2/otf2.h>.
#pragma once

#include <cstdint>

namespace cw::trace {

// Marks an absent reference (an undefined string, parent, root, ...).
inline constexpr uint32_t kNone = UINT32_MAX;

enum class RegionRole : uint8_t {
  kUnknown = 0,
  kFunction = 1,
  kWrapper = 2,
  kLoop = 3,
  kCode = 4,
  kParallel = 5,
  kSections = 6,
  kSection = 7,
  kWorkshare = 8,
  kSingle = 9,
  kSingleSblock = 10,
  kMaster = 11,
  kCritical = 12,
  kCriticalSblock = 13,
  kAtomic = 14,
  kBarrier = 15,
  kImplicitBarrier = 16,
  kFlush = 17,
  kOrdered = 18,
  kOrderedSblock = 19,
  kTask = 20,
  kTaskCreate = 21,
  kTaskWait = 22,
  kCollOne2All = 23,
  kCollAll2One = 24,
  kCollAll2All = 25,
  kCollOther = 26,
  kFileIo = 27,
  kPoint2Point = 28,
  kRma = 29,
  kDataTransfer = 30,
  kArtificial = 31,
  kThreadCreate = 32,
  kThreadWait = 33,
  kTaskUntied = 34,
  kAllocate = 35,
  kDeallocate = 36,
  kReallocate = 37,
  kFileIoMetadata = 38,
};

enum class Paradigm : uint8_t {
  kUnknown = 0,
  kUser = 1,
  kCompiler = 2,
  kOpenMp = 3,
  kMpi = 4,
  kCuda = 5,
  kMeasurementSystem = 6,
  kPthread = 7,
  kHmpp = 8,
  kOmpss = 9,
  kHardware = 10,
  kGaspi = 11,
  kUpc = 12,
  kShmem = 13,
  kWinthread = 14,
  kQtthread = 15,
  kAceThread = 16,
  kTbbThread = 17,
  kOpenAcc = 18,
  kOpenCl = 19,
  kMtapi = 20,
  kSampling = 21,
  kNoParadigm = 22,
  kHip = 23,
  kKokkos = 24,
};

enum class LocationType : uint8_t {
  kUnknown = 0,
  kCpuThread = 1,
  kAcceleratorStream = 2,
  kMetric = 3
};

enum class LocationGroupType : uint8_t { kUnknown = 0, kProcess = 1, kAccelerator = 2 };

enum class GroupType : uint8_t {
  kUnknown = 0,
  kLocations = 1,
  kRegions = 2,
  kMetric = 3,
  kCommLocations = 4,
  kCommGroup = 5,
  kCommSelf = 6,
};

enum class CollectiveOp : uint8_t {
  kBarrier = 0,
  kBcast = 1,
  kGather = 2,
  kGatherv = 3,
  kScatter = 4,
  kScatterv = 5,
  kAllgather = 6,
  kAllgatherv = 7,
  kAlltoall = 8,
  kAlltoallv = 9,
  kAlltoallw = 10,
  kAllreduce = 11,
  kReduce = 12,
  kReduceScatter = 13,
  kScan = 14,
  kExscan = 15,
  kReduceScatterBlock = 16,
  kCreateHandle = 17,
  kDestroyHandle = 18,
  kAllocate = 19,
  kDeallocate = 20,
  kCreateHandleAndAllocate = 21,
  kDestroyHandleAndDeallocate = 22,
};

const char* RegionRoleName(RegionRole role);
const char* ParadigmName(Paradigm paradigm);
const char* LocationTypeName(LocationType type);
const char* CollectiveOpName(CollectiveOp op);

}  // namespace cw::trace
