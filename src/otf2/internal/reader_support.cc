#include "otf2/internal/reader_support.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "otf2/library_errors.h"

namespace cw::otf2::internal {
namespace {

inline constexpr DiagnosticKind kLocalDefinitionsUnreadable{
    "otf2.local_definitions_unreadable", Severity::kWarning,
    "a location's local definitions (its id mapping tables) could not be read"};

}  // namespace

void ReadLocalDefinitions(OTF2_Reader* reader, uint64_t id, Diagnostics& diagnostics) {
  OTF2_DefReader* def_reader = OTF2_Reader_GetDefReader(reader, id);
  if (def_reader == nullptr) {
    TakeLastLibraryMessage();
    return;  // no local definitions: the events use global ids already
  }
  uint64_t read = 0;
  if (OTF2_Reader_ReadAllLocalDefinitions(reader, def_reader, &read) != OTF2_SUCCESS) {
    diagnostics.Report(kLocalDefinitionsUnreadable, TakeLastLibraryMessage());
  }
  OTF2_Reader_CloseDefReader(reader, def_reader);
}

std::string LocationLabel(const trace::Definitions& defs, uint32_t location) {
  const trace::Location& def = defs.locations[location];
  std::string label = "location " + std::to_string(def.otf2_id) + " (";
  // Threads of every rank share their names ("Master thread", "Thread 1"): the rank tells them
  // apart.
  if (def.group < defs.location_groups.size() &&
      defs.location_groups[def.group].rank != trace::kNone) {
    label += "rank " + std::to_string(defs.location_groups[def.group].rank) + ", ";
  }
  return label + std::string(defs.str(def.name)) + ")";
}

std::optional<Error> ShortFileError(const trace::Definitions& defs, uint32_t location,
                                    uint64_t recorded) {
  const uint64_t declared = defs.locations[location].event_count;
  if (declared == 0 || recorded >= declared) return std::nullopt;
  return Error(ErrorCode::kCorrupt, LocationLabel(defs, location) + ": its event file holds " +
                                        std::to_string(recorded) + " of the " +
                                        std::to_string(declared) +
                                        " events the definitions declare (truncated?)");
}

std::string ArchiveDirectory(const std::string& anchor) {
  return std::filesystem::path(anchor).replace_extension().string();
}

RecordBound EventRecordBound(const std::string& anchor, const trace::Definitions& defs,
                             uint32_t location) {
  const trace::Location& def = defs.locations[location];
  RecordBound bound;
  std::error_code ec;
  const std::string file = ArchiveDirectory(anchor) + "/" + std::to_string(def.otf2_id) + ".evt";
  const uintmax_t bytes = std::filesystem::file_size(file, ec);
  if (!ec) bound.file_bytes = bytes;
  const uint64_t by_size = ec ? UINT64_MAX : static_cast<uint64_t>(bytes);
  const uint64_t declared = def.event_count == 0 ? UINT64_MAX : def.event_count;
  bound.by_file_size = by_size < declared;
  bound.records = std::min(by_size, declared);
  return bound;
}

bool HasRecordBeyondBound(OTF2_Reader* reader, OTF2_EvtReader* events) {
  CallbacksPtr none(OTF2_EvtReaderCallbacks_New());
  OTF2_Reader_RegisterEvtCallbacks(reader, events, none.get(), nullptr);
  uint64_t read = 0;
  OTF2_Reader_ReadLocalEvents(reader, events, 1, &read);
  TakeLastLibraryMessage();
  return read > 0;
}

Error RecordsBeyondBoundError(const trace::Definitions& defs, uint32_t location,
                              const RecordBound& bound) {
  const std::string where = LocationLabel(defs, location);
  if (bound.by_file_size) {
    return Error(ErrorCode::kCorrupt,
                 where + ": its event file of " + std::to_string(bound.file_bytes) +
                     " bytes yields more records than it can hold; the file is damaged (the "
                     "OTF2 library repeats earlier records), reading stopped after " +
                     std::to_string(bound.records));
  }
  return Error(ErrorCode::kCorrupt,
               where + ": its event file holds more records than the " +
                   std::to_string(bound.records) +
                   " the definitions declare (damaged file, or definitions of another trace); "
                   "reading stopped there");
}

bool ArchiveHasLocalDefinitions(const std::string& anchor, const trace::Definitions& defs) {
  const std::string directory = ArchiveDirectory(anchor);
  std::error_code ec;
  for (const trace::Location& loc : defs.locations) {
    if (std::filesystem::exists(directory + "/" + std::to_string(loc.otf2_id) + ".def", ec)) {
      return true;
    }
  }
  return false;
}

TimeRange ValidTimeRange(const trace::ClockProperties& clock) {
  TimeRange range;
  const uint64_t slack = std::max(clock.trace_length, clock.resolution);
  range.earliest = clock.global_offset > slack ? clock.global_offset - slack : 0;
  uint64_t end = 0;
  if (__builtin_add_overflow(clock.global_offset, clock.trace_length, &end) ||
      __builtin_add_overflow(end, slack, &range.latest)) {
    range.latest = UINT64_MAX;
  }
  // The analyses take differences of timestamps as signed 64-bit numbers. They are exact as long
  // as no two times of a trace lie on either side of 2^63 and none are 2^62 or more apart: the
  // range keeps to the half the global offset is in, and to 2^62 ticks (146 years at 1 GHz).
  constexpr uint64_t kHalf = uint64_t{1} << 63;
  constexpr uint64_t kMostSpan = uint64_t{1} << 62;
  if (clock.global_offset >= kHalf) {
    range.earliest = std::max(range.earliest, kHalf);
  } else {
    range.latest = std::min(range.latest, kHalf - 1);
  }
  if (range.latest - range.earliest > kMostSpan) {
    range.earliest =
        std::max(range.earliest,
                 clock.global_offset > kMostSpan / 2 ? clock.global_offset - kMostSpan / 2 : 0);
    range.latest = std::min(range.latest, range.earliest + kMostSpan);
  }
  return range;
}

Error OutOfRangeError(const trace::Definitions& defs, uint32_t location, uint64_t recorded,
                      uint64_t time) {
  const trace::ClockProperties& clock = defs.clock;
  return Error(ErrorCode::kCorrupt,
               LocationLabel(defs, location) + ": event " + std::to_string(recorded) +
                   " has the timestamp " + std::to_string(time) +
                   ", outside the trace's time range (" + std::to_string(clock.global_offset) +
                   " + " + std::to_string(clock.trace_length) +
                   " ticks from its clock properties, widened by that length, within 2^62 ticks "
                   "and on one side of 2^63): a damaged record, or clock offsets that moved it "
                   "out of range; reading stopped there");
}

void CheckLocalDefinitionFile(const std::string& anchor, const trace::Definitions& defs,
                              uint32_t location, bool expected, Diagnostics& diagnostics) {
  if (!expected) return;
  std::error_code ec;
  const std::string file =
      ArchiveDirectory(anchor) + "/" + std::to_string(defs.locations[location].otf2_id) + ".def";
  if (!std::filesystem::exists(file, ec)) {
    diagnostics.Report(kLocalDefinitionsMissing, LocationLabel(defs, location));
  }
}

std::vector<uint8_t> DefinedRegionMask(const trace::Definitions& defs) {
  std::vector<uint8_t> defined(defs.regions.size());
  for (size_t r = 0; r < defined.size(); ++r) defined[r] = defs.regions[r].defined ? 1 : 0;
  return defined;
}

}  // namespace cw::otf2::internal
