/* Point-to-point on an intercommunicator, 4 processes: A = world ranks {0, 2} and B = {1, 3}
 * (split by parity), joined by MPI_Intercomm_create. A's local rank i computes 100 ms, then sends
 * to B's local rank i (MPI_Send), which waits in MPI_Recv from MPI_ANY_SOURCE: a Late Sender of
 * 100 ms at world ranks 1 and 3, whose partners are world ranks 0 and 2. Then B's ranks answer
 * with MPI_Isend, which A receives after an MPI_Probe with MPI_Irecv and MPI_Wait; an
 * MPI_Sendrecv crosses both ways; the merged intracommunicator (MPI_Intercomm_merge, A first)
 * carries one message from its last rank to its first. Rank 0 prints what everybody got. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

static void Compute(double seconds) {
  const double end = MPI_Wtime() + seconds;
  while (MPI_Wtime() < end) {
  }
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) MPI_Abort(MPI_COMM_WORLD, 2);
  const int in_a = rank % 2 == 0;
  MPI_Comm local, inter, merged;
  MPI_Comm_split(MPI_COMM_WORLD, in_a ? 0 : 1, rank, &local);
  int me;
  MPI_Comm_rank(local, &me);
  MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, in_a ? 1 : 0, 9, &inter);
  int got[4] = {-1, -1, -1, -1};
  MPI_Status status;
  if (in_a) {
    Compute(0.1);
    const int value = 100 + rank;
    MPI_Send(&value, 1, MPI_INT, me, 1, inter);
    MPI_Probe(me, 2, inter, &status);
    MPI_Request request;
    MPI_Irecv(&got[1], 1, MPI_INT, status.MPI_SOURCE, 2, inter, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&got[0], 1, MPI_INT, MPI_ANY_SOURCE, 1, inter, &status);
    got[1] = status.MPI_SOURCE;
    const int value = 200 + rank;
    MPI_Request request;
    MPI_Isend(&value, 1, MPI_INT, me, 2, inter, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  const int mine = 300 + rank;
  MPI_Sendrecv(&mine, 1, MPI_INT, me, 3, &got[2], 1, MPI_INT, me, 3, inter, MPI_STATUS_IGNORE);
  MPI_Intercomm_merge(inter, in_a ? 0 : 1, &merged);
  int merged_rank, merged_size;
  MPI_Comm_rank(merged, &merged_rank);
  MPI_Comm_size(merged, &merged_size);
  if (merged_rank == merged_size - 1) MPI_Send(&mine, 1, MPI_INT, 0, 4, merged);
  if (merged_rank == 0)
    MPI_Recv(&got[3], 1, MPI_INT, merged_size - 1, 4, merged, MPI_STATUS_IGNORE);
  int all[16];
  MPI_Gather(got, 4, MPI_INT, all, 4, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r)
      printf("rank %d: %d %d %d %d\n", r, all[4 * r], all[4 * r + 1], all[4 * r + 2],
             all[4 * r + 3]);
  MPI_Comm_free(&merged);
  MPI_Comm_free(&inter);
  MPI_Comm_free(&local);
  MPI_Finalize();
  return 0;
}
