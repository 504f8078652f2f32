// Score-P's MPI groups (SCOREP_MPI_ENABLE_GROUPS), which `causeway trace --mpi-groups` names
// (CAUSEWAY_MPI_GROUPS): every MPI function belongs to one (measure/wrappers'
// MpiFunctionInfo::group). The groups switch off only functions whose records the analysis does
// not match (MpiFunctionInfo::filterable): point-to-point, collective, one-sided and I/O calls
// and the creation of communicators are recorded whatever the groups say.
#pragma once

#include <cctype>
#include <set>
#include <sstream>
#include <string>

namespace cw::measure {

// Every group; DEFAULT, as Score-P's default, is CG, COLL, ENV, IO, P2P, RMA, TOPO and
// XNONBLOCK (XNONBLOCK and XREQTEST, Score-P's refinements of P2P, are accepted and mean P2P).
inline constexpr const char* kMpiGroupNames[] = {
    "CG", "COLL", "ENV", "ERR", "EXT", "IO", "MISC", "P2P", "PERF", "RMA", "SPAWN", "TOPO", "TYPE"};
inline constexpr const char* kDefaultMpiGroups = "CG,COLL,ENV,IO,P2P,RMA,TOPO,XNONBLOCK";

class MpiGroups {
 public:
  // From a comma-separated list of group names, DEFAULT and ALL (any case); null or empty means
  // DEFAULT. `unknown` gets the first name that is none of them.
  explicit MpiGroups(const char* list, std::string* unknown = nullptr) {
    std::string text = list == nullptr || *list == '\0' ? kDefaultMpiGroups : list;
    std::stringstream in(text);
    std::string name;
    while (std::getline(in, name, ',')) {
      for (char& c : name) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      if (name.empty()) continue;
      if (name == "DEFAULT") {
        Add(kDefaultMpiGroups);
      } else if (name == "ALL") {
        for (const char* g : kMpiGroupNames) enabled_.insert(g);
      } else if (name == "XNONBLOCK" || name == "XREQTEST") {
        enabled_.insert("P2P");
      } else if (Known(name)) {
        enabled_.insert(name);
      } else if (unknown != nullptr && unknown->empty()) {
        *unknown = name;
      }
    }
  }
  bool Enabled(const char* group) const { return enabled_.count(group) > 0; }

 private:
  static bool Known(const std::string& name) {
    for (const char* g : kMpiGroupNames) {
      if (name == g) return true;
    }
    return false;
  }
  void Add(const char* list) {
    std::stringstream in(list);
    std::string name;
    while (std::getline(in, name, ',')) {
      enabled_.insert(name == "XNONBLOCK" ? "P2P" : name);
    }
  }
  std::set<std::string> enabled_;
};

}  // namespace cw::measure
