// The OTF2 event callbacks that feed one LocationBuilder (private to otf2/).
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>

#include <otf2/otf2.h>

#include "base/diagnostics.h"
#include "base/status.h"
#include "trace/definitions.h"
#include "trace/location_builder.h"

namespace cw::otf2::internal {

class CallingContextFrames;

struct EventContext {
  EventContext(uint64_t expected_events, uint32_t gap_region, uint32_t program_region)
      : builder(expected_events, gap_region, program_region) {}

  trace::LocationBuilder builder;
  const trace::Definitions* defs = nullptr;
  const std::vector<uint8_t>* defined_regions = nullptr;  // 1 where a region id is defined
  uint32_t undefined_region = trace::kNone;
  Diagnostics diagnostics;
  std::atomic<uint64_t>* progress = nullptr;
  uint32_t unreported_progress = 0;
  // Timestamps outside [earliest, latest] (ValidTimeRange) stop the reading: they come from
  // damaged records or clock offsets that wrapped, and would turn into durations of centuries.
  uint64_t earliest = 0;
  uint64_t latest = UINT64_MAX;
  std::optional<uint64_t> out_of_range;  // the first such timestamp
  // BUFFER_FLUSH records read: libotf2 writes one whenever a writer's chunk memory fills, and
  // does not count it among the location's events (OTF2_EvtWriter_GetNumberOfEvents), so the
  // readers let each one extend the declared bound by one record.
  uint64_t buffer_flushes = 0;
  // The id of the attribute that gives a Leave the number of calls it ends (trace/polling.h),
  // kNone if the trace defines none.
  uint32_t calls_attribute = trace::kNone;
  // Score-P's calling-context records (calling_context_frames.h): the frames they keep open on
  // this location, owned by the reader because they outlive a segment of a streamed location,
  // and the attribute that gives each frame's Enter its call site (kNone: none).
  CallingContextFrames* frames = nullptr;
  uint32_t call_site_attribute = trace::kNone;
};

// `region` if the definitions define it, else the reader's stand-in for undefined regions
// (reported).
uint32_t CheckedRegion(EventContext& ctx, uint32_t region);

// The id of trace/polling.h's attribute in `defs`, or kNone.
uint32_t CallsAttribute(const trace::Definitions& defs);
// The id of trace/call_sites.h's attribute in `defs`, or kNone.
uint32_t CallSiteAttribute(const trace::Definitions& defs);

// A callback set covering every event record; the caller owns (and deletes) it.
OTF2_EvtReaderCallbacks* NewEventCallbacks();

}  // namespace cw::otf2::internal
