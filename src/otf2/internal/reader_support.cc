#include "otf2/internal/reader_support.h"

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
  return "location " + std::to_string(def.otf2_id) + " (" + std::string(defs.str(def.name)) + ")";
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

std::vector<uint8_t> DefinedRegionMask(const trace::Definitions& defs) {
  std::vector<uint8_t> defined(defs.regions.size());
  for (size_t r = 0; r < defined.size(); ++r) defined[r] = defs.regions[r].defined ? 1 : 0;
  return defined;
}

}  // namespace cw::otf2::internal
