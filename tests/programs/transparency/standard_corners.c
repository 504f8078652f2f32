/* Corners of the MPI standard on 4 processes, each printed by rank 0 as the program saw it, so
 * that a run with the tracer can be compared line by line with one without:
 *   derived datatypes (vector, struct with MPI_BOTTOM and absolute addresses) in point-to-point;
 *   a generalized request completed by MPI_Grequest_complete and waited for;
 *   a cancelled receive (MPI_Test_cancelled), a freed active send (MPI_Request_free), a
 *   receive freed once MPI_Request_get_status found it complete;
 *   MPI_ERRORS_RETURN on a duplicate communicator: an error code comes back, its class and string;
 *   communicator attributes with copy and delete callbacks across MPI_Comm_dup and MPI_Comm_free;
 *   persistent sends and receives started twice; MPI_Sendrecv_replace;
 *   neighbourhood collectives on a ring (MPI_Cart_create), blocking and not;
 *   non-blocking collectives (MPI_Iallreduce, MPI_Ibcast, MPI_Ialltoallv) completed by Waitall;
 *   a dynamic window (MPI_Win_create_dynamic, MPI_Win_attach, MPI_Get_address) with puts under
 *   lock_all, and a shared-memory window (MPI_Win_allocate_shared, MPI_Win_shared_query) read by
 *   load after MPI_Win_sync and a barrier. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#define LINE 2048
static char out[LINE];

static void Note(const char* what, long value) {
  size_t used = strlen(out);
  snprintf(out + used, LINE - used, " %s=%ld", what, value);
}

static int copies, deletes;
static int CopyAttr(MPI_Comm comm, int key, void* extra, void* in, void* outp, int* flag) {
  (void)comm, (void)key, (void)extra;
  ++copies;
  *(void**)outp = in;
  *flag = 1;
  return MPI_SUCCESS;
}
static int DeleteAttr(MPI_Comm comm, int key, void* value, void* extra) {
  (void)comm, (void)key, (void)value, (void)extra;
  ++deletes;
  return MPI_SUCCESS;
}

static int GrequestQuery(void* state, MPI_Status* status) {
  MPI_Status_set_elements(status, MPI_INT, *(int*)state);
  MPI_Status_set_cancelled(status, 0);
  status->MPI_SOURCE = MPI_UNDEFINED;
  status->MPI_TAG = MPI_UNDEFINED;
  return MPI_SUCCESS;
}
static int GrequestFree(void* state) {
  (void)state;
  return MPI_SUCCESS;
}
static int GrequestCancel(void* state, int complete) {
  (void)state, (void)complete;
  return MPI_SUCCESS;
}

static void PointToPoint(int rank, int size) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  /* A vector of every other int. */
  int send[8], recv[8] = {0};
  for (int i = 0; i < 8; ++i) send[i] = 10 * rank + i;
  MPI_Datatype every_other;
  MPI_Type_vector(4, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  MPI_Sendrecv(send, 1, every_other, right, 1, recv, 4, MPI_INT, left, 1, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  Note("vector", recv[0] + recv[1] + recv[2] + recv[3]);
  MPI_Type_free(&every_other);
  /* A struct over absolute addresses with MPI_BOTTOM. */
  int a = 100 + rank;
  double b = 0.5 * rank;
  MPI_Aint addresses[2];
  MPI_Get_address(&a, &addresses[0]);
  MPI_Get_address(&b, &addresses[1]);
  int lengths[2] = {1, 1};
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, absolute;
  MPI_Type_create_struct(2, lengths, addresses, types, &absolute);
  MPI_Type_commit(&absolute);
  MPI_Sendrecv_replace(MPI_BOTTOM, 1, absolute, right, 2, left, 2, MPI_COMM_WORLD,
                       MPI_STATUS_IGNORE);
  Note("bottom", a + (long)(10 * b));
  MPI_Type_free(&absolute);
  /* Persistent requests, started twice. */
  MPI_Request persistent[2];
  int ping = rank, pong = -1;
  MPI_Send_init(&ping, 1, MPI_INT, right, 3, MPI_COMM_WORLD, &persistent[0]);
  MPI_Recv_init(&pong, 1, MPI_INT, left, 3, MPI_COMM_WORLD, &persistent[1]);
  long sum = 0;
  for (int k = 0; k < 2; ++k) {
    MPI_Startall(2, persistent);
    MPI_Waitall(2, persistent, MPI_STATUSES_IGNORE);
    sum += pong;
  }
  MPI_Request_free(&persistent[0]);
  MPI_Request_free(&persistent[1]);
  Note("persistent", sum);
  /* A receive that is cancelled, a send whose request is freed while active. */
  MPI_Request cancelled;
  int never = 0, flag = 0;
  MPI_Irecv(&never, 1, MPI_INT, left, 99, MPI_COMM_WORLD, &cancelled);
  MPI_Cancel(&cancelled);
  MPI_Status status;
  MPI_Wait(&cancelled, &status);
  MPI_Test_cancelled(&status, &flag);
  Note("cancelled", flag);
  MPI_Request freed;
  MPI_Isend(&ping, 1, MPI_INT, right, 4, MPI_COMM_WORLD, &freed);
  MPI_Request_free(&freed);
  int got = -1;
  MPI_Recv(&got, 1, MPI_INT, left, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  Note("freed", got);
  /* A receive freed after it completed, which no wait or test completes: the program learns it
   * from MPI_Request_get_status, which leaves the request active. */
  int late = -1, done = 0;
  MPI_Request unwaited;
  MPI_Irecv(&late, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &unwaited);
  MPI_Send(&ping, 1, MPI_INT, right, 5, MPI_COMM_WORLD);
  while (!done) MPI_Request_get_status(unwaited, &done, MPI_STATUS_IGNORE);
  MPI_Request_free(&unwaited);
  Note("freed_receive", late);
}

static void Generalized(void) {
  int state = 3, count = 0;
  MPI_Request request;
  MPI_Grequest_start(GrequestQuery, GrequestFree, GrequestCancel, &state, &request);
  MPI_Grequest_complete(request);
  MPI_Status status;
  MPI_Wait(&request, &status);
  MPI_Get_elements(&status, MPI_INT, &count);
  Note("grequest", count);
}

static void Errors(int size) {
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int value = 0;
  const int code = MPI_Send(&value, 1, MPI_INT, size + 3, 0, comm);
  int cls = 0, length = 0;
  char text[MPI_MAX_ERROR_STRING];
  MPI_Error_class(code, &cls);
  MPI_Error_string(code, text, &length);
  Note("error_class_is_rank", cls == MPI_ERR_RANK);
  MPI_Errhandler handler;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &handler);
  Note("world_handler_is_fatal", handler == MPI_ERRORS_ARE_FATAL);
  if (handler != MPI_ERRORS_ARE_FATAL) MPI_Errhandler_free(&handler);
  MPI_Comm_get_errhandler(comm, &handler);
  Note("dup_handler_is_return", handler == MPI_ERRORS_RETURN);
  MPI_Comm_free(&comm);
}

static void Attributes(void) {
  int key;
  static int payload = 42;
  MPI_Comm_create_keyval(CopyAttr, DeleteAttr, &key, NULL);
  MPI_Comm comm, copy;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_attr(comm, key, &payload);
  MPI_Comm_dup(comm, &copy);
  int* seen = NULL;
  int flag = 0;
  MPI_Comm_get_attr(copy, key, &seen, &flag);
  Note("attribute", flag ? *seen : -1);
  MPI_Comm_free(&copy);
  MPI_Comm_free(&comm);
  MPI_Comm_free_keyval(&key);
  Note("copies", copies);
  Note("deletes", deletes);
}

static void Neighbourhood(int rank, int size) {
  int dims[1] = {size}, periods[1] = {1};
  MPI_Comm ring;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  int mine = rank, theirs[2] = {-1, -1};
  MPI_Neighbor_allgather(&mine, 1, MPI_INT, theirs, 1, MPI_INT, ring);
  Note("neighbours", theirs[0] * 10 + theirs[1]);
  MPI_Request request;
  int again[2] = {-1, -1};
  MPI_Ineighbor_allgather(&mine, 1, MPI_INT, again, 1, MPI_INT, ring, &request);
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  Note("ineighbours", again[0] * 10 + again[1]);
  MPI_Comm_free(&ring);
}

static void NonBlockingCollectives(int rank, int size) {
  MPI_Request requests[3];
  int sum = 0, root_value = rank == 2 ? 77 : 0;
  MPI_Iallreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &requests[0]);
  MPI_Ibcast(&root_value, 1, MPI_INT, 2, MPI_COMM_WORLD, &requests[1]);
  int sendcounts[8], sdispls[8], recvcounts[8], rdispls[8], send[64], recv[64];
  for (int r = 0; r < size; ++r) {
    sendcounts[r] = r + 1;
    recvcounts[r] = rank + 1;
    sdispls[r] = r == 0 ? 0 : sdispls[r - 1] + sendcounts[r - 1];
    rdispls[r] = r * (rank + 1);
  }
  for (int i = 0; i < 64; ++i) send[i] = 100 * rank + i;
  MPI_Ialltoallv(send, sendcounts, sdispls, MPI_INT, recv, recvcounts, rdispls, MPI_INT,
                 MPI_COMM_WORLD, &requests[2]);
  MPI_Waitall(3, requests, MPI_STATUSES_IGNORE);
  long received = 0;
  for (int i = 0; i < size * (rank + 1); ++i) received += recv[i];
  Note("iallreduce", sum);
  Note("ibcast", root_value);
  Note("ialltoallv", received);
}

static void Windows(int rank, int size) {
  /* Dynamic window: each process attaches an int; everybody puts its rank into the next. */
  MPI_Win dynamic;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &dynamic);
  int target = -1;
  MPI_Win_attach(dynamic, &target, sizeof target);
  MPI_Aint mine, theirs;
  MPI_Get_address(&target, &mine);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  MPI_Sendrecv(&mine, 1, MPI_AINT, left, 5, &theirs, 1, MPI_AINT, right, 5, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
  MPI_Win_lock_all(0, dynamic);
  MPI_Put(&rank, 1, MPI_INT, right, theirs, 1, MPI_INT, dynamic);
  MPI_Win_unlock_all(dynamic);
  MPI_Barrier(MPI_COMM_WORLD);
  Note("dynamic", target);
  MPI_Win_detach(dynamic, &target);
  MPI_Win_free(&dynamic);
  /* Shared memory: each process stores into its own slot, the others load it. */
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int node_rank, node_size;
  MPI_Comm_rank(node, &node_rank);
  MPI_Comm_size(node, &node_size);
  int* slot = NULL;
  MPI_Win shared;
  MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, node, &slot, &shared);
  MPI_Win_lock_all(0, shared);
  *slot = 1000 + node_rank;
  MPI_Win_sync(shared);
  MPI_Barrier(node);
  MPI_Win_sync(shared);
  long loaded = 0;
  for (int r = 0; r < node_size; ++r) {
    MPI_Aint bytes;
    int unit;
    int* theirs_slot = NULL;
    MPI_Win_shared_query(shared, r, &bytes, &unit, &theirs_slot);
    loaded += *theirs_slot;
  }
  MPI_Win_unlock_all(shared);
  Note("shared", loaded);
  MPI_Win_free(&shared);
  MPI_Comm_free(&node);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size < 2 || size > 8) MPI_Abort(MPI_COMM_WORLD, 2);
  snprintf(out, LINE, "rank %d:", rank);
  PointToPoint(rank, size);
  Generalized();
  Errors(size);
  Attributes();
  Neighbourhood(rank, size);
  NonBlockingCollectives(rank, size);
  Windows(rank, size);
  static char all[8][LINE];
  MPI_Gather(out, LINE, MPI_CHAR, all, LINE, MPI_CHAR, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int r = 0; r < size; ++r) printf("%s\n", all[r]);
  MPI_Finalize();
  return 0;
}
