/* MPI-IO on 2 processes, every access kind once per process, on a file in $TMPDIR (or /tmp):
 * explicit offsets (MPI_File_write_at, read_at, their collective _all forms, iwrite_at with
 * MPI_Wait), individual file pointers (seek, write, read, write_all, read_all, iread with
 * MPI_Wait), a file view (set_view, then write_all through it), split collectives
 * (write_at_all_begin/end, read_all_begin/end), the shared file pointer (write_ordered,
 * read_ordered), and around them open, set_size, get_size, sync, close and delete. Each process
 * writes and reads 64 ints of its own; rank 0 prints what both read back. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 64

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char name[512];
  if (rank == 0) {
    const char* dir = getenv("TMPDIR");
    snprintf(name, sizeof name, "%s/causeway-mpi-io-%d", dir != NULL && *dir ? dir : "/tmp",
             (int)getpid());
  }
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, MPI_COMM_WORLD);
  int out[N], in[N];
  for (int i = 0; i < N; ++i) out[i] = 1000 * rank + i;
  const MPI_Offset mine = (MPI_Offset)rank * N * (MPI_Offset)sizeof(int);
  MPI_File fh;
  MPI_Status status;
  MPI_Request request;
  MPI_File_open(MPI_COMM_WORLD, name, MPI_MODE_CREATE | MPI_MODE_RDWR, MPI_INFO_NULL, &fh);
  MPI_File_set_size(fh, 0);
  /* Explicit offsets. */
  MPI_File_write_at(fh, mine, out, N, MPI_INT, &status);
  MPI_File_read_at(fh, mine, in, N, MPI_INT, &status);
  MPI_File_write_at_all(fh, mine, out, N, MPI_INT, &status);
  MPI_File_read_at_all(fh, mine, in, N, MPI_INT, &status);
  MPI_File_iwrite_at(fh, mine, out, N, MPI_INT, &request);
  MPI_Wait(&request, &status);
  /* Individual file pointers. */
  MPI_File_seek(fh, mine, MPI_SEEK_SET);
  MPI_File_write(fh, out, N, MPI_INT, &status);
  MPI_File_seek(fh, mine, MPI_SEEK_SET);
  MPI_File_read(fh, in, N, MPI_INT, &status);
  MPI_File_seek(fh, mine, MPI_SEEK_SET);
  MPI_File_write_all(fh, out, N, MPI_INT, &status);
  MPI_File_seek(fh, mine, MPI_SEEK_SET);
  MPI_File_read_all(fh, in, N, MPI_INT, &status);
  MPI_File_seek(fh, mine, MPI_SEEK_SET);
  MPI_File_iread(fh, in, N, MPI_INT, &request);
  MPI_Wait(&request, &status);
  /* Split collectives. */
  MPI_File_write_at_all_begin(fh, mine, out, N, MPI_INT);
  MPI_File_write_at_all_end(fh, out, &status);
  MPI_File_seek(fh, mine, MPI_SEEK_SET);
  MPI_File_read_all_begin(fh, in, N, MPI_INT);
  MPI_File_read_all_end(fh, in, &status);
  /* A view: each process sees its own block from offset 0. */
  MPI_File_set_view(fh, mine, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  MPI_File_write_all(fh, out, N, MPI_INT, &status);
  MPI_File_set_view(fh, 0, MPI_INT, MPI_INT, "native", MPI_INFO_NULL);
  /* The shared file pointer, in rank order. */
  MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
  MPI_File_write_ordered(fh, out, N, MPI_INT, &status);
  MPI_File_seek_shared(fh, 0, MPI_SEEK_SET);
  MPI_File_read_ordered(fh, in, N, MPI_INT, &status);
  MPI_Offset bytes = 0;
  MPI_File_sync(fh);
  MPI_File_get_size(fh, &bytes);
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) MPI_File_delete(name, MPI_INFO_NULL);
  long sum = 0;
  for (int i = 0; i < N; ++i) sum += in[i];
  long sums[64];
  MPI_Gather(&sum, 1, MPI_LONG, sums, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    printf("file of %lld bytes;", (long long)bytes);
    for (int r = 0; r < size; ++r) printf(" rank %d read %ld", r, sums[r]);
    printf("\n");
  }
  MPI_Finalize();
  return 0;
}
