#include "otf2/reader_regions.h"

namespace cw::otf2 {

ReaderRegions AddReaderRegions(trace::Definitions& defs) {
  ReaderRegions regions;
  regions.gap = defs.FindRegion("MEASUREMENT OFF");
  if (regions.gap == trace::kNone) {
    regions.gap =
        defs.AddRegion("MEASUREMENT OFF", trace::RegionRole::kArtificial, trace::Paradigm::kUser);
  }
  regions.undefined =
      defs.AddRegion("<undefined region>", trace::RegionRole::kUnknown, trace::Paradigm::kUnknown);
  regions.program =
      defs.AddRegion("<program>", trace::RegionRole::kArtificial, trace::Paradigm::kUser);
  return regions;
}

std::string ProgramDisplayName(std::string_view executable) {
  std::string name(executable);
  size_t slash = name.find_last_of('/');
  if (slash != std::string::npos && slash + 1 < name.size()) name = name.substr(slash + 1);
  if (name.empty()) name = "<program>";
  return name;
}

uint32_t ProgramRegion(trace::Definitions& defs, uint32_t name_string) {
  std::string name = ProgramDisplayName(defs.str(name_string));
  uint32_t existing = defs.FindRegion(name);
  if (existing != trace::kNone && defs.regions[existing].role == trace::RegionRole::kArtificial) {
    return existing;
  }
  return defs.AddRegion(name, trace::RegionRole::kArtificial, trace::Paradigm::kUser);
}

}  // namespace cw::otf2
