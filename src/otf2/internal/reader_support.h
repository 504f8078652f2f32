// What the whole-location reader and the location stream share (private to otf2/): owning
// handles for the library's objects and the per-location set-up before its events are read.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <otf2/otf2.h>

#include "base/diagnostics.h"
#include "base/status.h"
#include "otf2/internal/record_bound.h"
#include "trace/definitions.h"

namespace cw::otf2::internal {

struct ReaderCloser {
  void operator()(OTF2_Reader* reader) const { OTF2_Reader_Close(reader); }
};
using ReaderPtr = std::unique_ptr<OTF2_Reader, ReaderCloser>;

struct CallbacksDeleter {
  void operator()(OTF2_EvtReaderCallbacks* cb) const { OTF2_EvtReaderCallbacks_Delete(cb); }
};
using CallbacksPtr = std::unique_ptr<OTF2_EvtReaderCallbacks, CallbacksDeleter>;

// Reads the id mapping tables of location `id` (OTF2 id), if it has any; the reader then applies
// them to the location's events.
void ReadLocalDefinitions(OTF2_Reader* reader, uint64_t id, Diagnostics& diagnostics);

// "location 4294967299 (rank 3, Thread 1)": how errors name a location (dense index
// `location`; the rank if its location group has one).
std::string LocationLabel(const trace::Definitions& defs, uint32_t location);

// The error for a location whose file held fewer records than its definition declares (none if
// it held them all, or the definitions did not say).
std::optional<Error> ShortFileError(const trace::Definitions& defs, uint32_t location,
                                    uint64_t recorded);

RecordBound EventRecordBound(const std::string& anchor, const trace::Definitions& defs,
                             uint32_t location);

// Reads one record past a location's bound with no callbacks registered: true if the file holds
// more records than it may. The reader's callbacks must be registered again before further use.
bool HasRecordBeyondBound(OTF2_Reader* reader, OTF2_EvtReader* events);

// The error for a location whose file held more records than its bound.
Error RecordsBeyondBoundError(const trace::Definitions& defs, uint32_t location,
                              const RecordBound& bound);

// The archive directory of an anchor ("run/traces.otf2" -> "run/traces"), where the per-location
// files ("<id>.evt", "<id>.def") are.
std::string ArchiveDirectory(const std::string& anchor);

// True if any location of the archive has a local definition file: then a location without one
// lost it (its events' ids would be read unmapped), which is worth a diagnostic.
bool ArchiveHasLocalDefinitions(const std::string& anchor, const trace::Definitions& defs);

// Reports kLocalDefinitionsMissing for `location` if the archive's other locations have local
// definition files (`expected`, from ArchiveHasLocalDefinitions) and it has none.
void CheckLocalDefinitionFile(const std::string& anchor, const trace::Definitions& defs,
                              uint32_t location, bool expected, Diagnostics& diagnostics);

inline constexpr DiagnosticKind kLocalDefinitionsMissing{
    "otf2.local_definitions_missing", Severity::kError,
    "a location's local definition file is missing while the others have theirs: its events' "
    "communicator and region ids are read unmapped, and its messages may not match"};

// The timestamps a trace's events may carry: its clock properties' range [global offset, global
// offset + length], widened by the length (or one second, if more) on either side, because
// writers round and clock offsets move events a little. Nothing damaged stays within it by chance
// of a wrapped subtraction; a small error stays a small error. It never spans 2^62 ticks nor
// crosses 2^63, so that every difference of two timestamps fits a signed 64-bit number.
struct TimeRange {
  uint64_t earliest = 0;
  uint64_t latest = UINT64_MAX;
};
TimeRange ValidTimeRange(const trace::ClockProperties& clock);

// The error for a location whose events left the valid range.
Error OutOfRangeError(const trace::Definitions& defs, uint32_t location, uint64_t recorded,
                      uint64_t time);

// 1 where a region id is defined (the callbacks check every Enter/Leave against it).
std::vector<uint8_t> DefinedRegionMask(const trace::Definitions& defs);

}  // namespace cw::otf2::internal
