#include "analysis/generic/construct_map.h"

#include <fnmatch.h>

#include "base/check.h"

#include <fstream>
#include <sstream>

namespace cw::analysis {

// The text of construct_map.txt (builtin_construct_map.cc, generated at configure time).
extern const char kBuiltinConstructMap[];

namespace {

// Appends the lines of a map to `out`: "PATTERN TYPE", the type the last word (a pattern may
// hold spaces: OpenMP regions are named "!$omp barrier @file:line"); '#' starts a comment.
Status ParseLines(std::string_view text, std::string_view origin,
                  std::vector<std::pair<std::string, GenericType>>& out) {
  std::istringstream in{std::string(text)};
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    std::string content = line.substr(0, line.find('#'));
    const size_t end = content.find_last_not_of(" \t\r");
    if (end == std::string::npos) continue;  // blank or a comment
    content.resize(end + 1);
    const size_t split = content.find_last_of(" \t");
    const size_t begin = content.find_first_not_of(" \t");
    const std::string where = std::string(origin) + ":" + std::to_string(number);
    if (split == std::string::npos || split < begin) {
      return MakeError(ErrorCode::kInvalidArgument,
                       where + ": expected a construct and a generic type, found \"" + line + "\"");
    }
    const std::string type = content.substr(split + 1);
    std::string pattern = content.substr(begin, split - begin);
    pattern.resize(pattern.find_last_not_of(" \t") + 1);
    std::optional<GenericType> parsed = ParseGenericType(type);
    if (!parsed) {
      return MakeError(
          ErrorCode::kInvalidArgument,
          where + ": \"" + type + "\" is not a generic type (the types are listed at " +
              "the top of causeway's construct map, src/analysis/generic/" + "construct_map.txt)");
    }
    out.emplace_back(std::move(pattern), *parsed);
  }
  return OkStatus();
}

}  // namespace

const ConstructMap& ConstructMap::Builtin() {
  static const ConstructMap* map = [] {
    Result<ConstructMap> built = WithUserText("", "");
    // The shipped table is part of the program: one that does not parse is a bug.
    CW_CHECK(built.has_value());
    return new ConstructMap(std::move(*built));
  }();
  return *map;
}

Result<ConstructMap> ConstructMap::WithUserFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) return MakeError(ErrorCode::kNotFound, "cannot read the construct map " + path);
  std::stringstream text;
  text << in.rdbuf();
  return WithUserText(text.str(), path);
}

Result<ConstructMap> ConstructMap::WithUserText(std::string_view text, std::string_view origin) {
  std::vector<std::pair<std::string, GenericType>> lines;
  CW_RETURN_IF_ERROR(ParseLines(text, origin, lines));
  CW_RETURN_IF_ERROR(ParseLines(kBuiltinConstructMap, "construct_map.txt", lines));
  ConstructMap map;
  for (auto& [pattern, type] : lines) {
    const bool wildcard = pattern.find_first_of("*?[") != std::string::npos;
    map.rules_.push_back(Rule{std::move(pattern), type, wildcard});
  }
  return map;
}

GenericType ConstructMap::Classify(std::string_view name) const {
  const std::string text(name);
  for (const Rule& r : rules_) {
    if (r.wildcard ? fnmatch(r.pattern.c_str(), text.c_str(), 0) == 0 : r.pattern == text) {
      return r.type;
    }
  }
  return GenericType::kLocal;
}

std::vector<GenericType> ConstructMap::ClassifyRegions(const trace::Definitions& defs) const {
  std::vector<GenericType> types(defs.regions.size(), GenericType::kLocal);
  for (uint32_t r = 0; r < defs.regions.size(); ++r) {
    if (!defs.regions[r].defined) continue;
    // The measurement system's regions (Score-P's and causeway's trace buffer flushes) are its
    // own work, whatever a rule says of their names.
    types[r] = defs.regions[r].paradigm == trace::Paradigm::kMeasurementSystem
                   ? GenericType::kMeasurement
                   : Classify(defs.str(defs.regions[r].name));
  }
  return types;
}

std::vector<std::string> ConstructMap::Lines() const {
  std::vector<std::string> lines;
  for (const Rule& r : rules_)
    lines.push_back(r.pattern + " " + std::string(GenericTypeName(r.type)));
  return lines;
}

std::vector<GenericType> ClassifyCallpaths(const trace::Trace& trace,
                                           std::span<const GenericType> region_types) {
  std::vector<GenericType> types(trace.call_tree.size());
  for (uint32_t cp = 0; cp < types.size(); ++cp) types[cp] = CallpathType(trace, region_types, cp);
  return types;
}

}  // namespace cw::analysis
