#include "measure/export/internal/shmem_regions.h"

#include <cstdio>

#include "base/parallel.h"
#include "measure/export/internal/archive_definitions.h"
#include "measure/raw/raw_format.h"

namespace cw::measure::internal {
namespace {

// Marks in `entered` the routines whose regions the raw event file `path` enters or leaves
// (a missing file enters none).
void ScanFile(const std::string& path, std::vector<char>& entered) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) return;
  std::vector<RawEvent> chunk(1 << 14);
  while (true) {
    const size_t n = std::fread(chunk.data(), sizeof(RawEvent), chunk.size(), file);
    for (size_t i = 0; i < n; ++i) {
      const RawEvent& e = chunk[i];
      if ((e.kind == RawKind::kEnter || e.kind == RawKind::kLeave) && e.a >= kShmemFirstRegion &&
          e.a < kShmemFirstRegion + kShmemFunctionCount) {
        entered[e.a - kShmemFirstRegion] = 1;
      }
    }
    if (n < chunk.size()) break;
  }
  std::fclose(file);
}

}  // namespace

ShmemRegions::ShmemRegions(otf2_writer::ArchiveWriter& archive, std::mutex& definitions)
    : archive_(archive),
      definitions_(definitions),
      ids_(new std::atomic<uint32_t>[kShmemFunctionCount]) {
  for (uint32_t i = 0; i < kShmemFunctionCount; ++i) ids_[i].store(kNoDefinition);
}

void ShmemRegions::DefineEntered(const std::vector<std::string>& paths, unsigned threads) {
  std::vector<std::vector<char>> entered(paths.size());
  ParallelFor(paths.size(), threads, [&](size_t i) {
    entered[i].assign(kShmemFunctionCount, 0);
    ScanFile(paths[i], entered[i]);
  });
  for (uint32_t routine = 0; routine < kShmemFunctionCount; ++routine) {
    for (const std::vector<char>& file : entered) {
      if (file[routine] == 0) continue;
      DefineLocked(routine);
      break;
    }
  }
}

uint32_t ShmemRegions::Get(uint32_t routine) {
  const uint32_t id = ids_[routine].load(std::memory_order_acquire);
  return id != kNoDefinition ? id : DefineLocked(routine);
}

uint32_t ShmemRegions::DefineLocked(uint32_t routine) {
  std::lock_guard<std::mutex> lock(definitions_);
  uint32_t id = ids_[routine].load(std::memory_order_relaxed);
  if (id == kNoDefinition) {
    const ShmemFunctionInfo& f = kShmemFunctions[routine];
    id = archive_.DefineRegion(f.name, f.role, OTF2_PARADIGM_SHMEM, "SHMEM");
    ids_[routine].store(id, std::memory_order_release);
  }
  return id;
}

}  // namespace cw::measure::internal
