/* Collectives whose byte counts depend on the MPI standard's argument rules, on 4 processes:
 *
 * - on an intercommunicator between A = {world rank 0} and B = {world ranks 1, 2, 3}, so that
 *   the per-process arrays have remote-group entries (1 in B, 3 in A) and the rooted ones use
 *   MPI_ROOT and MPI_PROC_NULL: Alltoallw (blocking and not), Bcast from either side, Gather,
 *   Scatter, Reduce, Allreduce, Allgather;
 * - on MPI_COMM_WORLD with MPI_IN_PLACE, where the ignored arguments are nonsense that must not
 *   be read (a datatype handle that is no datatype, negative counts, null arrays): Allgather,
 *   Gather, Alltoall, Alltoallv, Scatterv.
 *
 * Every process's results are gathered to rank 0, which prints them: the output must be the
 * same with and without causeway. tests/measure/transparency_test.cc derives the bytes each
 * call moves. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 512

static char out[LINE];

static void Note(const char* what, const int* values, int n) {
  size_t used = strlen(out);
  used += (size_t)snprintf(out + used, LINE - used, " %s", what);
  for (int i = 0; i < n && used < LINE; ++i)
    used += (size_t)snprintf(out + used, LINE - used, "%s%d", i ? "," : "=", values[i]);
}

static void Intercomm(MPI_Comm inter, int in_a, int local_rank) {
  int remote = 0;
  MPI_Comm_remote_size(inter, &remote);
  int *sendcounts = malloc(sizeof(int) * (size_t)remote), *recvcounts = malloc(sizeof(int) * (size_t)remote);
  int *sdispls = malloc(sizeof(int) * (size_t)remote), *rdispls = malloc(sizeof(int) * (size_t)remote);
  MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)remote);
  int sendbuf[16], recvbuf[16];
  /* Alltoallw: remote j gets j + 1 ints; each process receives local_rank + 1 ints from each. */
  int s = 0, r = 0;
  for (int j = 0; j < remote; ++j) {
    sendcounts[j] = j + 1;
    recvcounts[j] = local_rank + 1;
    sdispls[j] = s * (int)sizeof(int);
    rdispls[j] = r * (int)sizeof(int);
    s += sendcounts[j];
    r += recvcounts[j];
    types[j] = MPI_INT;
  }
  for (int i = 0; i < 16; ++i) sendbuf[i] = 100 * (in_a ? 0 : 1) + 10 * local_rank + i;
  memset(recvbuf, 0, sizeof recvbuf);
  MPI_Alltoallw(sendbuf, sendcounts, sdispls, types, recvbuf, recvcounts, rdispls, types, inter);
  Note("alltoallw", recvbuf, r);
  MPI_Request request;
  memset(recvbuf, 0, sizeof recvbuf);
  MPI_Ialltoallw(sendbuf, sendcounts, sdispls, types, recvbuf, recvcounts, rdispls, types, inter,
                 &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  Note("ialltoallw", recvbuf, r);

  /* Bcast of 5 ints from A, then of 2 ints from B's local rank 1. */
  int bcast[5] = {in_a ? 7 : 0, in_a ? 8 : 0, 9, 10, in_a ? 11 : 0};
  MPI_Bcast(bcast, 5, MPI_INT, in_a ? MPI_ROOT : 0, inter);
  Note("bcast_a", bcast, 5);
  int back[2] = {local_rank, 42};
  const int b_root = in_a ? 1 : (local_rank == 1 ? MPI_ROOT : MPI_PROC_NULL);
  MPI_Bcast(back, 2, MPI_INT, b_root, inter);
  Note("bcast_b", back, 2);

  /* Gather of 2 ints per B process to A; Scatter of 3 ints per B process from A. */
  int gathered[6] = {0};
  MPI_Gather(sendbuf, 2, MPI_INT, gathered, 2, MPI_INT, in_a ? MPI_ROOT : 0, inter);
  Note("gather", gathered, in_a ? 6 : 0);
  int scattered[3] = {0};
  int source[9];
  for (int i = 0; i < 9; ++i) source[i] = 1000 + i;
  MPI_Scatter(source, 3, MPI_INT, scattered, 3, MPI_INT, in_a ? MPI_ROOT : 0, inter);
  Note("scatter", scattered, in_a ? 0 : 3);

  /* Reduce of 4 ints from B to A; Allreduce of 2; Allgather of 1. */
  int reduced[4] = {0};
  MPI_Reduce(sendbuf, reduced, 4, MPI_INT, MPI_SUM, in_a ? MPI_ROOT : 0, inter);
  Note("reduce", reduced, in_a ? 4 : 0);
  int all[2] = {0};
  MPI_Allreduce(sendbuf, all, 2, MPI_INT, MPI_SUM, inter);
  Note("allreduce", all, 2);
  int everyone[3] = {0};
  MPI_Allgather(sendbuf, 1, MPI_INT, everyone, 1, MPI_INT, inter);
  Note("allgather", everyone, remote);
  free(sendcounts);
  free(recvcounts);
  free(sdispls);
  free(rdispls);
  free(types);
}

/* A handle that is no datatype: MPI ignores it where MPI_IN_PLACE makes it insignificant, and
 * so must the tracer. */
static double not_a_datatype[8];

static void InPlace(int rank, int size) {
  const MPI_Datatype junk = (MPI_Datatype)(void*)not_a_datatype;
  int buf[16];
  for (int i = 0; i < 16; ++i) buf[i] = 10 * rank + i;
  MPI_Allgather(MPI_IN_PLACE, -3, junk, buf, 2, MPI_INT, MPI_COMM_WORLD);
  Note("allgather_in_place", buf, 2 * size);

  for (int i = 0; i < 16; ++i) buf[i] = 10 * rank + i;
  if (rank == 0) {
    MPI_Gather(MPI_IN_PLACE, -3, junk, buf, 1, MPI_INT, 0, MPI_COMM_WORLD);
    Note("gather_in_place", buf, size);
  } else {
    MPI_Gather(buf, 1, MPI_INT, NULL, -7, junk, 0, MPI_COMM_WORLD);
  }

  for (int i = 0; i < 16; ++i) buf[i] = 10 * rank + i;
  MPI_Alltoall(MPI_IN_PLACE, -3, junk, buf, 1, MPI_INT, MPI_COMM_WORLD);
  Note("alltoall_in_place", buf, size);

  int counts[4] = {1, 1, 1, 1}, displs[4] = {0, 1, 2, 3};
  for (int i = 0; i < 16; ++i) buf[i] = 10 * rank + i;
  MPI_Alltoallv(MPI_IN_PLACE, NULL, NULL, junk, buf, counts, displs, MPI_INT, MPI_COMM_WORLD);
  Note("alltoallv_in_place", buf, size);

  /* Scatterv from rank 1: rank i gets i + 1 ints; the root keeps its own in place. */
  int scounts[4] = {1, 2, 3, 4}, sdispls[4] = {0, 1, 3, 6};
  int source[10];
  for (int i = 0; i < 10; ++i) source[i] = 500 + i;
  if (rank == 1) {
    MPI_Scatterv(source, scounts, sdispls, MPI_INT, MPI_IN_PLACE, -5, junk, 1, MPI_COMM_WORLD);
    Note("scatterv_in_place", source + sdispls[1], scounts[1]);
  } else {
    int got[4] = {0};
    MPI_Scatterv(NULL, NULL, NULL, junk, got, rank + 1, MPI_INT, 1, MPI_COMM_WORLD);
    Note("scatterv_in_place", got, rank + 1);
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) {
    if (rank == 0) fprintf(stderr, "run on 4 processes\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  const int in_a = rank == 0;
  MPI_Comm local, inter;
  MPI_Comm_split(MPI_COMM_WORLD, in_a ? 0 : 1, rank, &local);
  int local_rank = 0;
  MPI_Comm_rank(local, &local_rank);
  /* Leaders: world rank 0 for A, world rank 1 (B's local rank 0) for B. */
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? 1 : 0, 77, &inter);
  snprintf(out, LINE, "rank %d:", rank);
  Intercomm(inter, in_a, local_rank);
  InPlace(rank, size);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);

  char all[4][LINE];
  MPI_Gather(out, LINE, MPI_CHAR, all, LINE, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r) printf("%s\n", all[r]);
  MPI_Finalize();
  return 0;
}
