// A reader of .cubex files for the tests: parses causeway's report.cubex back (and Score-P's
// profile.cubex samples) so that its values can be compared with report.json and its structure
// with the samples'. It reads the tar through libarchive and anchor.xml through pugixml.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "base/status.h"

namespace cw::test {

struct CubeMetric {
  uint32_t id = 0;
  std::string uniq_name, disp_name, dtype, uom, type;
  std::string parent;  // uniq_name of the enclosing metric, "" for a root
};

struct CubeLocation {
  std::string name;         // "Master thread"
  std::string group;        // "MPI Rank 3"
  uint32_t group_rank = 0;  // the location group's <rank>
  uint32_t thread = 0;      // the location's <rank> within its group
};

struct CubeFile {
  std::vector<CubeMetric> metrics;
  std::vector<std::string> cnodes;      // by cnode id: "main/foo/MPI_Send" (region names)
  std::vector<CubeLocation> locations;  // by location id
  // Non-zero values: uniq_name -> (cnode id, location id) -> value.
  std::map<std::string, std::map<std::pair<uint32_t, uint32_t>, double>> values;
  // The element structure of anchor.xml: each element's path from <cube>, with a run of
  // same-named nesting (cnode in cnode, metric in metric) written once, and the attribute names
  // seen on it.
  std::map<std::string, std::set<std::string>> structure;
};

Result<CubeFile> ReadCubex(const std::string& path);

}  // namespace cw::test
