/* What a stack walk costs with each unwinder this system offers, and what the cheapest walk
 * conceivable costs: the time of one walk of a stack DEPTH functions deep (plus main and the C
 * library's start), with the caches warm and after the program computed through a buffer that
 * evicts them, as a numerical kernel between two MPI calls does.
 *
 *   libunwind     unw_backtrace of Debian's libunwind, loaded as libcauseway-mpi.so loads it
 *                 (dlopen, RTLD_LOCAL, its rule cache asked to be per thread): what the tracer
 *                 walks with.
 *   glibc         backtrace(), which walks with libgcc's unwinder (_Unwind_Backtrace): it finds
 *                 each frame's rule in the module's .eh_frame_hdr and interprets it every time.
 *   frame chain   the saved frame pointers of the benchmark's own frames, which are built with
 *                 them: one load of the return address and one of the next frame per frame, the
 *                 least any unwinder must read. Not an option for the tracer (Debian builds
 *                 programs and libraries without frame pointers); it is the floor.
 *
 * Usage: unwinder-bench [DEPTH] [WALKS]. Prints one line per unwinder and cache state:
 * nanoseconds per walk (the fastest and the median of WALKS walks) and frames walked. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <execinfo.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kMaxFrames = 256 };

typedef int (*Walk)(void** pcs, int capacity);

static int (*unw_backtrace_fn)(void**, int);

static int WalkLibunwind(void** pcs, int capacity) { return unw_backtrace_fn(pcs, capacity); }

static int WalkGlibc(void** pcs, int capacity) { return backtrace(pcs, capacity); }

/* The frames from here up to main: each frame's saved frame pointer, then its return address. */
static void* main_frame;
static int WalkFrameChain(void** pcs, int capacity) {
  void** frame = (void**)__builtin_frame_address(0);
  int n = 0;
  while (frame != NULL && n < capacity) {
    pcs[n++] = frame[1];
    if ((void*)frame == main_frame) break;
    frame = (void**)frame[0];
  }
  return n;
}

/* Bytes a numerical kernel streams through between two walks; 0: none (caches warm). */
static size_t evict_bytes;
static volatile uint64_t* evict_buffer;
static volatile uint64_t sink;

static void Evict(void) {
  uint64_t sum = 0;
  for (size_t i = 0; i < evict_bytes / sizeof(uint64_t); i += 8) {
    evict_buffer[i] += 1;
    sum += evict_buffer[i];
  }
  sink += sum;
}

static double Now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec * 1e9 + (double)t.tv_nsec;
}

static int CompareDoubles(const void* a, const void* b) {
  const double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

/* Times WALKS walks of `walk` at the bottom of the recursion; returns the frames of the last. */
static int frames_walked;
static double* times;
static __attribute__((noinline)) void Bottom(Walk walk, int walks) {
  void* pcs[kMaxFrames];
  for (int i = 0; i < walks; ++i) {
    if (evict_bytes > 0) Evict();
    const double start = Now();
    frames_walked = walk(pcs, kMaxFrames);
    times[i] = Now() - start;
  }
}

static __attribute__((noinline)) void Nest(int depth, Walk walk, int walks) {
  if (depth > 0) {
    Nest(depth - 1, walk, walks);
    sink = sink + 1; /* not a tail call: each level keeps its frame */
    return;
  }
  Bottom(walk, walks);
}

static void Measure(const char* name, Walk walk, int depth, int walks, double clock_cost) {
  Nest(depth, walk, walks);
  qsort(times, (size_t)walks, sizeof(double), CompareDoubles);
  printf("  %-12s %-15s %8.0f ns per walk (median %8.0f), %d frames\n", name,
         evict_bytes == 0            ? "warm"
         : evict_bytes < (16u << 20) ? "L2 evicted"
                                     : "all evicted",
         times[0] - clock_cost, times[walks / 2] - clock_cost, frames_walked);
}

int main(int argc, char** argv) {
  main_frame = __builtin_frame_address(0);
  const int depth = argc > 1 ? atoi(argv[1]) : 20;
  const int walks = argc > 2 ? atoi(argv[2]) : 2000;
  if (depth < 0 || depth > 200 || walks < 1) {
    fprintf(stderr, "usage: unwinder-bench [DEPTH (0-200)] [WALKS]\n");
    return 2;
  }
  times = malloc(sizeof(double) * (size_t)walks);
  evict_buffer = malloc(64u << 20);
  if (times == NULL || evict_buffer == NULL) return 1;
  memset((void*)evict_buffer, 1, 64u << 20);

  void* library = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
  if (library != NULL) {
    unw_backtrace_fn = (int (*)(void**, int))dlsym(library, "unw_backtrace");
    int (*set_caching)(void*, int) =
        (int (*)(void*, int))dlsym(library, "_ULx86_64_set_caching_policy");
    void** address_space = (void**)dlsym(library, "_ULx86_64_local_addr_space");
    if (set_caching != NULL && address_space != NULL) set_caching(*address_space, 2);
  }

  /* What reading the clock twice costs, taken off every figure. */
  double clock_cost = 1e9;
  for (int i = 0; i < 1000; ++i) {
    const double start = Now();
    const double t = Now() - start;
    if (t < clock_cost) clock_cost = t;
  }

  printf("a walk %d functions deep, %d walks each\n", depth, walks);
  const size_t evictions[] = {0, 4u << 20, 64u << 20};
  for (int e = 0; e < 3; ++e) {
    evict_bytes = evictions[e];
    const int n = e == 2 ? (walks < 300 ? walks : 300) : walks; /* 64 MiB: 5-10 ms a walk */
    if (unw_backtrace_fn != NULL) Measure("libunwind", WalkLibunwind, depth, n, clock_cost);
    Measure("glibc", WalkGlibc, depth, n, clock_cost);
    Measure("frame chain", WalkFrameChain, depth, n, clock_cost);
  }
  return 0;
}
