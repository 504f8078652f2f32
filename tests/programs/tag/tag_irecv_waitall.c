/* Non-blocking receives completed by MPI_Waitall (Sikora et al. 2016 §4.4): rank 1 posts MPI_Irecv from
 * post_a (tag 1) and from post_b (tag 2), then waits for both; rank 0 computes 5 ms and sends
 * 100 bytes from send_a (tag 1), then 200 bytes from send_b (tag 2). The incoming edges are
 * made when MPI_Waitall completes the receives, on the nodes that posted them, each naming its
 * own sender's node; completion edges lead from MPI_Waitall to both MPI_Irecv nodes. Run with
 * 2 ranks. */
#include <mpi.h>

#include "tag_work.h"

static char a[100], b[200];

__attribute__((noinline)) void post_a(MPI_Request* r) {
  MPI_Irecv(a, 100, MPI_CHAR, 0, 1, MPI_COMM_WORLD, r);
}
__attribute__((noinline)) void post_b(MPI_Request* r) {
  MPI_Irecv(b, 200, MPI_CHAR, 0, 2, MPI_COMM_WORLD, r);
}
__attribute__((noinline)) void send_a(void) { MPI_Send(a, 100, MPI_CHAR, 1, 1, MPI_COMM_WORLD); }
__attribute__((noinline)) void send_b(void) { MPI_Send(b, 200, MPI_CHAR, 1, 2, MPI_COMM_WORLD); }

int main(int argc, char** argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    work_ms(5);
    send_a();
    send_b();
  } else if (rank == 1) {
    MPI_Request requests[2];
    post_a(&requests[0]);
    post_b(&requests[1]);
    MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
