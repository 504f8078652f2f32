/* Ends badly after PUTS puts from PE 0 to PE 1:
 *   shmem_crash segv         PE 0 dies of SIGSEGV (oshrun then kills PE 1)
 *   shmem_crash global_exit  PE 0 calls shmem_global_exit, which ends every PE
 * PE 1 waits until the last put has arrived, then waits in a barrier that PE 0 never reaches.
 * The test asserts that the trace holds every put and PE 1's wait. Usage: shmem_crash MODE [PUTS] */
#include <shmem.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

static int value;

int main(int argc, char** argv) {
  shmem_init();
  const char* mode = argc > 1 ? argv[1] : "segv";
  const int puts = argc > 2 ? atoi(argv[2]) : 100;
  const int me = shmem_my_pe();
  if (me == 0) {
    for (int i = 1; i <= puts; ++i) shmem_int_p(&value, i, 1);
    shmem_quiet();
  } else if (me == 1) {
    shmem_int_wait_until(&value, SHMEM_CMP_EQ, puts);
  }
  if (me == 0) {
    if (strcmp(mode, "global_exit") == 0) shmem_global_exit(3);
    raise(SIGSEGV);
  }
  shmem_barrier_all();
  shmem_finalize();
  return 0;
}
