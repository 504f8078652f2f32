#include "measure/export/internal/walked_paths.h"

#include <fnmatch.h>

#include <algorithm>

namespace cw::measure::internal {
namespace {

bool StartsWith(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

}  // namespace

uint32_t FunctionRegions::Get(const std::string& name, const elf::SourceLine& declared) {
  auto [it, inserted] = ids_.try_emplace(name, 0);
  if (inserted) {
    it->second = archive_.DefineRegion(name, OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_COMPILER,
                                       declared.file, declared.line);
  }
  return it->second;
}

uint32_t FunctionRegions::Site(const elf::SourceLine& line) {
  if (line.file.empty() || line.line == 0) return kNoSite;
  return archive_.DefineSourceCodeLocation(line.file, line.line);
}

bool IsRuntimeModule(const std::string& module) {
  // The sanitizers' runtimes stand in for libc's pthread_create, malloc, ... in a sanitized
  // build: their frames are the C library's, never the program's.
  static const char* const kPrefixes[] = {
      "libmpi",     "libopen-pal", "libopen-rte", "liboshmem", "libpmix",       "libucp",
      "libucs",     "libuct",      "libfabric",   "libpsm",    "libc.so",       "libc-",
      "libpthread", "ld-linux",    "libcauseway", "libhcoll",  "libmca_common", "libomp.so",
      "libgomp",    "libasan",     "libtsan",     "libubsan",  "liblsan"};
  return std::any_of(std::begin(kPrefixes), std::end(kPrefixes),
                     [&module](const char* p) { return StartsWith(module, p); });
}

WalkedPaths::WalkedPaths(const RankDefs& defs, const std::string& maps, elf::ModuleCache& modules,
                         FunctionRegions& regions)
    : defs_(defs), names_(maps, modules), regions_(regions), resolved_(defs.frames.size() + 1) {
  resolved_[0].done = true;
}

const elf::FrameName& WalkedPaths::Name(uint64_t pc) {
  auto [it, inserted] = named_.try_emplace(pc);
  if (!inserted) return it->second;
  // The MPI library's, libc's and causeway's frames are left out whatever their function: their
  // symbol tables (and libc's separate debug file, where installed) are not read.
  if (std::string module = names_.Module(pc); IsRuntimeModule(module)) {
    it->second.function = it->second.site = module;
    it->second.module = std::move(module);
    return it->second;
  }
  it->second = names_.Name(pc);
  return it->second;
}

const elf::FrameSource& WalkedPaths::Source(uint64_t pc) {
  auto [it, inserted] = sources_.try_emplace(pc);
  if (inserted) it->second = names_.Source(pc);
  return it->second;
}

uint32_t WalkedPaths::FoldOf(const std::string& module) {
  auto [it, inserted] = folds_.try_emplace(module, kNoFold);
  if (inserted) {
    for (const std::string& pattern : defs_.fold) {
      if (fnmatch(pattern.c_str(), module.c_str(), 0) == 0) {
        it->second = static_cast<uint32_t>(folds_.size() - 1);
        break;
      }
    }
  }
  return it->second;
}

const WalkedPath& WalkedPaths::Path(uint32_t node) {
  static const WalkedPath kNone;
  if (node >= resolved_.size()) return kNone;
  return Resolve(node).path;
}

void WalkedPaths::ResolveAll() {
  for (uint32_t node = 1; node < resolved_.size(); ++node) Resolve(node);
}

const WalkedPaths::Resolved& WalkedPaths::Resolve(uint32_t node) {
  // Parents first, without recursion: a path may be hundreds of frames deep.
  std::vector<uint32_t> pending;
  for (uint32_t n = node; n < resolved_.size() && !resolved_[n].done;) {
    pending.push_back(n);
    const uint32_t parent = defs_.frames[n - 1].parent;
    n = parent < n ? parent : 0;  // a parent is defined before its children
  }
  for (auto it = pending.rbegin(); it != pending.rend(); ++it) {
    const uint32_t n = *it;
    const FrameDef& frame = defs_.frames[n - 1];
    const uint32_t parent = frame.parent < n ? frame.parent : 0;
    Resolved r = resolved_[parent];
    r.done = true;
    const elf::FrameName& name = Name(frame.pc);
    if (!r.in_program) {
      // Above main: the C library's start, then main (named, or the unnamed frame the start
      // called), or a thread's start routine, or the outermost frame a truncated walk kept.
      // The outermost frame of a stripped executable is its unnamed _start.
      const bool start = elf::IsProgramStart(name) || (parent == 0 && !name.named);
      const bool main =
          name.function == "main" || (!name.named && r.start_only && !start && parent != 0);
      if (start || main) {
        r.in_program = main;
        r.start_only = start && r.start_only;
        // main's return address is the call site of the first function below it.
        if (main) r.path.leaf_site = regions_.Site(Source(frame.pc).call);
        resolved_[n] = std::move(r);
        continue;
      }
      r.in_program = true;
    }
    // A Fortran program's main program (MAIN__, which gfortran's main calls) is main too.
    const bool fortran_main = r.path.regions.empty() && name.function == "MAIN__";
    const bool kept = !IsRuntimeModule(name.module) && !name.plt && !name.system;
    const uint32_t fold = kept && !fortran_main ? FoldOf(name.module) : kNoFold;
    if (fold != kNoFold && fold == r.fold) {
      resolved_[n] = std::move(r);  // inside a folded run: its outermost frame stands for it
      continue;
    }
    if (kept && !fortran_main) {
      r.fold = fold;
      if (!name.named) unnamed_[name.module].insert(name.function);
      const elf::FrameSource& source = Source(frame.pc);
      const uint32_t region = regions_.Get(name.function, source.function);
      std::vector<uint32_t>& regions = r.path.regions;
      auto again = std::find(regions.begin(), regions.end(), region);
      if (again != regions.end()) {
        // Recursion: back to the function's first occurrence.
        const auto keep = static_cast<size_t>(again - regions.begin()) + 1;
        regions.resize(keep);
        r.path.sites.resize(keep);
      } else {
        regions.push_back(region);
        r.path.sites.push_back(r.path.leaf_site);  // where the function above called it
      }
    }
    // This frame's return address is where its function calls the next one (or the call).
    if (kept) r.path.leaf_site = regions_.Site(Source(frame.pc).call);
    resolved_[n] = std::move(r);
  }
  return resolved_[node];
}

namespace {

// Times for `leaves` records after `last` and `enters` before `t`, a nanosecond apart where
// the gap allows (else all at `t`): the leaves right after `last` and the enters right before
// `t`, or (`halfway`) all of them together halfway between.
struct Slots {
  Slots(uint64_t last, uint64_t t, size_t leaves, size_t enters, bool halfway) {
    const uint64_t needed = leaves + enters;
    spaced = t > last && t - last > needed;
    leave_from = spaced ? last + 1 : t;
    enter_from = spaced ? t - enters : t;
    if (spaced && halfway) {
      leave_from = std::max(last + 1, std::min(last + (t - last) / 2, t - needed));
      enter_from = leave_from + leaves;
    }
  }
  uint64_t Leave(size_t i) const { return spaced ? leave_from + i : leave_from; }
  uint64_t Enter(size_t i) const { return spaced ? enter_from + i : enter_from; }
  bool spaced;
  uint64_t leave_from;
  uint64_t enter_from;
};

}  // namespace

bool WalkedStack::Settle(const std::vector<uint32_t>& open) {
  while (!below_.empty() && open.size() < floor_) {
    regions_ = std::move(below_.back().regions);
    base_ = below_.back().base;
    floor_ = below_.back().floor;
    below_.pop_back();
  }
  if (regions_.empty()) {
    base_ = open.size();  // nothing walked is open in this layer: its functions begin here
    return true;
  }
  return open.size() == base_ + regions_.size();
}

void WalkedStack::Nest(const std::vector<uint32_t>& open) {
  if (regions_.empty() && below_.empty()) return;  // nothing below it to come back to
  below_.push_back(Layer{std::move(regions_), base_, floor_});
  regions_.clear();
  base_ = floor_ = open.size();
}

long WalkedStack::Move(const WalkedPath& walked, uint64_t last, uint64_t t,
                       otf2_writer::EventWriter& out, std::vector<uint32_t>& open,
                       uint32_t call_site, bool sample) {
  if (!Settle(open)) return -1;
  // The path passes through the functions of the layers below, which it does not enter again.
  size_t from = 0;
  for (const Layer& layer : below_) {
    for (uint32_t region : layer.regions) {
      if (from >= walked.regions.size() || walked.regions[from] != region) return -1;
      ++from;
    }
  }
  return MoveLayer(walked, from, last, t, out, open, call_site, sample);
}

long WalkedStack::MoveLayer(const WalkedPath& walked, size_t from, uint64_t last, uint64_t t,
                            otf2_writer::EventWriter& out, std::vector<uint32_t>& open,
                            uint32_t call_site, bool sample) {
  const std::vector<uint32_t>& path = walked.regions;
  const bool halfway = sample || sampled_;
  sampled_ = sample;
  size_t shared = 0;
  while (from + shared < path.size() && shared < regions_.size() &&
         path[from + shared] == regions_[shared])
    ++shared;
  const size_t leaves = regions_.size() - shared;
  const size_t enters = path.size() - from - shared;
  const Slots slots(last, t, leaves, enters, halfway);
  for (size_t i = 0; i < leaves; ++i) {
    out.Leave(slots.Leave(i), regions_.back());
    regions_.pop_back();
    open.pop_back();
  }
  for (size_t i = 0; i < enters; ++i) {
    const uint32_t region = path[from + shared + i];
    const uint32_t site = walked.sites[from + shared + i];
    if (site != kNoSite && call_site != kNoSite)
      out.AddSourceCodeLocationAttribute(call_site, site);
    out.Enter(slots.Enter(i), region);
    regions_.push_back(region);
    open.push_back(region);
  }
  return static_cast<long>(leaves + enters);
}

long WalkedStack::LeaveAll(uint64_t last, uint64_t t, otf2_writer::EventWriter& out,
                           std::vector<uint32_t>& open) {
  if (!Settle(open) || regions_.empty()) return 0;
  return MoveLayer(WalkedPath{}, 0, last, t, out, open, kNoSite, false);
}

}  // namespace cw::measure::internal
