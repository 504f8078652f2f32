// Writes one stored event as its OTF2 record at a new time (private to sim/): the simulated
// trace is the traced records with the replay's times. Region, communicator, group and window
// ids are written unchanged (the simulated archive defines them under the same ids); strings
// are re-interned through the archive writer.
#pragma once

#include <cstdint>

#include "otf2_writer/archive_writer.h"
#include "trace/definitions.h"
#include "trace/location_events.h"

namespace cw::sim::internal {

// Writes event `i` of `events` at `time`; `region` is the region of an Enter or Leave. Returns
// false for records the simulated trace leaves out: metrics, I/O, parameters and calling
// contexts (their definitions are not copied) and the deprecated Omp* records.
bool WriteRecord(const trace::Definitions& defs, const trace::LocationEvents& events, uint32_t i,
                 uint64_t time, uint32_t region, otf2_writer::ArchiveWriter& archive,
                 otf2_writer::EventWriter& out);

// Defines in `archive` everything of `defs` the records refer to, under the same ids (undefined
// ids get placeholders so that the ids after them stay aligned). Locations are defined in dense
// order, so location i of `defs` is OTF2 location i of the archive.
void CopyDefinitions(const trace::Definitions& defs, otf2_writer::ArchiveWriter& archive);

}  // namespace cw::sim::internal
