// The walked call paths of a rank (causeway trace --callpaths) as the program's functions
// (private to measure/export).
//
// The tracer records each call's calling-context node: a return address under its parent
// (measure/runtime/calling_contexts.h). Here the return addresses are named from the rank's
// saved memory map and the symbol tables of its files (elf/address_names.h), and each node
// becomes the list of the program's functions from main to the call:
//  - the C library's program start (_start, __libc_start_main, libc's frames) and main itself
//    are left out: the program region "main" stands for main (an executable without symbols has
//    an unnamed main: the frame the C library's start called), and for a Fortran program's
//    main program (MAIN__, which the compiler's main calls);
//  - frames of the MPI and OpenSHMEM libraries, libc, the dynamic loader and causeway, of the
//    vDSO and of PLT stubs are left out wherever they are (a Fortran binding calling the C one,
//    a callback, a sample taken in clock_gettime);
//  - recursion is folded: a function already on the path takes the path back to its first
//    occurrence, so that a deep recursion cannot make a node per level;
//  - a return address no symbol holds is named by its module and offset, and counted;
//  - frames of a module that a --fold pattern names (RankDefs::fold) are folded into the
//    outermost one of each run of them: `libopenblas*` keeps the dgemm_ the program called and
//    drops the kernels below it, whose time then stays with dgemm_.
// Each function is one region of the archive, shared by every rank (FunctionRegions).
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "elf/address_names.h"
#include "measure/export/internal/raw_definitions.h"
#include "otf2_writer/archive_writer.h"

namespace cw::measure::internal {

inline constexpr uint32_t kNoSite = 0xFFFFFFFFu;

// The archive's definitions of walked call paths: a region per function, by name (defined when
// first named, with the file and line the function is declared at where the debug information
// says), and the source locations of call sites.
class FunctionRegions {
 public:
  explicit FunctionRegions(otf2_writer::ArchiveWriter& archive) : archive_(archive) {}
  uint32_t Get(const std::string& name, const elf::SourceLine& declared);
  // kNoSite for an unknown line.
  uint32_t Site(const elf::SourceLine& line);

 private:
  otf2_writer::ArchiveWriter& archive_;
  std::map<std::string, uint32_t> ids_;
};

// A node's call path as the program's functions, outermost first, each with the source location
// of the call that entered it (kNoSite where unknown), and the location of the call the node's
// innermost function makes (the recorded call's call site; for a sample, the line it ran).
struct WalkedPath {
  std::vector<uint32_t> regions;
  std::vector<uint32_t> sites;
  uint32_t leaf_site = kNoSite;
};

// Whether a module's frames are left out of walked paths: the MPI and OpenSHMEM libraries and
// their transports, the OpenMP runtimes, libc, the dynamic loader and causeway's own libraries.
bool IsRuntimeModule(const std::string& module);

class WalkedPaths {
 public:
  WalkedPaths(const RankDefs& defs, const std::string& maps, elf::ModuleCache& modules,
              FunctionRegions& regions);

  // `node`'s functions; empty for node 0, a node the definitions do not hold, or a path inside
  // main that holds no function of the program.
  const WalkedPath& Path(uint32_t node);
  // Resolves every node now, so that Path only looks up: the functions' regions and call sites
  // are defined in node order, and the archive's definitions and the module cache are not
  // touched while the rank's events are written (in parallel with other ranks').
  void ResolveAll();

  // The functions no symbol named (module+offset), by module.
  const std::map<std::string, std::set<std::string>>& unnamed() const { return unnamed_; }

 private:
  // What a node's path is, and whether main (or the thread's start routine) has been reached.
  static constexpr uint32_t kNoFold = 0xFFFFFFFFu;
  struct Resolved {
    uint32_t fold = kNoFold;  // the folded module (FoldOf) the innermost kept frame is in
    bool done = false;
    bool in_program = false;  // below main
    bool start_only = true;   // only the C library's start so far
    WalkedPath path;
  };
  const Resolved& Resolve(uint32_t node);
  const elf::FrameName& Name(uint64_t pc);
  const elf::FrameSource& Source(uint64_t pc);
  // An id of `module` if a fold pattern matches it, else kNoFold.
  uint32_t FoldOf(const std::string& module);

  const RankDefs& defs_;
  elf::AddressNames names_;
  FunctionRegions& regions_;
  std::vector<Resolved> resolved_;  // by node id
  std::unordered_map<uint64_t, elf::FrameName> named_;
  std::unordered_map<uint64_t, elf::FrameSource> sources_;
  std::map<std::string, std::set<std::string>> unnamed_;
  std::unordered_map<std::string, uint32_t> folds_;  // FoldOf's answers
};

// The walked functions open on one location while its records are written: they sit in the
// location's stack of open regions above the program region (or at the bottom, on a thread),
// below whatever the next walked call opens.
//
// A walked call or a sample moves the stack to its own path. Between two calls, the functions
// the two paths do not share are left right after the location's previous record and the new
// ones entered right before the call, so that the computation between them stays with the
// deepest function both share (nothing says where the program went in between). Where a sample
// is one of the two, the move is halfway between them: each observation stands for the time up
// to halfway to its neighbours, so that a computation interval is shared among its samples in
// proportion to them (docs/metrics.md). Each record gets a nanosecond of its own where the gap
// allows, so that readers that order by time (Pipit) nest them as written.
//
// A region that is not walked (an OpenMP parallel region) may open above walked functions: the
// functions walked inside it (a sample in the outlined function, a call it makes) open above it,
// in a layer of their own, with the functions below it left out of their paths; when the region
// is left, the layer below is the current one again.
class WalkedStack {
 public:
  // Before an Enter at `t` whose call has `path`, or at a sample (`sample`); `last`: the time of
  // the location's latest record. Returns the records written, or -1 if `open` does not end
  // with the walked functions or `path` does not pass through those of the layers below (the
  // move is left out).
  // Each function entered carries its call site as the attribute `call_site` (if defined).
  long Move(const WalkedPath& path, uint64_t last, uint64_t t, otf2_writer::EventWriter& out,
            std::vector<uint32_t>& open, uint32_t call_site, bool sample = false);

  // Before a Leave at `t` of a region below the walked functions of the current layer (the
  // program region, at the end; a parallel region), or before an OpenMP construct is entered
  // (the functions a sample found stay open only until the next record says otherwise): leaves
  // them all. Returns the records written.
  long LeaveAll(uint64_t last, uint64_t t, otf2_writer::EventWriter& out,
                std::vector<uint32_t>& open);

  // After the Enter of a region that is not walked and holds walked functions of its own (an
  // OpenMP parallel region): a layer begins above it.
  void Nest(const std::vector<uint32_t>& open);

 private:
  struct Layer {
    std::vector<uint32_t> regions;
    size_t base;
    size_t floor;
  };
  // Ends the layers whose region was left. False if `open` does not end with the current
  // layer's functions.
  bool Settle(const std::vector<uint32_t>& open);
  // Moves the current layer to `path` (regions and their call sites, from `from` on).
  long MoveLayer(const WalkedPath& path, size_t from, uint64_t last, uint64_t t,
                 otf2_writer::EventWriter& out, std::vector<uint32_t>& open, uint32_t call_site,
                 bool sample);

  std::vector<uint32_t> regions_;  // the current layer's, outermost first
  size_t base_ = 0;                // where they begin in `open`
  size_t floor_ = 0;               // where the current layer begins in `open`
  std::vector<Layer> below_;       // the layers below the current one, outermost first
  bool sampled_ = false;           // the latest move was a sample's
};

}  // namespace cw::measure::internal
