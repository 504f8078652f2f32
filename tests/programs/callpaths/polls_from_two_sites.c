/* Polls that come through one helper from two call sites in turn, for the tracer's call paths of
 * polling calls: built with -O1 -g and no instrumentation. Rank 0 posts a receive, then calls
 * check() (one MPI_Test) three times from site_a and three times from site_b, in turn, until the
 * message is there: every MPI_Test is made from the same return address in check(), with nothing
 * else recorded between, but the calls from site_a have the path main/site_a/check/MPI_Test and
 * those from site_b main/site_b/check/MPI_Test. After ROUNDS rounds of six calls (default 300)
 * rank 0 tells rank 1 to send, so that each site polls at least 3 ROUNDS times however the ranks
 * are scheduled. Rank 0 prints how many calls each site made.
 * Usage: polls_from_two_sites [ROUNDS]; 2 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static MPI_Request request;

/* The empty asm after each call keeps it a call (no tail call), so that its frame stays. */
__attribute__((noinline)) static int check(void) {
  int done = 0;
  MPI_Test(&request, &done, MPI_STATUS_IGNORE);
  __asm__ volatile("" ::: "memory");
  return done;
}

__attribute__((noinline)) static int site_a(long* calls) {
  ++*calls;
  const int done = check();
  __asm__ volatile("" ::: "memory");
  return done;
}

__attribute__((noinline)) static int site_b(long* calls) {
  ++*calls;
  const int done = check();
  __asm__ volatile("" ::: "memory");
  return done;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const long rounds = argc > 1 ? atol(argv[1]) : 300;
  int rank, value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    long from_a = 0, from_b = 0, round = 0;
    int done = 0;
    MPI_Irecv(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request);
    while (!done) {
      for (int i = 0; i < 3 && !done; ++i) done = site_a(&from_a);
      for (int i = 0; i < 3 && !done; ++i) done = site_b(&from_b);
      if (++round == rounds) MPI_Send(&rank, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    }
    printf("site_a %ld site_b %ld\n", from_a, from_b);
  } else if (rank == 1) {
    MPI_Recv(&value, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
