/* A program that writes a checkpoint and ends when asked by a signal, as batch scripts ask
 * programs before a job's time limit (SIGUSR1, or SIGTERM, which many codes handle so): its
 * handler, installed before MPI_Init, notes the request; in each of up to STEPS steps every rank
 * burns 20 ms of its CPU time, then the ranks agree (MPI_Allreduce of a flag) whether any was
 * asked; if so rank 0 prints "checkpoint at step N" and all finalize and exit 0 (each rank made
 * N + 1 MPI_Allreduce calls). Never asked, they exit 3.
 * Usage: checkpoint_on_signal STEPS [USR1|TERM] (default USR1) */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static volatile sig_atomic_t asked = 0;

static void on_request(int signal) {
  (void)signal;
  asked = 1;
}

static double cpu_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return 1e3 * (double)ts.tv_sec + 1e-6 * (double)ts.tv_nsec;
}

int main(int argc, char** argv) {
  struct sigaction request = {0};
  request.sa_handler = on_request;
  sigemptyset(&request.sa_mask);
  const int asked_by = argc > 2 && strcmp(argv[2], "TERM") == 0 ? SIGTERM : SIGUSR1;
  sigaction(asked_by, &request, NULL);
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int steps = argc > 1 ? atoi(argv[1]) : 1000;
  volatile double sink = 0;
  for (int step = 0; step < steps; ++step) {
    const double until = cpu_ms() + 20;
    while (cpu_ms() < until) {
      for (int i = 0; i < 1000; ++i) sink = sink + 1e-9 * i;
    }
    int mine = asked, any = 0;
    MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (any) {
      if (rank == 0) printf("checkpoint at step %d\n", step);
      MPI_Finalize();
      return 0;
    }
  }
  MPI_Finalize();
  return 3;
}
