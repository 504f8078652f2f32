/* Calls from many call paths in turn, for the tracer's per-thread caches of walked paths
 * (calling_contexts.h): built with -O1 -g and no instrumentation. A call to MPI_Barrier goes
 * through LEVELS levels of two functions each, level n's choice being bit n of the path's number:
 * 2^LEVELS paths, main/l0a|l0b/l1a|l1b/.../MPI_Barrier. Each of ROUNDS rounds visits every path
 * once, in an order that changes from round to round (path (k * 5 + round) mod 2^LEVELS for k =
 * 0, 1, ...), so consecutive walks differ at every depth, and hundreds of the paths (of 4096
 * with LEVELS 12) share one of the cache's direct-mapped slots with another and evict each
 * other. Every path is visited exactly ROUNDS times per rank.
 * Usage: paths_in_turn [ROUNDS [LEVELS]] (LEVELS at most 13); any number of ranks. */
#include <mpi.h>
#include <stdlib.h>

#define ALWAYS_INLINE __attribute__((always_inline)) static inline
/* The empty asm after each call keeps it a call (no tail call), so that its frame stays. */
#define LEVEL(n, next)                                        \
  __attribute__((noinline)) static void l##n##a(unsigned p) { \
    next(p);                                                  \
    __asm__ volatile("");                                     \
  }                                                           \
  __attribute__((noinline)) static void l##n##b(unsigned p) { \
    next(p);                                                  \
    __asm__ volatile("");                                     \
  }                                                           \
  ALWAYS_INLINE void d##n(unsigned p) {                       \
    if ((p >> n) & 1u)                                        \
      l##n##b(p);                                             \
    else                                                      \
      l##n##a(p);                                             \
  }

static int levels = 13;

/* Below the last level the path's own levels end: the call is made at level `levels`. */
ALWAYS_INLINE void at_leaf(unsigned p) {
  (void)p;
  MPI_Barrier(MPI_COMM_WORLD);
}

/* d12 .. d0: each level calls the next one, or the barrier once `levels` levels are passed. */
ALWAYS_INLINE void d13(unsigned p) { at_leaf(p); }
LEVEL(12, d13)
ALWAYS_INLINE void n12(unsigned p) {
  if (levels > 12)
    d12(p);
  else
    at_leaf(p);
}
LEVEL(11, n12)
ALWAYS_INLINE void n11(unsigned p) {
  if (levels > 11)
    d11(p);
  else
    at_leaf(p);
}
LEVEL(10, n11)
ALWAYS_INLINE void n10(unsigned p) {
  if (levels > 10)
    d10(p);
  else
    at_leaf(p);
}
LEVEL(9, n10)
ALWAYS_INLINE void n9(unsigned p) {
  if (levels > 9)
    d9(p);
  else
    at_leaf(p);
}
LEVEL(8, n9)
ALWAYS_INLINE void n8(unsigned p) {
  if (levels > 8)
    d8(p);
  else
    at_leaf(p);
}
LEVEL(7, n8)
ALWAYS_INLINE void n7(unsigned p) {
  if (levels > 7)
    d7(p);
  else
    at_leaf(p);
}
LEVEL(6, n7)
ALWAYS_INLINE void n6(unsigned p) {
  if (levels > 6)
    d6(p);
  else
    at_leaf(p);
}
LEVEL(5, n6)
ALWAYS_INLINE void n5(unsigned p) {
  if (levels > 5)
    d5(p);
  else
    at_leaf(p);
}
LEVEL(4, n5)
ALWAYS_INLINE void n4(unsigned p) {
  if (levels > 4)
    d4(p);
  else
    at_leaf(p);
}
LEVEL(3, n4)
ALWAYS_INLINE void n3(unsigned p) {
  if (levels > 3)
    d3(p);
  else
    at_leaf(p);
}
LEVEL(2, n3)
ALWAYS_INLINE void n2(unsigned p) {
  if (levels > 2)
    d2(p);
  else
    at_leaf(p);
}
LEVEL(1, n2)
ALWAYS_INLINE void n1(unsigned p) {
  if (levels > 1)
    d1(p);
  else
    at_leaf(p);
}
LEVEL(0, n1)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int rounds = argc > 1 ? atoi(argv[1]) : 3;
  if (argc > 2) levels = atoi(argv[2]);
  if (levels < 1 || levels > 13) levels = 13;
  const unsigned paths = 1u << levels;
  for (int round = 0; round < rounds; ++round) {
    for (unsigned k = 0; k < paths; ++k) d0((k * 5u + (unsigned)round) & (paths - 1));
  }
  MPI_Finalize();
  return 0;
}
