/* Waiting in the non-blocking v-collectives for the processes that send data (mpi_wait_senders):
 * a rank starts the exchange, computes, and waits in the call that completes it for the
 * processes that send it data to start theirs. 4 ranks, on a communicator whose ranks run in the
 * reverse order of MPI_COMM_WORLD's (so that the tracer must translate them).
 * 1. MPI_Ialltoallv, completed by MPI_Wait, then 2. MPI_Ialltoallw, completed by MPI_Waitall:
 *    each rank receives one int from some ranks only (world ranks): 0 from 1; 1 from 0 and from
 *    itself; 2 from 3; 3 from 2. World rank 0 starts 200 ms after the others; the others compute
 *    100 ms between the start and the completing call. Expected: world rank 1 waits about
 *    100 ms in the completing call, for rank 0 (200 ms from its start, 100 of which it
 *    computed); ranks 2 and 3 exchange only with each other and do not wait; rank 0 starts last.
 * 3. MPI_Iallgatherv, completed by MPI_Waitany: world rank 0 contributes nothing and starts
 *    400 ms late, world rank 2 contributes one int and starts 200 ms late, ranks 1 and 3 one
 *    int each and complete at once. Expected: ranks 1 and 3 wait about 200 ms, for rank 2;
 *    ranks 0 and 2 do not wait.
 * Every rank prints what it received. Run with 4 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

#define RANKS 4
#define DELAY_NS 200000000L

/* receives[r][s]: world rank r receives from world rank s. */
static const int receives[RANKS][RANKS] = {
    {0, 1, 0, 0}, {1, 1, 0, 0}, {0, 0, 0, 1}, {0, 0, 1, 0}};

static void compute(long ns) {
  struct timespec ts = {ns / 1000000000L, ns % 1000000000L};
  nanosleep(&ts, NULL);
}

int main(int argc, char** argv) {
  int world_rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != RANKS) {
    if (world_rank == 0) fprintf(stderr, "nonblocking_vcollective_wait needs %d ranks\n", RANKS);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Comm reversed;
  MPI_Comm_split(MPI_COMM_WORLD, 0, RANKS - world_rank, &reversed);
  int send[RANKS], recv[RANKS], sendcounts[RANKS], recvcounts[RANKS], displs[RANKS];
  int sdispls_bytes[RANKS], rdispls_bytes[RANKS];
  MPI_Datatype types[RANKS];
  for (int c = 0; c < RANKS; ++c) {
    const int peer = RANKS - 1 - c; /* the world rank of rank c of `reversed` */
    send[c] = 100 * world_rank + peer;
    recv[c] = -1;
    sendcounts[c] = receives[peer][world_rank];
    recvcounts[c] = receives[world_rank][peer];
    displs[c] = c;
    sdispls_bytes[c] = rdispls_bytes[c] = c * (int)sizeof(int);
    types[c] = MPI_INT;
  }
  MPI_Request request;
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank == 0) compute(DELAY_NS);
  MPI_Ialltoallv(send, sendcounts, displs, MPI_INT, recv, recvcounts, displs, MPI_INT, reversed,
                 &request);
  if (world_rank != 0) compute(DELAY_NS / 2);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank == 0) compute(DELAY_NS);
  MPI_Ialltoallw(send, sendcounts, sdispls_bytes, types, recv, recvcounts, rdispls_bytes, types,
                 reversed, &request);
  if (world_rank != 0) compute(DELAY_NS / 2);
  MPI_Waitall(1, &request, MPI_STATUSES_IGNORE);
  for (int c = 0; c < RANKS; ++c) {
    if (recvcounts[c] > 0) printf("rank %d got %d\n", world_rank, recv[c]);
  }

  int mine = 1000 + world_rank, gathered[RANKS], gather_counts[RANKS], index;
  for (int c = 0; c < RANKS; ++c) {
    gather_counts[c] = RANKS - 1 - c == 0 ? 0 : 1; /* world rank 0 contributes nothing */
    gathered[c] = -1;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (world_rank == 0) compute(2 * DELAY_NS);
  if (world_rank == 2) compute(DELAY_NS);
  MPI_Iallgatherv(&mine, world_rank == 0 ? 0 : 1, MPI_INT, gathered, gather_counts, displs,
                  MPI_INT, reversed, &request);
  MPI_Waitany(1, &request, &index, MPI_STATUS_IGNORE);
  printf("rank %d gathered %d %d %d %d\n", world_rank, gathered[0], gathered[1], gathered[2],
         gathered[3]);
  MPI_Comm_free(&reversed);
  MPI_Finalize();
  return 0;
}
