/* OpenSHMEM patterns for the tracer and the one-sided analyses, on 3 PEs (Su 2010's SHMEM
 * scenarios first, then one call of every other kind the tracer records). Each phase ends in a
 * barrier, so that the waits of one phase do not run into the next:
 *   A  barrier imbalance: PE 0 arrives 100 ms late (PEs 1 and 2 wait 100 ms each)
 *   B  wait-on-value: PE 0 puts PE 1's flag 100 ms late, PE 1 waits for it in wait_until
 *      (PE 2 waits 100 ms in the closing barrier)
 *   C  a lock hand-over chain: every PE takes one lock and holds it 50 ms; the second waits
 *      50 ms for it, the third 100 ms (and in the barrier after, the first waits 100 ms and the
 *      second 50 ms)
 *   D  many small gets to one PE: PEs 1 and 2 each get 500 ints from PE 0, one by one
 *   E  serialised blocking gets from many PEs: PE 0 gets 1 MiB from PE 1, then from PE 2
 *   F  the rest: blocking, strided and non-blocking transfers with quiet, a context, atomics,
 *      fence, collectives over all PEs and over an active set, sync_all, test_lock, test
 * Each phase is a user region (phase_A ... phase_F), so that the tests find each programmed wait
 * at a call path of its own. Usage: shmem_patterns */
#include <causeway/causeway.h>
#include <shmem.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

enum { kGets = 500, kBlock = 1 << 20 };

static int flag;
static long lock;
static long counter;
static int ints[kGets];
static int dst[8], src[8];
static long long dst64[3 * 4], src64[4];
static long psync_bcast[SHMEM_BCAST_SYNC_SIZE];
static long psync_collect[SHMEM_COLLECT_SYNC_SIZE];
static long psync_fcollect[SHMEM_COLLECT_SYNC_SIZE];
static long psync_reduce[SHMEM_REDUCE_SYNC_SIZE];
static long psync_alltoall[SHMEM_ALLTOALL_SYNC_SIZE];
static long psync_barrier[SHMEM_BARRIER_SYNC_SIZE];
static int pwrk[SHMEM_REDUCE_MIN_WRKDATA_SIZE];

static void Sleep(int milliseconds) { usleep((useconds_t)milliseconds * 1000); }

static void FillSync(long* psync, int n) {
  for (int i = 0; i < n; ++i) psync[i] = SHMEM_SYNC_VALUE;
}

int main(void) {
  shmem_init();
  const int me = shmem_my_pe();
  const int n = shmem_n_pes();
  if (n != 3) {
    if (me == 0) fprintf(stderr, "shmem_patterns runs on 3 PEs\n");
    shmem_global_exit(2);
  }
  char* block = shmem_malloc(kBlock);
  char* local = shmem_malloc(kBlock);
  memset(block, me, kBlock);
  for (int i = 0; i < kGets; ++i) ints[i] = i;
  FillSync(psync_bcast, SHMEM_BCAST_SYNC_SIZE);
  FillSync(psync_collect, SHMEM_COLLECT_SYNC_SIZE);
  FillSync(psync_fcollect, SHMEM_COLLECT_SYNC_SIZE);
  FillSync(psync_reduce, SHMEM_REDUCE_SYNC_SIZE);
  FillSync(psync_alltoall, SHMEM_ALLTOALL_SYNC_SIZE);
  FillSync(psync_barrier, SHMEM_BARRIER_SYNC_SIZE);
  shmem_barrier_all();

  CAUSEWAY_REGION_BEGIN("phase_A");
  if (me == 0) Sleep(100);
  shmem_barrier_all();
  CAUSEWAY_REGION_END("phase_A");

  CAUSEWAY_REGION_BEGIN("phase_B");
  if (me == 0) {
    Sleep(100);
    shmem_int_p(&flag, 1, 1);
  } else if (me == 1) {
    shmem_int_wait_until(&flag, SHMEM_CMP_EQ, 1);
  }
  shmem_barrier_all();
  CAUSEWAY_REGION_END("phase_B");

  CAUSEWAY_REGION_BEGIN("phase_C");
  shmem_set_lock(&lock);
  Sleep(50);
  shmem_clear_lock(&lock);
  shmem_barrier_all();
  CAUSEWAY_REGION_END("phase_C");

  CAUSEWAY_REGION_BEGIN("phase_D");
  int sum = 0;
  if (me != 0) {
    for (int i = 0; i < kGets; ++i) sum += shmem_int_g(&ints[i], 0);
  }
  shmem_barrier_all();
  CAUSEWAY_REGION_END("phase_D");

  CAUSEWAY_REGION_BEGIN("phase_E");
  if (me == 0) {
    for (int pe = 1; pe < n; ++pe) shmem_getmem(local, block, kBlock, pe);
  }
  shmem_barrier_all();
  CAUSEWAY_REGION_END("phase_E");

  CAUSEWAY_REGION_BEGIN("phase_F");
  const int next = (me + 1) % n;
  shmem_int_put(dst, src, 4, next);
  shmem_int_iput(dst, src, 2, 1, 2, next);
  shmem_int_iget(dst, src, 1, 2, 2, next);
  shmem_long_put_nbi((long*)block, (const long*)local, 8, next);
  shmem_putmem_nbi(block + 64, local, 64, next);
  shmem_int_get_nbi(dst, src, 2, next);
  shmem_fence();
  shmem_quiet();
  shmem_ctx_t ctx;
  if (shmem_ctx_create(0, &ctx) == 0) {
    shmem_ctx_int_put(ctx, dst, src, 2, next);
    shmem_ctx_putmem_nbi(ctx, block + 128, local, 32, next);
    shmem_ctx_quiet(ctx);
    shmem_ctx_destroy(ctx);
  } else {
    fprintf(stderr, "PE %d: shmem_ctx_create failed\n", me);
  }
  shmem_long_atomic_fetch_add(&counter, 1, 0);
  shmem_long_atomic_inc(&counter, 0);
  shmem_long_atomic_compare_swap(&counter, -1, 0, 0);
  sum += (int)shmem_long_atomic_fetch(&counter, 0);
  shmem_long_fadd(&counter, 1, 0);
  shmem_barrier_all();
  src64[0] = me;
  shmem_broadcast64(dst64, src64, 4, 0, 0, 0, n, psync_bcast);
  shmem_collect32(dst, src, (size_t)(me + 1), 0, 0, n, psync_collect);
  shmem_fcollect32(dst, src, 2, 0, 0, n, psync_fcollect);
  shmem_int_sum_to_all(dst, src, 2, 0, 0, n, pwrk, psync_reduce);
  shmem_alltoall64(dst64, src64, 1, 0, 0, n, psync_alltoall);
  shmem_sync_all();
  if (me < 2) shmem_barrier(0, 0, 2, psync_barrier);
  if (me == 0) {
    if (shmem_test_lock(&lock) == 0) shmem_clear_lock(&lock);
  }
  sum += shmem_int_test(&flag, SHMEM_CMP_EQ, 1);
  shmem_barrier_all();
  CAUSEWAY_REGION_END("phase_F");
  shmem_free(local);
  shmem_free(block);
  if (me == 0) printf("shmem_patterns: done (%d)\n", sum > 0);
  shmem_finalize();
  return 0;
}
