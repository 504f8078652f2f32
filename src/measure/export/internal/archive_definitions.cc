#include "measure/export/internal/archive_definitions.h"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "measure/export/internal/io_definitions.h"
#include "measure/export/internal/openmp.h"
#include "measure/raw/raw_format.h"

namespace cw::measure::internal {
namespace {

using otf2_writer::ArchiveWriter;

// OpenMP's constructs, unified by name and construct (a critical section and its body share
// their location).
void DefineOmpRegions(ArchiveWriter& archive, const std::vector<RankDefs>& defs, ArchiveIds& ids) {
  std::map<std::pair<std::string, std::string>, uint32_t> unified;
  for (size_t r = 0; r < defs.size(); ++r) {
    std::vector<uint32_t>& regions = ids.ranks[r].regions;
    for (const OmpRegionDef& omp : defs[r].omp_regions) {
      auto [it, inserted] = unified.try_emplace({omp.name, omp.construct}, 0);
      if (inserted) {
        it->second =
            archive.DefineRegion(omp.name, OmpRegionRole(omp.construct), OTF2_PARADIGM_OPENMP);
      }
      if (regions.size() <= omp.local) regions.resize(omp.local + 1, kUndefinedRegion);
      regions[omp.local] = it->second;
    }
  }
}

// MPI's functions, the buffer flush and the program, numbered as the raw records number them;
// then each rank's user regions, unified by name and role. A loop is a region of the loop role,
// its iteration marker an artificial one (include/causeway).
void DefineRegions(ArchiveWriter& archive, const std::vector<RankDefs>& defs, ArchiveIds& ids) {
  std::vector<uint32_t> region_ids;
  for (const MpiFunctionInfo& f : kMpiFunctions)
    region_ids.push_back(archive.DefineRegion(f.name, f.role, OTF2_PARADIGM_MPI, "MPI"));
  region_ids.resize(kFlushRegion, kUndefinedRegion);  // OpenSHMEM's: defined on first use
  region_ids.push_back(archive.DefineRegion(kFlushRegionName, OTF2_REGION_ROLE_ARTIFICIAL,
                                            OTF2_PARADIGM_MEASUREMENT_SYSTEM));
  region_ids.push_back(
      archive.DefineRegion(kProgramRegionName, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER));
  std::map<std::pair<std::string, UserRegionRole>, uint32_t> user_regions;
  for (size_t r = 0; r < defs.size(); ++r) {
    std::vector<uint32_t>& regions = ids.ranks[r].regions;
    regions = region_ids;
    for (const auto& [local, name] : defs[r].regions) {
      auto role_it = defs[r].region_roles.find(local);
      const UserRegionRole role =
          role_it == defs[r].region_roles.end() ? UserRegionRole::kRegion : role_it->second;
      auto [it, inserted] = user_regions.try_emplace({name, role}, 0);
      if (inserted) {
        const OTF2_RegionRole otf2_role =
            role == UserRegionRole::kLoop        ? OTF2_REGION_ROLE_LOOP
            : role == UserRegionRole::kIteration ? OTF2_REGION_ROLE_ARTIFICIAL
            : role == UserRegionRole::kFileIo    ? OTF2_REGION_ROLE_FILE_IO
                                                 : OTF2_REGION_ROLE_FUNCTION;
        // The write marker is the measurement's note, not the program's function.
        it->second =
            archive.DefineRegion(name, otf2_role,
                                 role == UserRegionRole::kFileIo ? OTF2_PARADIGM_MEASUREMENT_SYSTEM
                                                                 : OTF2_PARADIGM_USER);
      }
      if (regions.size() <= local) regions.resize(local + 1, kUndefinedRegion);
      regions[local] = it->second;
    }
  }
  DefineOmpRegions(archive, defs, ids);
}

// The machine, its nodes, one process per rank with its master thread and the other threads
// (OpenMP's, and others that called MPI). Returns the machine's node. Location ids are Score-P's,
// thread << 32 | rank: Scalasca takes a thread's number from them (all would be thread 0, and
// Cube's remapper would fold them into one).
uint32_t DefineSystemTree(ArchiveWriter& archive, const std::vector<RankDefs>& defs,
                          ArchiveIds& ids) {
  const uint32_t machine =
      archive.DefineSystemTreeNode("machine", "machine", OTF2_UNDEFINED_UINT32);
  std::map<std::string, uint32_t> nodes;
  for (size_t r = 0; r < defs.size(); ++r) {
    auto [it, inserted] = nodes.try_emplace(defs[r].host, 0);
    if (inserted) it->second = archive.DefineSystemTreeNode(defs[r].host, "node", machine);
    const uint32_t group = archive.DefineLocationGroup("MPI Rank " + std::to_string(r), it->second);
    std::vector<uint64_t>& locations = ids.ranks[r].locations;
    locations.push_back(
        archive.DefineLocation("Master thread", group, OTF2_LOCATION_TYPE_CPU_THREAD, r));
    for (int k = 1; k < defs[r].threads; ++k) {
      const uint64_t id = static_cast<uint64_t>(k) << 32 | r;
      locations.push_back(archive.DefineLocation("Thread " + std::to_string(k), group,
                                                 OTF2_LOCATION_TYPE_CPU_THREAD, id));
    }
  }
  return machine;
}

std::vector<uint64_t> MasterLocations(const ArchiveIds& ids) {
  std::vector<uint64_t> locations;
  for (const RankIds& rank : ids.ranks) locations.push_back(rank.locations.front());
  return locations;
}

// One definition per communicator, shared by all its members. Inter-communicators are unified
// by their agreed id and their two groups (the one holding the lower world rank first, as both
// sides see it); communicators seen being created by their agreed id and members (disjoint
// communicators can share one id), the others by their members alone.
void DefineComms(ArchiveWriter& archive, const std::vector<RankDefs>& defs, ArchiveIds& ids) {
  ids.world = archive.DefineMpiWorld(MasterLocations(ids));
  std::map<std::pair<long long, std::vector<uint64_t>>, uint32_t> unified;
  std::map<std::tuple<long long, std::vector<uint64_t>, std::vector<uint64_t>>, uint32_t>
      unified_inter;
  for (size_t r = 0; r < defs.size(); ++r) {
    for (const CommDef& c : defs[r].comms) {
      uint32_t id = ids.world;
      if (c.inter) {
        const bool local_first = *std::min_element(c.ranks.begin(), c.ranks.end()) <
                                 *std::min_element(c.remote.begin(), c.remote.end());
        const std::vector<uint64_t>& a = local_first ? c.ranks : c.remote;
        const std::vector<uint64_t>& b = local_first ? c.remote : c.ranks;
        auto [it, inserted] = unified_inter.try_emplace({c.global, a, b}, 0);
        if (inserted) {
          it->second = archive.DefineMpiInterComm(
              "MPI inter-communicator " + std::to_string(unified_inter.size()), a, b, ids.world);
        }
        id = it->second;
      } else if (!c.world) {
        auto [it, inserted] = unified.try_emplace(std::make_pair(c.global, c.ranks), 0);
        if (inserted) {
          std::string name = c.global == kSelfCommId
                                 ? "MPI_COMM_SELF"
                                 : "MPI communicator " + std::to_string(unified.size());
          it->second = archive.DefineMpiComm(name, c.ranks, ids.world);
        }
        id = it->second;
      }
      ids.ranks[r].comms.push_back(id);
    }
  }
}

// OpenSHMEM's windows, unified by their active set, over communicators of the SHMEM paradigm
// ("All PEs" first, the others as its children).
class ShmemWindows {
 public:
  ShmemWindows(ArchiveWriter& archive, std::vector<uint64_t> locations)
      : archive_(archive), locations_(std::move(locations)) {}

  uint32_t Get(const std::vector<uint64_t>& pes) {
    auto [it, inserted] = windows_.try_emplace(pes, 0);
    if (!inserted) return it->second;
    if (world_ == kNoDefinition) {
      std::vector<uint64_t> all(locations_.size());
      for (uint64_t r = 0; r < all.size(); ++r) all[r] = r;
      world_ = archive_.DefineParadigmComm("All PEs", OTF2_PARADIGM_SHMEM, locations_, all);
    }
    const bool all = pes.size() == locations_.size();
    std::string name = all ? "All PEs" : "Active set";
    if (!all) {
      for (uint64_t pe : pes) name += " " + std::to_string(pe);
    }
    const uint32_t comm =
        all ? world_
            : archive_.DefineParadigmComm(name, OTF2_PARADIGM_SHMEM, locations_, pes, world_);
    it->second = archive_.DefineRmaWindow(name, comm, OTF2_RMA_WIN_FLAG_NONE);
    return it->second;
  }

 private:
  ArchiveWriter& archive_;
  std::vector<uint64_t> locations_;
  std::map<std::vector<uint64_t>, uint32_t> windows_;
  uint32_t world_ = kNoDefinition;
};

// RMA windows, unified by the id their members agreed on and their communicator; process groups
// (of MPI_Win_post/start) by their members; OpenSHMEM's windows by their active set.
void DefineWindowsAndGroups(ArchiveWriter& archive, const std::vector<RankDefs>& defs,
                            ArchiveIds& ids) {
  std::map<std::pair<long long, uint32_t>, uint32_t> unified_windows;
  std::map<std::vector<uint64_t>, uint32_t> unified_groups;
  ShmemWindows shmem_windows(archive, MasterLocations(ids));
  for (size_t r = 0; r < defs.size(); ++r) {
    RankIds& rank = ids.ranks[r];
    for (const WindowDef& w : defs[r].windows) {
      if (w.shmem) {
        rank.windows.push_back(shmem_windows.Get(w.pes));
        continue;
      }
      if (w.global < 0 || w.comm >= rank.comms.size()) {
        rank.windows.push_back(kNoDefinition);  // a gap or damaged line
        continue;
      }
      auto [it, inserted] = unified_windows.try_emplace({w.global, rank.comms[w.comm]}, 0);
      if (inserted) {
        it->second =
            archive.DefineRmaWindow("MPI window " + std::to_string(unified_windows.size() - 1),
                                    rank.comms[w.comm], OTF2_RMA_WIN_FLAG_CREATE_DESTROY_EVENTS);
      }
      rank.windows.push_back(it->second);
    }
    for (const GroupDef& g : defs[r].groups) {
      if (g.ranks.empty()) {
        rank.groups.push_back(kNoDefinition);
        continue;
      }
      auto [it, inserted] = unified_groups.try_emplace(g.ranks, 0);
      if (inserted) {
        it->second = archive.DefineGroup("MPI group " + std::to_string(unified_groups.size() - 1),
                                         OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI, g.ranks);
      }
      rank.groups.push_back(it->second);
    }
  }
}

// A thread team for each rank whose threads ran OpenMP: its locations, as Score-P defines teams
// (one communicator of the OpenMP paradigm per process, over the group of every OpenMP
// location).
void DefineThreadTeams(ArchiveWriter& archive, const std::vector<RankDefs>& defs, ArchiveIds& ids) {
  std::vector<uint64_t> omp_locations;
  for (size_t r = 0; r < defs.size(); ++r) {
    if (defs[r].omp_regions.empty()) continue;
    const std::vector<uint64_t>& locations = ids.ranks[r].locations;
    omp_locations.insert(omp_locations.end(), locations.begin(), locations.end());
  }
  uint64_t first = 0;  // of the rank's locations in omp_locations
  for (size_t r = 0; r < defs.size(); ++r) {
    if (defs[r].omp_regions.empty()) continue;
    std::vector<uint64_t> members(ids.ranks[r].locations.size());
    for (uint64_t& m : members) m = first++;
    ids.ranks[r].team = archive.DefineParadigmComm("Thread team " + std::to_string(r),
                                                   OTF2_PARADIGM_OPENMP, omp_locations, members);
  }
}

}  // namespace

ArchiveIds DefineArchive(ArchiveWriter& archive, const std::vector<RankDefs>& defs) {
  ArchiveIds ids;
  ids.ranks.resize(defs.size());
  DefineRegions(archive, defs, ids);
  const uint32_t machine = DefineSystemTree(archive, defs, ids);
  DefineComms(archive, defs, ids);
  DefineWindowsAndGroups(archive, defs, ids);
  DefineThreadTeams(archive, defs, ids);
  for (size_t r = 0; r < defs.size(); ++r) {
    ids.ranks[r].files = DefineRankFiles(archive, defs[r], ids.ranks[r].comms, machine);
  }
  return ids;
}

}  // namespace cw::measure::internal
