// Reads the events of the locations selected on one OTF2 reader into LocationBuilders.
//
// One EventReadJob reads a set of locations through its own OTF2_Reader, so that jobs run on
// separate threads without sharing library state. Every OTF2 3.0 event record is stored; records
// the library does not know are counted. Events that refer to undefined regions are kept as
// visits of a placeholder region and counted.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "base/status.h"
#include "trace/call_tree.h"
#include "trace/definitions.h"
#include "trace/location_events.h"

namespace cw::otf2 {

inline constexpr DiagnosticKind kUnknownEvent{
    "otf2.unknown_event", Severity::kInfo,
    "the archive holds event records this OTF2 library does not know; they were skipped"};
inline constexpr DiagnosticKind kUndefinedRegion{
    "otf2.undefined_region", Severity::kError,
    "an Enter or Leave refers to a region that is not defined; it was kept as <undefined region>"};
inline constexpr DiagnosticKind kImplausibleByteCount{
    "otf2.implausible_byte_count", Severity::kError,
    "a message, collective or one-sided record declares 2^48 bytes or more (a damaged record); "
    "it was counted as 0 bytes"};
inline constexpr DiagnosticKind kTruncatedLocation{
    "otf2.truncated_location", Severity::kDataLoss,
    "a location's event file ended early; the events up to the break were analysed"};

// What reading one location produced.
struct LocationReadResult {
  trace::LocationEvents events;
  trace::CallTree local_tree;
  Diagnostics diagnostics;
  uint64_t recorded = 0;                 // records read from the file
  uint32_t program_name = trace::kNone;  // string id of the ProgramBegin name, if any
  std::optional<Error> error;            // set when the event file could not be read completely
};

struct EventReadJob {
  std::string anchor;
  const trace::Definitions* defs = nullptr;
  std::vector<uint32_t> locations;            // dense indices to read
  uint32_t gap_region = trace::kNone;         // region standing for measurement-off gaps
  uint32_t undefined_region = trace::kNone;   // placeholder for undefined region refs
  uint32_t program_region = trace::kNone;     // placeholder for the program (ProgramBegin/End)
  std::atomic<uint64_t>* progress = nullptr;  // events read so far (for a progress bar)
};

// Reads the job's locations; results[i] belongs to job.locations[i]. A failure to open the
// archive is returned as an error; per-location read failures are reported in the results.
Result<std::vector<LocationReadResult>> RunEventReadJob(const EventReadJob& job);

}  // namespace cw::otf2
