/* causeway's user-region API: marks named phases and loops of a program in its trace or its
 * task activity graph.
 *
 *   #include <causeway/causeway.h>
 *   CAUSEWAY_REGION_BEGIN("solve");  ...  CAUSEWAY_REGION_END("solve");
 *   { causeway::ScopedRegion r("assemble"); ... }     // C++: ends with the scope
 *
 *   CAUSEWAY_LOOP_BEGIN("halo");
 *   for (int i = 0; i < n; ++i) {
 *     CAUSEWAY_LOOP_ITERATION("halo");                 // first thing of every iteration
 *     ...
 *   }
 *   CAUSEWAY_LOOP_END("halo");
 *
 * A loop is a region of the loop role in a trace, and its iterations zero-length regions named
 * "<loop> iteration"; `causeway tag` and `causeway trace --tag` make its begin and end the
 * loop_entry and loop_exit nodes of the task activity graph, count its iterations, and
 * delimit its causal execution paths by them.
 *
 * Compile with -I<causeway>/include; no library is needed at link time. The functions are weak
 * references that libcauseway-mpi.so (preloaded by `causeway trace`) provides: a program run
 * without it skips the calls. Regions are recorded between MPI_Init and MPI_Finalize, on the
 * thread that initialised MPI, and must nest: an end that does not match the innermost open
 * region is ignored and counted.
 */
#ifndef CAUSEWAY_CAUSEWAY_H_
#define CAUSEWAY_CAUSEWAY_H_

#ifdef __cplusplus
extern "C" {
#endif

void causeway_region_begin(const char* name) __attribute__((weak));
void causeway_region_end(const char* name) __attribute__((weak));
void causeway_loop_begin(const char* name) __attribute__((weak));
void causeway_loop_iteration(const char* name) __attribute__((weak));
void causeway_loop_end(const char* name) __attribute__((weak));

#ifdef __cplusplus
}
#endif

#define CAUSEWAY_REGION_BEGIN(name)                         \
  do {                                                      \
    if (causeway_region_begin) causeway_region_begin(name); \
  } while (0)
#define CAUSEWAY_REGION_END(name)                       \
  do {                                                  \
    if (causeway_region_end) causeway_region_end(name); \
  } while (0)

#define CAUSEWAY_LOOP_BEGIN(name)                       \
  do {                                                  \
    if (causeway_loop_begin) causeway_loop_begin(name); \
  } while (0)
#define CAUSEWAY_LOOP_ITERATION(name)                           \
  do {                                                          \
    if (causeway_loop_iteration) causeway_loop_iteration(name); \
  } while (0)
#define CAUSEWAY_LOOP_END(name)                     \
  do {                                              \
    if (causeway_loop_end) causeway_loop_end(name); \
  } while (0)

#ifdef __cplusplus
namespace causeway {

/* Begins a region on construction and ends it on destruction. `name` must outlive it. */
class ScopedRegion {
 public:
  explicit ScopedRegion(const char* name) : name_(name) { CAUSEWAY_REGION_BEGIN(name_); }
  ~ScopedRegion() { CAUSEWAY_REGION_END(name_); }
  ScopedRegion(const ScopedRegion&) = delete;
  ScopedRegion& operator=(const ScopedRegion&) = delete;

 private:
  const char* name_;
};

}  // namespace causeway
#endif

#endif /* CAUSEWAY_CAUSEWAY_H_ */
