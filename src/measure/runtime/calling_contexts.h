// The call path of every recorded call (causeway trace --callpaths): a walk of the calling
// thread's stack at the call, its return addresses interned as calling-context nodes.
//
// A node is one return address under its parent node (the rank's calling-context tree, as
// Score-P's unwinding defines it): the tree's root is the outermost frame. Each new node is
// written to the rank's definitions as "frame ID PARENT PC" (raw_format.h), and an Enter record
// carries the node of its call in `b`. Nothing is named here: the exporter names the return
// addresses after the run from the rank's saved memory map (DIR/raw/rank-<r>.maps), drops the
// frames of the MPI library, libc and causeway, and turns the nodes into the program's
// functions (measure/export/internal/walked_paths.h).
//
// A thread remembers its recent walks by their whole path, so that a call from a path it walked
// recently is one lookup, and its previous walk: a new path shares its outer frames with it, so
// that only the frames that changed are looked up. The tree is bounded (kMaxCallingContexts); a
// path that does not fit ends at its deepest node that does, and the rank's definitions count it.
#pragma once

#include <cstdint>
#include <string>

#include "measure/raw/tracer_defaults.h"

namespace cw::measure::hook {

struct ThreadState;

inline constexpr uint32_t kMaxCallingContexts = 1u << 20;
inline constexpr uint32_t kMaxWalkDepth = 512;

// A thread's own copy of the tree's nodes it looked up recently, direct-mapped by parent and
// return address: a walk whose frames differ from the previous walk's finds most of them here,
// without the rank's lock and its hash table. Nodes are never removed from the tree, so an entry
// stays right.
inline constexpr uint32_t kNodeCacheSlots = 1024;
struct NodeCacheSlot {
  uintptr_t pc = 0;
  uint32_t parent = 0;
  uint32_t node = 0;  // 0: empty
};

// A thread's recent walks at calls by their whole path, direct-mapped by a hash of it: a program
// whose calls come from a few hundred call sites in turn (wrappers per type and size, as Quantum
// ESPRESSO's) changes many frames from one walk to the next, and finds the whole path here with
// one lookup instead of one per changed frame. A slot is taken to hold the path when two
// independent 64-bit hashes and the depth agree. CP2K calls and forks from about 6,000 paths per
// rank: in 4096 slots 37 % of its walks missed, in 16384 (384 KiB a walking thread) 17 %, most of
// them paths walked for the first time.
inline constexpr uint32_t kPathCacheSlots = 16384;
struct PathCacheSlot {
  uint64_t hash = 0;
  uint64_t check = 0;
  uint32_t depth = 0;
  uint32_t node = 0;  // 0: empty
};

// What a thread keeps of its previous walk: its return addresses and their nodes, outermost
// first.
struct WalkCache {
  uint64_t walks = 0;  // the thread's walks at calls, and the timer units they took
  uint64_t ticks = 0;
  uint32_t depth = 0;
  uintptr_t pcs[kMaxWalkDepth];
  uint32_t nodes[kMaxWalkDepth];
  NodeCacheSlot recent[kNodeCacheSlots];
  PathCacheSlot* paths = nullptr;  // kPathCacheSlots, allocated at the thread's first walk
};

// Reads CAUSEWAY_CALLPATHS (none, calls, sampled; "sampled" if unset) and CAUSEWAY_MAX_DEPTH
// (frames kept, the innermost ones; kDefaultMaxDepth if unset), when the recorder starts.
void StartCallingContexts();

// Whether calls are walked.
bool WalkingCalls();

// The node of the caller's call path (the caller of the wrapper that calls this), or 0 if calls
// are not walked here: call paths are off, or a user region or instrumented function of the
// main thread is open (its frames nest in the walked path of the outermost one). `skip`: frames
// of the program to leave out at the inner end (1 for an instrumented function's entry, whose
// own frame is its region).
uint32_t WalkedContext(ThreadState& t, uint32_t skip = 0);

// A walk of the calling thread's stack for a sample (async-signal-safe): up to the depth kept
// and `capacity`, innermost first; returns how many.
uint32_t WalkForSample(uintptr_t* pcs, uint32_t capacity);

// The node of a walk (`depth` return addresses, innermost first), interning what is new.
uint32_t InternWalk(ThreadState& t, const uintptr_t* innermost_first, uint32_t depth);

// Frees what a thread's walks allocated (when the thread ends).
void ReleaseWalkCache(WalkCache& cache);

// Adds a thread's walks to the rank's count (when the thread ends, or at MPI_Finalize).
void CountWalks(ThreadState& t);

// Copies /proc/self/maps to the rank's maps file (at the start, and again at the end for the
// libraries loaded since).
void SaveMemoryMap(const std::string& dir, int rank);

}  // namespace cw::measure::hook
