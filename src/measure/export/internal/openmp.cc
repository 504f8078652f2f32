#include "measure/export/internal/openmp.h"

#include <filesystem>
#include <string_view>

#include "measure/export/internal/walked_paths.h"

namespace cw::measure::internal {
namespace {

struct ConstructInfo {
  std::string_view token;  // as the tracer writes it
  std::string_view shown;  // the region's name before its location (Score-P's)
  OTF2_RegionRole role;
  bool located;  // named after where the program encountered it
  bool waiting;  // the thread waits in the runtime there (OmpNesting::kWaiting)
};

constexpr ConstructInfo kConstructs[] = {
    {"parallel", "!$omp parallel", OTF2_REGION_ROLE_PARALLEL, true, false},
    {"implicit_barrier", "!$omp implicit barrier", OTF2_REGION_ROLE_IMPLICIT_BARRIER, true, true},
    {"barrier", "!$omp barrier", OTF2_REGION_ROLE_BARRIER, true, true},
    {"critical", "!$omp critical", OTF2_REGION_ROLE_CRITICAL, true, true},
    {"critical_sblock", "!$omp critical sblock", OTF2_REGION_ROLE_CRITICAL_SBLOCK, true, false},
    {"loop", "!$omp for", OTF2_REGION_ROLE_LOOP, true, false},
    {"sections", "!$omp sections", OTF2_REGION_ROLE_SECTIONS, true, false},
    {"single", "!$omp single", OTF2_REGION_ROLE_SINGLE, true, false},
    {"master", "!$omp master", OTF2_REGION_ROLE_MASTER, true, false},
    {"taskwait", "!$omp taskwait", OTF2_REGION_ROLE_TASK_WAIT, true, true},
    {"ordered", "!$omp ordered", OTF2_REGION_ROLE_ORDERED, true, true},
    {"ordered_sblock", "!$omp ordered sblock", OTF2_REGION_ROLE_ORDERED_SBLOCK, true, false},
    {"omp_set_lock", "omp_set_lock", OTF2_REGION_ROLE_WRAPPER, false, true},
    {"omp_unset_lock", "omp_unset_lock", OTF2_REGION_ROLE_WRAPPER, false, true},
    {"omp_test_lock", "omp_test_lock", OTF2_REGION_ROLE_WRAPPER, false, true},
    {"omp_set_nest_lock", "omp_set_nest_lock", OTF2_REGION_ROLE_WRAPPER, false, true},
    {"omp_unset_nest_lock", "omp_unset_nest_lock", OTF2_REGION_ROLE_WRAPPER, false, true},
    {"omp_test_nest_lock", "omp_test_nest_lock", OTF2_REGION_ROLE_WRAPPER, false, true},
};

const ConstructInfo* Find(const std::string& token) {
  for (const ConstructInfo& c : kConstructs) {
    if (c.token == token) return &c;
  }
  return nullptr;
}

// "@file.c:42", "@function", or "" where nothing names the address. The source file goes by
// its name alone, as Score-P's instrumenter writes it. An address inside the OpenMP runtime (a
// construct at the very end of an outlined function, which jumps to the runtime rather than
// calling it, leaves the runtime's own return address) says nothing of the program.
std::string Location(const elf::AddressNames& names, uint64_t pc) {
  if (pc == 0 || names.mappings() == 0 || IsRuntimeModule(names.Module(pc))) return "";
  const elf::SourceLine call = names.Source(pc).call;
  if (!call.file.empty() && call.line > 0) {
    return " @" + std::filesystem::path(call.file).filename().string() + ":" +
           std::to_string(call.line);
  }
  const elf::FrameName frame = names.Name(pc);
  return frame.function.empty() ? "" : " @" + frame.function;
}

}  // namespace

bool IsOmpConstruct(const std::string& token) { return Find(token) != nullptr; }

OTF2_RegionRole OmpRegionRole(const std::string& construct) {
  const ConstructInfo* c = Find(construct);
  if (c == nullptr) return OTF2_REGION_ROLE_FUNCTION;
  return c->role;
}

std::vector<OmpNesting> OmpNestingOf(const std::vector<OmpRegionDef>& regions) {
  std::vector<OmpNesting> nesting;
  for (const OmpRegionDef& r : regions) {
    // (ReadDefs bounds the ids: kProgramRegion + kMaxUserRegions at most.)
    if (r.local >= nesting.size()) nesting.resize(r.local + 1, OmpNesting::kNone);
    const ConstructInfo* c = Find(r.construct);
    nesting[r.local] = r.construct == "parallel"    ? OmpNesting::kParallel
                       : c != nullptr && c->waiting ? OmpNesting::kWaiting
                                                    : OmpNesting::kConstruct;
  }
  return nesting;
}

void NameOmpRegions(const std::string& maps, elf::ModuleCache& modules,
                    std::vector<OmpRegionDef>& regions) {
  if (regions.empty()) return;
  const elf::AddressNames names(maps, modules);
  for (OmpRegionDef& region : regions) {
    const ConstructInfo* c = Find(region.construct);
    if (c == nullptr) continue;  // ReadDefs keeps only known constructs
    region.name = std::string(c->shown) + (c->located ? Location(names, region.pc) : "");
  }
}

bool WriteThreadRecord(const RawEvent& e, uint64_t t, uint32_t team,
                       otf2_writer::EventWriter& out) {
  switch (e.kind) {
    case RawKind::kThreadFork:
      out.ThreadFork(t, OTF2_PARADIGM_OPENMP, e.a);
      return true;
    case RawKind::kThreadJoin:
      out.ThreadJoin(t, OTF2_PARADIGM_OPENMP);
      return true;
    case RawKind::kThreadTeamBegin:
    case RawKind::kThreadTeamEnd:
      if (team == OTF2_UNDEFINED_COMM) return false;
      if (e.kind == RawKind::kThreadTeamBegin) {
        out.ThreadTeamBegin(t, team);
      } else {
        out.ThreadTeamEnd(t, team);
      }
      return true;
    case RawKind::kThreadAcquireLock:
      out.ThreadAcquireLock(t, OTF2_PARADIGM_OPENMP, e.a, static_cast<uint32_t>(e.y));
      return true;
    case RawKind::kThreadReleaseLock:
      out.ThreadReleaseLock(t, OTF2_PARADIGM_OPENMP, e.a, static_cast<uint32_t>(e.y));
      return true;
    default:
      return false;
  }
}

}  // namespace cw::measure::internal
