// Which generic operation type (generic_types.h) each construct is: the text table causeway
// ships (construct_map.txt, built into the binary), which a user extends or overrides with a
// file of the same format (`causeway analyze --construct-map FILE`: its lines come first).
//
//   CW_ASSIGN_OR_RETURN(ConstructMap map, ConstructMap::WithUserFile("my.map"));
//   GenericType t = map.Classify("shmem_int_wait_until");   // kWaitOnValue
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/generic/generic_types.h"
#include "base/status.h"
#include "trace/definitions.h"
#include "trace/trace.h"

namespace cw::analysis {

class ConstructMap {
 public:
  // causeway's own table.
  static const ConstructMap& Builtin();
  // The lines of the file at `path` before causeway's table. A line that names no known type
  // or has no pattern is an error naming the file and line.
  static Result<ConstructMap> WithUserFile(const std::string& path);
  // The lines of `text` (from `origin`, for messages) before causeway's table.
  static Result<ConstructMap> WithUserText(std::string_view text, std::string_view origin);

  // The type of the construct named `name`: the first line whose pattern matches decides;
  // kLocal if none does.
  GenericType Classify(std::string_view name) const;
  // Classify() of every region of `defs`, by region id.
  std::vector<GenericType> ClassifyRegions(const trace::Definitions& defs) const;

  // The lines in effect, in order, as "PATTERN TYPE" (user lines first).
  std::vector<std::string> Lines() const;

 private:
  struct Rule {
    std::string pattern;
    GenericType type = GenericType::kLocal;
    bool wildcard = false;  // the pattern has *, ? or [
  };
  std::vector<Rule> rules_;
};

// The type of call path `callpath`'s region, from `region_types` (ClassifyRegions); kLocal for a
// region it does not list.
inline GenericType CallpathType(const trace::Trace& trace,
                                std::span<const GenericType> region_types, uint32_t callpath) {
  const uint32_t region = trace.CallpathRegion(callpath);
  return region < region_types.size() ? region_types[region] : GenericType::kLocal;
}

// CallpathType of every call path of `trace`, by call path: for passes that ask per event.
std::vector<GenericType> ClassifyCallpaths(const trace::Trace& trace,
                                           std::span<const GenericType> region_types);

}  // namespace cw::analysis
