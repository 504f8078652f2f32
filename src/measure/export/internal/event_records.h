// One raw record as OTF2 events (private to measure/export): what a rank's records need to be
// written (its ids mapped to the archive's, its clocks, the causeway attributes), and the
// writing of each record kind but the walked call paths' and OpenMP threads' (raw_export.cc,
// openmp.h).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "measure/export/internal/archive_definitions.h"
#include "measure/export/internal/io_definitions.h"
#include "measure/export/internal/openmp.h"
#include "measure/export/internal/rank_clocks.h"
#include "measure/export/internal/shmem_regions.h"
#include "measure/export/internal/walked_paths.h"
#include "measure/raw/raw_format.h"
#include "otf2_writer/event_writer.h"

namespace cw::measure::internal {

// The archive's ids of the causeway attributes events carry: what a probe found (on its Leave
// and a matched receive), the calls a folded poll stands for, and call sites.
struct EventAttributes {
  uint32_t probe_comm = 0;
  uint32_t probe_source = 0;
  uint32_t probe_tag = 0;
  uint32_t message_handle = 0;
  uint32_t calls = 0;  // on a Leave that ends a run of folded polls (trace/polling.h)
  // On the MpiCollectiveEnd of a v-collective: who sends the rank data, a group of world
  // ranks (trace/collective_senders.h).
  uint32_t senders = 0;
  // On the Enter of a walked function or call: the source location of the call (the line in
  // the calling function), where the debug information has it (trace/call_sites.h).
  uint32_t call_site = internal::kNoSite;
};

// What turning one rank's records into OTF2 needs: its local definitions mapped to the
// archive's, and its clocks.
struct RankContext {
  int rank = 0;
  const std::vector<uint32_t>& regions;
  const std::vector<uint32_t>& comms;
  const std::vector<uint32_t>& windows;
  const std::vector<uint32_t>& groups;
  const std::vector<uint32_t>& files;  // I/O handles
  uint32_t world = 0;
  const TimerMap& timer;
  const ClockMap& clock;
  EventAttributes attributes;
  ShmemRegions& shmem_regions;
  WalkedPaths* walked;  // the rank's walked call paths, nullptr if it recorded none
  uint32_t team;        // its OpenMP threads' team (OTF2_UNDEFINED_COMM: none)
  const std::vector<OmpNesting>& omp_nesting;  // by raw region index
  const std::vector<uint32_t>& waiting;        // the archive's regions of kWaiting, ascending

  OmpNesting Nesting(uint32_t index) const {
    return index < omp_nesting.size() ? omp_nesting[index] : OmpNesting::kNone;
  }
  // Whether the innermost of the `open` regions is an OpenMP construct the thread waits in.
  bool WaitsIn(const std::vector<uint32_t>& open) const {
    return !open.empty() && std::binary_search(waiting.begin(), waiting.end(), open.back());
  }

  // The archive's region of a raw region index, kUndefinedRegion if nothing defines it.
  uint32_t Region(uint32_t index) const {
    if (index >= kShmemFirstRegion && index < kShmemFirstRegion + kShmemFunctionCount)
      return shmem_regions.Get(index - kShmemFirstRegion);
    return index < regions.size() ? regions[index] : kUndefinedRegion;
  }

  uint32_t Comm(uint32_t local) const { return local < comms.size() ? comms[local] : world; }
  uint32_t Window(uint32_t local) const {
    return local < windows.size() ? windows[local] : kNoDefinition;
  }
  uint32_t Group(uint32_t local) const {
    return local < groups.size() ? groups[local] : kNoDefinition;
  }
  uint32_t File(uint32_t local) const { return local < files.size() ? files[local] : kNoIoHandle; }
};

// What writing a raw record gave: an event, attributes of the next event, or nothing (a kind
// this exporter does not know: skipped, not guessed at).
enum class Written { kEvent, kAttributes, kUnknown };

// Regions, point-to-point, probe and collective records.
Written WriteMpiRecord(const RawEvent& e, uint64_t t, uint32_t region, const RankContext& rank,
                       otf2_writer::EventWriter& out, std::vector<uint32_t>& open);
// One-sided, MPI-IO and measurement records.
Written WriteOtherRecord(const RawEvent& e, uint64_t t, const RankContext& rank,
                         otf2_writer::EventWriter& out);
// Whether every definition the record names exists: a damaged file may name regions, windows,
// groups or files nobody defined.
bool NamesOnlyDefined(const RawEvent& e, uint32_t region, const RankContext& rank);

}  // namespace cw::measure::internal
