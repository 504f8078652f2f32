#include "measure/runtime/calling_contexts.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "measure/core/patterns.h"
#include "measure/raw/raw_format.h"
#include "measure/runtime/hooks.h"
#include "measure/runtime/recorder.h"
#include "measure/runtime/sampling.h"
#include "measure/stack_walk/stack_walker.h"

namespace cw::measure::hook {
namespace {

struct NodeKey {
  uint32_t parent;
  uintptr_t pc;
  bool operator==(const NodeKey& o) const { return parent == o.parent && pc == o.pc; }
};
struct NodeKeyHash {
  size_t operator()(const NodeKey& k) const {
    return std::hash<uintptr_t>()(k.pc * 0x9E3779B97F4A7C15ull ^ k.parent);
  }
};

// The rank's calling-context tree. Guarded as the rest of State is (HookLock).
struct ContextTree {
  bool walk = true;
  uint32_t max_depth = kDefaultMaxDepth;
  stack_walk::StackWalker* walker = nullptr;
  std::unordered_map<NodeKey, uint32_t, NodeKeyHash> nodes;
  uint32_t next = 1;
  uint64_t cut_short = 0;  // paths that ended early: the tree was full
  // Walks deeper than max_depth (their outermost frames are missing): counted by every thread.
  std::atomic<uint64_t> truncated{0};
  // The walks at calls of the threads counted so far, and the timer units they took.
  std::atomic<uint64_t> walks{0};
  std::atomic<uint64_t> ticks{0};
};

ContextTree& Tree() {
  static ContextTree* tree = new ContextTree();  // never destroyed: wrappers run during exit
  return *tree;
}

// The node of `pc` under `parent`, defining it on first use; 0 if the tree is full.
uint32_t Intern(ContextTree& tree, uint32_t parent, uintptr_t pc) {
  auto [it, inserted] = tree.nodes.try_emplace(NodeKey{parent, pc}, tree.next);
  if (!inserted) return it->second;
  if (tree.next > kMaxCallingContexts) {
    tree.nodes.erase(it);
    return 0;
  }
  ++tree.next;
  char line[96];
  std::snprintf(line, sizeof line, "frame %" PRIu32 " %" PRIu32 " %" PRIxPTR, it->second, parent,
                pc);
  S().log.Define(line);
  return it->second;
}

// The slot of (parent, pc) in a thread's recent nodes.
uint32_t RecentSlot(uint32_t parent, uintptr_t pc) {
  const uint64_t h =
      (static_cast<uint64_t>(pc) ^ (static_cast<uint64_t>(parent) << 32)) * 0x9E3779B97F4A7C15ull;
  return static_cast<uint32_t>(h >> 54) & (kNodeCacheSlots - 1);
}

// Two independent hashes of a walk (`depth` return addresses), for PathCacheSlot.
struct PathHash {
  uint64_t hash;
  uint64_t check;
};
PathHash HashPath(const uintptr_t* pcs, uint32_t depth) {
  uint64_t a = 0x9E3779B97F4A7C15ull ^ depth;
  uint64_t b = 0xC2B2AE3D27D4EB4Full + depth;
  for (uint32_t i = 0; i < depth; ++i) {
    const uint64_t pc = pcs[i];
    a = (a ^ pc) * 0xFF51AFD7ED558CCDull;
    a ^= a >> 29;
    b = (b + pc) * 0xC4CEB9FE1A85EC53ull;
    b ^= b >> 32;
  }
  return PathHash{a, b};
}

// The node of a walk at a call: from the thread's recent paths, or interned (and remembered).
uint32_t NodeOfCallPath(ThreadState& t, const uintptr_t* innermost_first, uint32_t depth) {
  WalkCache& cache = t.walk_cache;
  if (cache.paths == nullptr) cache.paths = new PathCacheSlot[kPathCacheSlots]();
  const PathHash h = HashPath(innermost_first, depth);
  PathCacheSlot& slot = cache.paths[h.hash & (kPathCacheSlots - 1)];
  if (slot.node != 0 && slot.hash == h.hash && slot.check == h.check && slot.depth == depth)
    return slot.node;
  const uint32_t node = InternWalk(t, innermost_first, depth);
  // A path cut short (the tree is full) is interned, and counted, every time.
  if (node != 0 && cache.depth == depth) slot = PathCacheSlot{h.hash, h.check, depth, node};
  return node;
}

}  // namespace

void StartCallingContexts() {
  ContextTree& tree = Tree();
  const char* mode = std::getenv("CAUSEWAY_CALLPATHS");
  tree.walk = mode == nullptr || std::strcmp(mode, "none") != 0;
  if (const char* depth = std::getenv("CAUSEWAY_MAX_DEPTH"); depth != nullptr) {
    const unsigned long n = std::strtoul(depth, nullptr, 10);
    if (n > 0) tree.max_depth = static_cast<uint32_t>(n < kMaxWalkDepth ? n : kMaxWalkDepth);
  }
  if (tree.walk && tree.walker == nullptr) tree.walker = new stack_walk::StackWalker();
  // The modules whose frames the exporter folds (causeway trace --fold), for the raw files.
  for (const std::string& pattern : SplitPatterns(std::getenv("CAUSEWAY_FOLD"))) {
    if (pattern.find('\n') == std::string::npos) S().log.Define("fold " + pattern);
  }
}

bool WalkingCalls() { return Tree().walk; }

uint32_t WalkedContext(ThreadState& t, uint32_t skip) {
  ContextTree& tree = Tree();
  if (!tree.walk || tree.walker == nullptr) return 0;
  if (t.index == 0 && !S().frames.empty()) return 0;
  SamplingPause pause(t);  // one walk at a time on a thread
  const uint64_t start = Now();
  uintptr_t walked[kMaxWalkDepth + 2];
  const uint32_t capacity = tree.max_depth + skip;
  uint32_t n = tree.walker->Walk(walked, capacity + 1);
  if (n > capacity) {
    tree.truncated.fetch_add(1, std::memory_order_relaxed);
    n = capacity;
  }
  const uint32_t node = n > skip ? NodeOfCallPath(t, walked + skip, n - skip) : 0;
  ++t.walk_cache.walks;
  t.walk_cache.ticks += Now() - start;
  return node;
}

void ReleaseWalkCache(WalkCache& cache) {
  delete[] cache.paths;
  cache.paths = nullptr;
}

void CountWalks(ThreadState& t) {
  ContextTree& tree = Tree();
  tree.walks.fetch_add(t.walk_cache.walks, std::memory_order_relaxed);
  tree.ticks.fetch_add(t.walk_cache.ticks, std::memory_order_relaxed);
  t.walk_cache.walks = t.walk_cache.ticks = 0;
}

uint32_t WalkForSample(uintptr_t* pcs, uint32_t capacity) {
  ContextTree& tree = Tree();
  if (tree.walker == nullptr) return 0;
  return tree.walker->Walk(pcs, capacity < tree.max_depth ? capacity : tree.max_depth);
}

uint32_t InternWalk(ThreadState& t, const uintptr_t* innermost_first, uint32_t depth) {
  ContextTree& tree = Tree();
  if (depth == 0) return 0;
  // The outer frames this walk shares with the thread's previous one keep their nodes.
  WalkCache& cache = t.walk_cache;
  uint32_t shared = 0;
  while (shared < depth && shared < cache.depth &&
         cache.pcs[shared] == innermost_first[depth - 1 - shared])
    ++shared;
  uint32_t node = shared > 0 ? cache.nodes[shared - 1] : 0;
  if (shared == depth) {
    cache.depth = depth;
    return node;
  }
  // New frames: first the thread's recent nodes; then the tree and the definitions file, which
  // are the rank's, shared by its threads (never called with the lock held: call scopes begin
  // before a wrapper's hooks take it), locked once for the rest of the walk.
  std::optional<HookLock> lock;
  for (uint32_t k = shared; k < depth; ++k) {
    const uintptr_t pc = innermost_first[depth - 1 - k];
    NodeCacheSlot& recent = cache.recent[RecentSlot(node, pc)];
    uint32_t child = recent.node != 0 && recent.parent == node && recent.pc == pc ? recent.node : 0;
    if (child == 0) {
      if (!lock) lock.emplace();
      child = Intern(tree, node, pc);
      if (child == 0) {
        ++tree.cut_short;
        cache.depth = k;
        return node;
      }
      recent = NodeCacheSlot{pc, node, child};
    }
    node = child;
    cache.pcs[k] = pc;
    cache.nodes[k] = node;
  }
  cache.depth = depth;
  return node;
}

void SaveMemoryMap(const std::string& dir, int rank) {
  ContextTree& tree = Tree();
  // Saved even without walks: it also names where OpenMP constructs are (omp_hooks.cc).
  const int in = ::open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
  if (in < 0) return;
  const std::string path = RawMapsPath(dir, rank);
  const int out = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  char buffer[1 << 14];
  ssize_t n = 0;
  while (out >= 0 && (n = ::read(in, buffer, sizeof buffer)) > 0) {
    if (::write(out, buffer, static_cast<size_t>(n)) != n) break;
  }
  if (out >= 0) ::close(out);
  ::close(in);
  if (tree.walks.load() > 0) {
    S().log.Define("walks " + std::to_string(tree.truncated.load()) + " " +
                   std::to_string(tree.cut_short) + " " + std::to_string(tree.walks.load()) + " " +
                   std::to_string(tree.ticks.load()));
  }
}

}  // namespace cw::measure::hook
