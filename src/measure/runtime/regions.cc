// Regions besides the MPI functions: user regions (include/causeway/causeway.h) and the
// functions of programs compiled with -finstrument-functions. Both share one stack of open
// frames, so they nest with each other as the program ran. The outermost of them carries the
// walked call path of its begin (calling_contexts.h), so that it nests in the program's walked
// functions; what is inside it nests in it, walked no further.
#include <string>

#include "measure/runtime/function_names.h"
#include "measure/runtime/hooks.h"
#include "measure/runtime/recorder.h"

namespace cw::measure::hook {
namespace {

uint32_t RegionNamed(const std::string& name) {
  State& s = S();
  auto [it, inserted] = s.region_by_name.try_emplace(name, 0);
  if (inserted) {
    it->second = s.next_region.fetch_add(1);
    s.log.Define("region " + std::to_string(it->second) + " " + it->first);
  }
  return it->second;
}

// A loop's region (role "loop") or its iteration marker's (role "iteration"), apart from the
// user regions of the same name.
uint32_t LoopRegion(const char* name, const char* role) {
  State& s = S();
  const std::string key = std::string(role) + ":" + name;
  auto [it, inserted] = s.loop_regions.try_emplace(key, 0);
  if (inserted) {
    it->second = s.next_region.fetch_add(1);
    const std::string shown =
        std::string(name) + (std::string(role) == "iteration" ? " iteration" : "");
    s.log.Define("region " + std::to_string(it->second) + " " + shown);
    s.log.Define("region_role " + std::to_string(it->second) + " " + role);
  }
  return it->second;
}

uint32_t UserRegion(const char* name) {
  State& s = S();
  if (auto it = s.region_by_address.find(name); it != s.region_by_address.end()) return it->second;
  const uint32_t region = RegionNamed(name);
  s.region_by_address.emplace(name, region);
  return region;
}

// The function's region, or kNoRegion if the filters exclude it (decided once per function).
uint32_t FunctionRegion(void* function) {
  State& s = S();
  if (auto it = s.region_by_function.find(function); it != s.region_by_function.end())
    return it->second;
  static const FunctionFilter kFilter = FunctionFilter::FromEnvironment();
  const std::string name = FunctionName(function);
  const uint32_t region = kFilter.Accepts(name) ? RegionNamed(name) : kNoRegion;
  s.region_by_function.emplace(function, region);
  return region;
}

}  // namespace

void CloseOpenRegions() {
  State& s = S();
  while (!s.frames.empty()) {
    const Frame f = s.frames.back();
    s.frames.pop_back();
    if (f.region == kNoRegion) continue;
    Record(RawKind::kLeave, f.region);
    if (f.function == nullptr) ++s.unbalanced_regions;  // a user region nobody ended
  }
}

}  // namespace cw::measure::hook

using cw::measure::RawKind;
using namespace cw::measure::hook;

// The user-region API of include/causeway/causeway.h.
extern "C" void causeway_region_begin(const char* name) {
  if (name == nullptr || !Recording() || !S().record_user_regions) return;
  DrainSamples(T());
  const uint32_t region = UserRegion(name);
  const uint32_t context = WalkedContext(T());  // before the frame: see calling_contexts.h
  S().frames.push_back(Frame{region, nullptr});
  Record(RawKind::kEnter, region, context);
}

extern "C" void causeway_region_end(const char* name) {
  if (name == nullptr || !Recording() || !S().record_user_regions) return;
  State& s = S();
  const uint32_t region = UserRegion(name);
  if (s.frames.empty() || s.frames.back().function != nullptr || s.frames.back().region != region) {
    ++s.unbalanced_regions;  // not the innermost open region: the nesting would break
    return;
  }
  DrainSamples(T());  // the samples taken inside the region, before its Leave
  s.frames.pop_back();
  Record(RawKind::kLeave, region);
}

// Loops (include/causeway/causeway.h): a region of the loop role from begin to end, and a
// zero-length iteration marker at the start of each iteration.
extern "C" void causeway_loop_begin(const char* name) {
  if (name == nullptr || !Recording() || !S().record_user_regions) return;
  DrainSamples(T());
  const uint32_t region = LoopRegion(name, "loop");
  const uint32_t context = WalkedContext(T());
  S().frames.push_back(Frame{region, nullptr});
  Record(RawKind::kEnter, region, context);
}

extern "C" void causeway_loop_iteration(const char* name) {
  if (name == nullptr || !Recording() || !S().record_user_regions) return;
  const uint32_t region = LoopRegion(name, "iteration");
  Record(RawKind::kEnter, region);
  Record(RawKind::kLeave, region);
}

extern "C" void causeway_loop_end(const char* name) {
  if (name == nullptr || !Recording() || !S().record_user_regions) return;
  State& s = S();
  const uint32_t region = LoopRegion(name, "loop");
  if (s.frames.empty() || s.frames.back().function != nullptr || s.frames.back().region != region) {
    ++s.unbalanced_regions;
    return;
  }
  DrainSamples(T());
  s.frames.pop_back();
  Record(RawKind::kLeave, region);
}

// -finstrument-functions. Functions entered before MPI_Init (main, say) have no frame: their
// exits find another function on top, or none, and are passed over.
extern "C" __attribute__((no_instrument_function)) void __cyg_profile_func_enter(void* function,
                                                                                 void*) {
  if (!RecordingHere() || !S().record_functions) return;
  DrainSamples(T());
  const uint32_t region = FunctionRegion(function);
  // The function's own frame is its region: the walked path ends at its caller.
  const uint32_t context = region != kNoRegion ? WalkedContext(T(), 1) : 0;
  S().frames.push_back(Frame{region, function});
  if (region != kNoRegion) Record(RawKind::kEnter, region, context);
}

extern "C" __attribute__((no_instrument_function)) void __cyg_profile_func_exit(void* function,
                                                                                void*) {
  if (!RecordingHere() || !S().record_functions) return;
  State& s = S();
  if (s.frames.empty() || s.frames.back().function != function) return;
  DrainSamples(T());
  const uint32_t region = s.frames.back().region;
  s.frames.pop_back();
  if (region != kNoRegion) Record(RawKind::kLeave, region);
}
