// libcw-burn.so: spends a fixed CPU time at each of a program's common MPI calls, and nothing
// else, so that run_amplification_benchmark.sh can measure what a CPU second spent at MPI calls
// costs a run's wall-clock time on this machine (on oversubscribed cores, more than the second
// itself: the ranks that wait for the one that spends it spin on the cores they share).
//
// Preloaded (LD_PRELOAD), it defines both entry points of the routines below, MPI_X for the
// program's and its libraries' C calls (ScaLAPACK's BLACS makes most of QE's) and PMPI_X for
// Open MPI's Fortran bindings, which call that name: each call burns once, since Open MPI's
// MPI_X is PMPI_X itself. Each rank counts the calls it burned at and prints "burn: rank R, N
// calls, NS ns each" on standard error at exit, so that the CPU time added is known exactly.
// CW_BURN_NS gives the nanoseconds per call (default 0).
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long burn_ns = -1;
static uint64_t burned_calls = 0;

static uint64_t NowNs(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

// Spins on the clock for burn_ns nanoseconds (a CPU time, unlike a sleep).
static void Burn(void) {
  if (burn_ns < 0) {
    const char* text = getenv("CW_BURN_NS");
    burn_ns = text != NULL ? atol(text) : 0;
  }
  __atomic_fetch_add(&burned_calls, 1, __ATOMIC_RELAXED);  // threads may call MPI too
  if (burn_ns <= 0) return;
  const uint64_t until = NowNs() + (uint64_t)burn_ns;
  while (NowNs() < until) {
  }
}

static void* Next(const char* name) {
  void* next = dlsym(RTLD_NEXT, name);
  if (next == NULL) {
    fprintf(stderr, "burn: %s not found after libcw-burn.so\n", name);
    abort();
  }
  return next;
}

// The launcher's rank variable, not MPI: the wrappers' counts must not count the report's call.
__attribute__((destructor)) static void Report(void) {
  const char* rank = getenv("OMPI_COMM_WORLD_RANK");
  if (rank == NULL) rank = getenv("PMI_RANK");
  fprintf(stderr, "burn: rank %s, %llu calls, %ld ns each\n", rank != NULL ? rank : "?",
          (unsigned long long)burned_calls, burn_ns < 0 ? 0 : burn_ns);
}

// One routine's two wrappers: burn, then the MPI library's routine.
#define BURN_ONE(NAME, PARAMS, ARGS)                     \
  int NAME PARAMS {                                      \
    static int(*next) PARAMS = NULL;                     \
    if (next == NULL) next = (int(*) PARAMS)Next(#NAME); \
    Burn();                                              \
    return next ARGS;                                    \
  }
#define BURN_WRAP(NAME, PARAMS, ARGS) \
  BURN_ONE(P##NAME, PARAMS, ARGS)     \
  BURN_ONE(NAME, PARAMS, ARGS)

BURN_WRAP(MPI_Send, (const void* b, int n, MPI_Datatype t, int d, int g, MPI_Comm c),
          (b, n, t, d, g, c))
BURN_WRAP(MPI_Rsend, (const void* b, int n, MPI_Datatype t, int d, int g, MPI_Comm c),
          (b, n, t, d, g, c))
BURN_WRAP(MPI_Recv, (void* b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Status* st),
          (b, n, t, s, g, c, st))
BURN_WRAP(MPI_Isend,
          (const void* b, int n, MPI_Datatype t, int d, int g, MPI_Comm c, MPI_Request* r),
          (b, n, t, d, g, c, r))
BURN_WRAP(MPI_Irecv, (void* b, int n, MPI_Datatype t, int s, int g, MPI_Comm c, MPI_Request* r),
          (b, n, t, s, g, c, r))
BURN_WRAP(MPI_Sendrecv_replace,
          (void* b, int n, MPI_Datatype t, int d, int sg, int s, int rg, MPI_Comm c,
           MPI_Status* st),
          (b, n, t, d, sg, s, rg, c, st))
BURN_WRAP(MPI_Wait, (MPI_Request * r, MPI_Status* st), (r, st))
BURN_WRAP(MPI_Waitall, (int n, MPI_Request r[], MPI_Status st[]), (n, r, st))
BURN_WRAP(MPI_Testall, (int n, MPI_Request r[], int* f, MPI_Status st[]), (n, r, f, st))
BURN_WRAP(MPI_Bcast, (void* b, int n, MPI_Datatype t, int root, MPI_Comm c), (b, n, t, root, c))
BURN_WRAP(MPI_Barrier, (MPI_Comm c), (c))
BURN_WRAP(MPI_Allreduce, (const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, MPI_Comm c),
          (s, r, n, t, o, c))
BURN_WRAP(MPI_Reduce,
          (const void* s, void* r, int n, MPI_Datatype t, MPI_Op o, int root, MPI_Comm c),
          (s, r, n, t, o, root, c))
BURN_WRAP(MPI_Alltoall,
          (const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, MPI_Comm c),
          (s, sn, st, r, rn, rt, c))
BURN_WRAP(MPI_Allgather,
          (const void* s, int sn, MPI_Datatype st, void* r, int rn, MPI_Datatype rt, MPI_Comm c),
          (s, sn, st, r, rn, rt, c))
BURN_WRAP(MPI_Comm_rank, (MPI_Comm c, int* r), (c, r))
BURN_WRAP(MPI_Comm_size, (MPI_Comm c, int* n), (c, n))
