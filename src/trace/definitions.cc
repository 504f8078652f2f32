#include "trace/definitions.h"

#include <algorithm>

namespace cw::trace {

uint32_t Definitions::LocationIndex(uint64_t otf2_id) const {
  auto it = location_index_.find(otf2_id);
  return it == location_index_.end() ? kNone : it->second;
}

void Definitions::IndexLocations() {
  location_index_.clear();
  location_index_.reserve(locations.size());
  for (uint32_t i = 0; i < locations.size(); ++i) location_index_.emplace(locations[i].otf2_id, i);
}

uint32_t Definitions::AddString(std::string_view s) {
  strings.emplace_back(s);
  return static_cast<uint32_t>(strings.size() - 1);
}

uint32_t Definitions::AddRegion(std::string_view name, RegionRole role, Paradigm paradigm) {
  Region region;
  region.defined = true;
  region.name = AddString(name);
  region.canonical_name = region.name;
  region.role = role;
  region.paradigm = paradigm;
  region.mpi = ClassifyMpiRegion(name);
  regions.push_back(region);
  return static_cast<uint32_t>(regions.size() - 1);
}

uint32_t Definitions::FindRegion(std::string_view name) const {
  for (uint32_t i = 0; i < regions.size(); ++i) {
    if (regions[i].defined && str(regions[i].name) == name) return i;
  }
  return kNone;
}

bool Definitions::IsMpiIoHandle(uint32_t handle) const {
  if (handle >= io_handles.size() || !io_handles[handle].defined) return false;
  const uint32_t p = io_handles[handle].paradigm;
  if (p >= io_paradigms.size() || !io_paradigms[p].defined) return false;
  // Score-P's MPI-IO paradigm: identification "MPI-IO" (some versions name it "MPI I/O").
  return str(io_paradigms[p].identification).find("MPI") != std::string_view::npos ||
         str(io_paradigms[p].name).find("MPI") != std::string_view::npos;
}

std::string_view Definitions::IoFileName(uint32_t handle) const {
  if (handle >= io_handles.size()) return {};
  const uint32_t file = io_handles[handle].file;
  return file < io_files.size() && io_files[file].defined ? str(io_files[file].name)
                                                          : std::string_view();
}

uint32_t Definitions::RankOfLocation(uint32_t location) const {
  if (location >= locations.size()) return kNone;
  uint32_t group = locations[location].group;
  return group < location_groups.size() ? location_groups[group].rank : kNone;
}

bool Definitions::RankEndedEarly(uint32_t rank) const {
  auto it = std::lower_bound(rank_endings.begin(), rank_endings.end(), rank,
                             [](const auto& ending, uint32_t r) { return ending.first < r; });
  return it != rank_endings.end() && it->first == rank && it->second != "finalized";
}

namespace {

// The COMM_LOCATIONS group of a paradigm: member i is the location of rank i in that paradigm's
// world. Comm groups of the same paradigm hold indices into it.
const Group* FindCommLocations(const std::vector<Group>& groups, Paradigm paradigm) {
  for (const Group& g : groups) {
    if (g.defined && g.type == GroupType::kCommLocations && g.paradigm == paradigm) return &g;
  }
  return nullptr;
}

}  // namespace

std::vector<uint32_t> Definitions::GroupLocations(uint32_t group_id) const {
  std::vector<uint32_t> result;
  if (group_id >= groups.size() || !groups[group_id].defined) return result;
  const Group& group = groups[group_id];
  const Group* world =
      group.type == GroupType::kCommGroup ? FindCommLocations(groups, group.paradigm) : nullptr;
  result.reserve(group.members.size());
  for (uint64_t member : group.members) {
    uint64_t location_id = member;
    if (group.type == GroupType::kCommGroup) {
      if (world == nullptr || member >= world->members.size()) {
        result.push_back(kNone);
        continue;
      }
      location_id = world->members[member];
    }
    result.push_back(LocationIndex(location_id));
  }
  return result;
}

bool Comm::InGroupA(uint32_t location) const {
  return std::binary_search(group_a_sorted.begin(), group_a_sorted.end(), location);
}

uint32_t Comm::RemoteLocation(uint32_t rank, uint32_t calling_location) const {
  const uint32_t b_size = static_cast<uint32_t>(rank_to_location.size()) - group_a_size;
  if (InGroupA(calling_location)) {
    return rank < b_size ? rank_to_location[group_a_size + rank] : kNone;
  }
  return rank < group_a_size ? rank_to_location[rank] : kNone;
}

size_t Definitions::ResolveComms() {
  size_t unresolved = 0;
  for (Comm& comm : comms) {
    if (!comm.defined) continue;
    comm.rank_to_location.clear();
    if (comm.group >= groups.size() || !groups[comm.group].defined) {
      ++unresolved;
      continue;
    }
    const Group& group = groups[comm.group];
    if (group.type == GroupType::kCommSelf) {
      comm.is_self = true;
      continue;
    }
    comm.rank_to_location = GroupLocations(comm.group);
    comm.group_a_size = 0;
    comm.group_a_sorted.clear();
    if (comm.is_inter()) {
      if (comm.remote_group >= groups.size() || !groups[comm.remote_group].defined) {
        ++unresolved;
        comm.rank_to_location.clear();
        continue;
      }
      comm.group_a_size = static_cast<uint32_t>(comm.rank_to_location.size());
      comm.group_a_sorted = comm.rank_to_location;
      std::sort(comm.group_a_sorted.begin(), comm.group_a_sorted.end());
      const std::vector<uint32_t> b = GroupLocations(comm.remote_group);
      comm.rank_to_location.insert(comm.rank_to_location.end(), b.begin(), b.end());
    }
    bool ok = true;
    for (uint32_t index : comm.rank_to_location) ok = ok && index != kNone;
    if (!ok) ++unresolved;
  }

  // MPI ranks of the location groups: position in the MPI COMM_LOCATIONS group.
  for (LocationGroup& g : location_groups) g.rank = kNone;
  if (const Group* mpi_world = FindCommLocations(groups, Paradigm::kMpi)) {
    for (uint32_t rank = 0; rank < mpi_world->members.size(); ++rank) {
      uint32_t loc = LocationIndex(mpi_world->members[rank]);
      if (loc == kNone) continue;
      uint32_t group = locations[loc].group;
      if (group < location_groups.size() && location_groups[group].rank == kNone) {
        location_groups[group].rank = rank;
      }
    }
  } else {
    // No MPI world (a non-MPI or hand-built trace): number the process groups in order.
    uint32_t rank = 0;
    for (LocationGroup& g : location_groups) {
      if (g.defined && g.type == LocationGroupType::kProcess) g.rank = rank++;
    }
  }
  return unresolved;
}

}  // namespace cw::trace
