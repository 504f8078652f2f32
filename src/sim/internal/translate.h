// Turns one stored event into the SimEvent the replay reads (private to sim/): resolves partner
// ranks to locations and picks the attributes the timing rules use. Shared by the sources over
// an in-memory trace and over an OTF2 stream, which differ only in how they name call paths.
#pragma once

#include <cstdint>

#include "sim/sim_event.h"
#include "trace/definitions.h"
#include "trace/location_events.h"

namespace cw::sim::internal {

// Event `i` of `events`, which belong to `location`. For Enter/Leave `callpath` is left as the
// stored ref and `region` unset: the caller resolves both in its call tree.
SimEvent TranslateEvent(const trace::Definitions& defs, const trace::LocationEvents& events,
                        uint32_t i, uint32_t location);

}  // namespace cw::sim::internal
