// OpenMP in the exported archive (private to measure/export): the regions of the constructs
// the tracer met through OMPT (measure/runtime/omp_hooks.cc), named as Score-P names them, and
// the thread records of the teams.
#pragma once

#include <otf2/OTF2_GeneralDefinitions.h>

#include <cstdint>
#include <string>
#include <vector>

#include "elf/address_names.h"
#include "measure/export/internal/raw_definitions.h"
#include "measure/raw/raw_format.h"
#include "otf2_writer/event_writer.h"

namespace cw::measure::internal {

// Whether `token` names a construct the tracer records.
bool IsOmpConstruct(const std::string& token);
// The OTF2 role of the construct's region (a lock routine's is a wrapper's, as Score-P has it).
OTF2_RegionRole OmpRegionRole(const std::string& construct);

// Names each region as Score-P does: "!$omp parallel @jacobi.c:64", by the source line of its
// address (the call into the OpenMP runtime that the compiler made for the construct), else by
// the function holding it ("@main._omp_fn.0"); the lock routines by their own names
// ("omp_set_lock"). `maps` is the rank's saved memory map (empty: the constructs go unlocated).
void NameOmpRegions(const std::string& maps, elf::ModuleCache& modules,
                    std::vector<OmpRegionDef>& regions);

// How a thread's walked functions (walked_paths.h) meet each OpenMP region, by raw region
// index: a parallel region holds the functions walked inside it (WalkedStack::Nest); entering
// any other construct closes the functions a sample left open, since the runtime, not those
// functions, may have entered it (the implicit barrier after the outlined function returned).
// In a construct where the thread waits in the runtime (barriers, taskwait, a critical or ordered
// construct outside its body, the lock routines: kWaiting) no function of the program runs: a
// sample taken while it is the innermost region is the construct's time and opens nothing below
// it (the frames it walked are those that called the construct).
enum class OmpNesting : uint8_t { kNone, kParallel, kConstruct, kWaiting };
std::vector<OmpNesting> OmpNestingOf(const std::vector<OmpRegionDef>& regions);

// Writes `e` if it is a thread record (fork, join, team begin and end, lock acquisition and
// release) of the team communicator `team` (OTF2_UNDEFINED_COMM if the rank has none): true if
// written, false if `e` is no thread record or names no team.
bool WriteThreadRecord(const RawEvent& e, uint64_t t, uint32_t team, otf2_writer::EventWriter& out);

}  // namespace cw::measure::internal
