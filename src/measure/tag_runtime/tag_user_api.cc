// include/causeway/causeway.h under `causeway trace --tag`: user regions are part of the call
// paths of what runs inside them (or, if CAUSEWAY_TAG_REGIONS names them, activities of their
// own), and loops marked by the program give loop_entry and loop_exit nodes and their
// iteration counts (Sikora et al. 2016 §3.2).
#include <fnmatch.h>

#include <string>

#include "measure/core/timer.h"
#include "measure/tag_runtime/tag_state.h"

using namespace cw::measure;
using namespace cw::measure::tag_runtime;
using tag_segment::NodeKind;

namespace {

uint32_t NameId(const char* name) {
  State& s = S();
  s.writer->Begin();
  const uint32_t id = s.writer->Name(name);
  s.writer->Commit();
  return id;
}

bool IsActivity(const char* name) {
  for (const std::string& pattern : S().region_patterns) {
    if (fnmatch(pattern.c_str(), name, 0) == 0) return true;
  }
  return false;
}

// A marker: an activity without duration (Sikora et al. 2016's control activities).
void Mark(uint32_t node) {
  State& s = S();
  const uint64_t now = TimerNow();
  s.writer->Begin();
  s.writer->Visit(node, now, now, now);
  s.writer->Commit();
}

bool Usable(const char* name) {
  return name != nullptr && OnGraphThread() && S().writer != nullptr;
}

}  // namespace

extern "C" void causeway_region_begin(const char* name) {
  if (!Usable(name)) return;
  State& s = S();
  RegionActivity& activity = s.region_activity;
  if (activity.node != kNone) {
    ++s.region_activity_depth;  // inside an activity: part of it
    return;
  }
  const uint32_t id = NameId(name);
  if (IsActivity(name)) {
    activity.node = NodeHere(NodeKind::kRegion, id);
    activity.name = id;
    activity.entry = TimerNow();
    activity.in.clear();
    activity.out.clear();
    activity.completions.clear();
    s.region_activity_depth = 0;
    return;
  }
  s.regions.push_back(OpenRegion{id, s.paths->Depth()});
}

extern "C" void causeway_region_end(const char* name) {
  if (!Usable(name)) return;
  State& s = S();
  RegionActivity& activity = s.region_activity;
  if (activity.node != kNone) {
    if (s.region_activity_depth > 0) {
      --s.region_activity_depth;
      return;
    }
    const uint64_t exit = TimerNow();
    s.writer->Begin();
    s.writer->Visit(activity.node, activity.entry, exit, TimerNow());
    WritePending(activity.node, activity.entry, activity.entry, exit, activity.in, activity.out,
                 activity.completions);
    WriteSteps(activity.node, activity.in, activity.out);
    s.writer->Commit();
    activity.node = kNone;
    return;
  }
  const uint32_t id = NameId(name);
  // Only the innermost open region ends (regions nest); another end is ignored, as the
  // tracer ignores it.
  if (!s.regions.empty() && s.regions.back().name == id) s.regions.pop_back();
}

extern "C" void causeway_loop_begin(const char* name) {
  if (!Usable(name) || S().region_activity.node != kNone) return;
  State& s = S();
  const uint32_t id = NameId(name);
  const uint32_t node = NodeHere(NodeKind::kLoopEntry, id);
  Mark(node);
  s.writer->Begin();
  s.writer->LoopBegin(node);
  s.writer->Commit();
  s.loops.push_back(OpenLoop{id, node});
}

extern "C" void causeway_loop_iteration(const char* name) {
  if (!Usable(name) || S().region_activity.node != kNone) return;
  State& s = S();
  if (s.loops.empty()) return;
  s.writer->Begin();
  s.writer->Iteration(TimerNow());
  s.writer->Commit();
}

extern "C" void causeway_loop_end(const char* name) {
  if (!Usable(name) || S().region_activity.node != kNone) return;
  State& s = S();
  const uint32_t id = NameId(name);
  if (s.loops.empty() || s.loops.back().name != id) return;
  s.loops.pop_back();
  s.writer->Begin();
  s.writer->LoopEnd(TimerNow());
  s.writer->Commit();
  Mark(NodeHere(NodeKind::kLoopExit, id));
}
