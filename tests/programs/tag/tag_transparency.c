/* Checks everything an MPI program can observe of its messages, so that a run under
 * `causeway trace --tag` (whose piggybacks travel with every message) can be compared with a
 * plain run: received data, counts (MPI_Get_count, MPI_Get_elements), statuses (source, tag),
 * wildcard matching, probe results (MPI_Probe, MPI_Iprobe, MPI_Mprobe, MPI_Improbe), messages
 * from empty to 1 MiB (far above any eager threshold), derived datatypes, MPI_Sendrecv,
 * MPI_Sendrecv_replace, MPI_Ssend, MPI_Bsend, MPI_Rsend, persistent requests, cancelled
 * receives, MPI_PROC_NULL, split and duplicated communicators, and non-blocking receives
 * completed by every completion call (Wait, Waitall, Waitany, Waitsome, Test, Testall, Testany,
 * Testsome).
 *
 * Each rank prints "rank R ok NAME" or "rank R FAIL NAME: ..." per check and exits non-zero if
 * any failed. Run with 3 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int rank, size, failures, checks;

static void check(int ok, const char* name, const char* detail) {
  ++checks;
  if (ok) {
    printf("rank %d ok %s\n", rank, name);
  } else {
    ++failures;
    printf("rank %d FAIL %s: %s\n", rank, name, detail);
  }
}

/* A status as the program sees it: source, tag and the count in `type`. */
static void check_status(const char* name, const MPI_Status* s, int source, int tag,
                         MPI_Datatype type, int count) {
  int got = -1;
  MPI_Get_count(s, type, &got);
  char detail[160];
  snprintf(detail, sizeof detail, "source %d (want %d), tag %d (want %d), count %d (want %d)",
           s->MPI_SOURCE, source, s->MPI_TAG, tag, got, count);
  check(s->MPI_SOURCE == source && s->MPI_TAG == tag && got == count, name, detail);
}

static void fill(char* buffer, int bytes, int seed) {
  for (int i = 0; i < bytes; ++i) buffer[i] = (char)(seed * 31 + i * 7);
}

static int same(const char* buffer, int bytes, int seed) {
  for (int i = 0; i < bytes; ++i) {
    if (buffer[i] != (char)(seed * 31 + i * 7)) return 0;
  }
  return 1;
}

/* Rank 0 sends messages of many sizes to rank 1; rank 1 receives them into a larger buffer. */
static void sizes(void) {
  static const int kSizes[] = {0, 1, 100, 4096, 65536, 1 << 20};
  static char buffer[(1 << 20) + 64];
  for (unsigned k = 0; k < sizeof kSizes / sizeof kSizes[0]; ++k) {
    const int bytes = kSizes[k];
    if (rank == 0) {
      fill(buffer, bytes, (int)k);
      MPI_Send(buffer, bytes, MPI_CHAR, 1, 10 + (int)k, MPI_COMM_WORLD);
    } else if (rank == 1) {
      MPI_Status s;
      memset(buffer, 0, (size_t)bytes + 64);
      MPI_Recv(buffer, (1 << 20) + 64, MPI_CHAR, 0, 10 + (int)k, MPI_COMM_WORLD, &s);
      char name[64];
      snprintf(name, sizeof name, "size %d status", bytes);
      check_status(name, &s, 0, 10 + (int)k, MPI_CHAR, bytes);
      snprintf(name, sizeof name, "size %d data", bytes);
      check(same(buffer, bytes, (int)k) && buffer[bytes] == 0, name, "data differ");
    }
  }
}

/* Ranks 1 and 2 send to rank 0, which receives with MPI_ANY_SOURCE and MPI_ANY_TAG. */
static void wildcards(void) {
  if (rank == 0) {
    int seen[3] = {0, 0, 0};
    for (int k = 1; k < size; ++k) {
      int value = -1;
      MPI_Status s;
      MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &s);
      check_status("wildcard status", &s, s.MPI_SOURCE, 100 + s.MPI_SOURCE, MPI_INT, 1);
      check(value == 1000 + s.MPI_SOURCE && s.MPI_SOURCE > 0 && s.MPI_SOURCE < size &&
                !seen[s.MPI_SOURCE],
            "wildcard data", "wrong value or source");
      if (s.MPI_SOURCE > 0 && s.MPI_SOURCE < size) seen[s.MPI_SOURCE] = 1;
    }
  } else {
    int value = 1000 + rank;
    MPI_Send(&value, 1, MPI_INT, 0, 100 + rank, MPI_COMM_WORLD);
  }
}

/* Probes: what they find is the user's message, with its count, never the tool's. */
static void probes(void) {
  if (rank == 1 || rank == 2) {
    double values[7];
    for (int i = 0; i < 7; ++i) values[i] = rank + i;
    for (int round = 0; round < 4; ++round) {
      MPI_Send(values, 3 + rank + round, MPI_DOUBLE, 0, 200 + round, MPI_COMM_WORLD);
    }
  } else if (rank == 0) {
    double values[8];
    for (int k = 1; k < size; ++k) {  /* MPI_Probe, then receive what it found */
      MPI_Status s, r;
      MPI_Probe(MPI_ANY_SOURCE, 200, MPI_COMM_WORLD, &s);
      int count = -1;
      MPI_Get_count(&s, MPI_DOUBLE, &count);
      check(count == 3 + s.MPI_SOURCE, "probe count", "wrong count");
      MPI_Recv(values, 8, MPI_DOUBLE, s.MPI_SOURCE, s.MPI_TAG, MPI_COMM_WORLD, &r);
      check_status("probe then receive", &r, s.MPI_SOURCE, 200, MPI_DOUBLE, count);
      check(values[0] == s.MPI_SOURCE, "probe data", "wrong data");
    }
    for (int k = 1; k < size; ++k) {  /* MPI_Iprobe until found */
      int flag = 0;
      MPI_Status s;
      while (!flag) MPI_Iprobe(MPI_ANY_SOURCE, 201, MPI_COMM_WORLD, &flag, &s);
      int count = -1;
      MPI_Get_count(&s, MPI_DOUBLE, &count);
      check(count == 4 + s.MPI_SOURCE && s.MPI_TAG == 201, "iprobe", "wrong count or tag");
      MPI_Recv(values, 8, MPI_DOUBLE, s.MPI_SOURCE, 201, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    for (int k = 1; k < size; ++k) {  /* MPI_Mprobe and MPI_Mrecv */
      MPI_Message m;
      MPI_Status s, r;
      MPI_Mprobe(MPI_ANY_SOURCE, 202, MPI_COMM_WORLD, &m, &s);
      MPI_Mrecv(values, 8, MPI_DOUBLE, &m, &r);
      check_status("mprobe mrecv", &r, s.MPI_SOURCE, 202, MPI_DOUBLE, 5 + s.MPI_SOURCE);
      check(values[4] == s.MPI_SOURCE + 4, "mrecv data", "wrong data");
    }
    for (int k = 1; k < size; ++k) {  /* MPI_Improbe and MPI_Imrecv */
      MPI_Message m;
      MPI_Status s, r;
      MPI_Request q;
      int flag = 0;
      while (!flag) MPI_Improbe(MPI_ANY_SOURCE, 203, MPI_COMM_WORLD, &flag, &m, &s);
      MPI_Imrecv(values, 8, MPI_DOUBLE, &m, &q);
      MPI_Wait(&q, &r);
      check_status("improbe imrecv", &r, s.MPI_SOURCE, 203, MPI_DOUBLE, 6 + s.MPI_SOURCE);
    }
  }
}

/* A strided vector type sent, received as contiguous doubles and as the same vector type. */
static void derived_types(void) {
  MPI_Datatype column;
  MPI_Type_vector(4, 1, 3, MPI_DOUBLE, &column);
  MPI_Type_commit(&column);
  double matrix[12], got[12];
  for (int i = 0; i < 12; ++i) matrix[i] = i;
  if (rank == 0) {
    MPI_Send(matrix, 1, column, 1, 300, MPI_COMM_WORLD);
    MPI_Send(matrix + 1, 2, column, 1, 301, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Status s;
    MPI_Recv(got, 12, MPI_DOUBLE, 0, 300, MPI_COMM_WORLD, &s);
    check_status("vector as doubles", &s, 0, 300, MPI_DOUBLE, 4);
    check(got[0] == 0 && got[1] == 3 && got[2] == 6 && got[3] == 9, "vector data", "wrong data");
    for (int i = 0; i < 12; ++i) got[i] = -1;
    MPI_Recv(got, 2, column, 0, 301, MPI_COMM_WORLD, &s);
    int count = -1, elements = -1;
    MPI_Get_count(&s, column, &count);
    MPI_Get_elements(&s, MPI_DOUBLE, &elements);
    check(count == 2 && elements == 8, "vector count and elements", "wrong count or elements");
    check(got[0] == 1 && got[9] == 10 && got[1] == -1, "vector layout", "wrong layout");
  }
  MPI_Type_free(&column);
}

/* A ring: MPI_Sendrecv and MPI_Sendrecv_replace. */
static void ring(void) {
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out = rank * 10, in = -1;
  MPI_Status s;
  MPI_Sendrecv(&out, 1, MPI_INT, right, 400, &in, 1, MPI_INT, left, 400, MPI_COMM_WORLD, &s);
  check_status("sendrecv", &s, left, 400, MPI_INT, 1);
  check(in == left * 10, "sendrecv data", "wrong data");
  int values[3] = {rank, rank + 1, rank + 2};
  MPI_Sendrecv_replace(values, 3, MPI_INT, right, 401, left, 401, MPI_COMM_WORLD, &s);
  check_status("sendrecv_replace", &s, left, 401, MPI_INT, 3);
  check(values[0] == left && values[2] == left + 2, "sendrecv_replace data", "wrong data");
}

/* Ssend, Bsend (with an attached buffer) and Rsend (its receive posted first). */
static void send_modes(void) {
  int value = 0;
  if (rank == 0) {
    value = 7;
    MPI_Ssend(&value, 1, MPI_INT, 1, 500, MPI_COMM_WORLD);
    static char attached[1024 + MPI_BSEND_OVERHEAD];
    MPI_Buffer_attach(attached, sizeof attached);
    value = 8;
    MPI_Bsend(&value, 1, MPI_INT, 1, 501, MPI_COMM_WORLD);
    void* detached;
    int detached_size;
    MPI_Buffer_detach(&detached, &detached_size);
    MPI_Barrier(MPI_COMM_WORLD);  /* rank 1 has posted the receive for the Rsend */
    value = 9;
    MPI_Rsend(&value, 1, MPI_INT, 1, 502, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Status s;
    MPI_Recv(&value, 1, MPI_INT, 0, 500, MPI_COMM_WORLD, &s);
    check(value == 7 && s.MPI_TAG == 500, "ssend", "wrong data");
    MPI_Recv(&value, 1, MPI_INT, 0, 501, MPI_COMM_WORLD, &s);
    check(value == 8 && s.MPI_TAG == 501, "bsend", "wrong data");
    MPI_Request r;
    MPI_Irecv(&value, 1, MPI_INT, 0, 502, MPI_COMM_WORLD, &r);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Wait(&r, &s);
    check(value == 9 && s.MPI_SOURCE == 0, "rsend", "wrong data");
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
  }
}

/* Non-blocking receives completed by each completion call; rank 0 sends to rank 1 eight
 * rounds of four messages (tags 600 + 10 round + i, sizes 1 + i ints). */
static void completions(void) {
  enum { kRounds = 8, kPerRound = 4 };
  if (rank == 0) {
    for (int round = 0; round < kRounds; ++round) {
      for (int i = 0; i < kPerRound; ++i) {
        int values[4] = {round, i, round * i, -1};
        MPI_Send(values, 1 + i, MPI_INT, 1, 600 + 10 * round + i, MPI_COMM_WORLD);
      }
    }
    return;
  }
  if (rank != 1) return;
  static const char* kNames[kRounds] = {"wait", "waitall", "waitany", "waitsome",
                                        "test", "testall", "testany", "testsome"};
  for (int round = 0; round < kRounds; ++round) {
    int values[kPerRound][4];
    for (int i = 0; i < kPerRound; ++i) values[i][0] = values[i][1] = -1;
    MPI_Request requests[kPerRound];
    MPI_Status statuses[kPerRound];
    int done[kPerRound] = {0, 0, 0, 0};
    for (int i = 0; i < kPerRound; ++i) {
      MPI_Irecv(values[i], 4, MPI_INT, 0, 600 + 10 * round + i, MPI_COMM_WORLD, &requests[i]);
    }
    int completed = 0;
    while (completed < kPerRound) {
      int index = MPI_UNDEFINED, flag = 0, out = 0, indices[kPerRound];
      switch (round) {
        case 0:
          for (int i = 0; i < kPerRound; ++i) MPI_Wait(&requests[i], &statuses[i]), done[i] = 1;
          completed = kPerRound;
          break;
        case 1:
          MPI_Waitall(kPerRound, requests, statuses);
          for (int i = 0; i < kPerRound; ++i) done[i] = 1;
          completed = kPerRound;
          break;
        case 2: {
          MPI_Status s;
          MPI_Waitany(kPerRound, requests, &index, &s);
          if (index != MPI_UNDEFINED) statuses[index] = s, done[index] = 1, ++completed;
          break;
        }
        case 3: {
          MPI_Status some[kPerRound];
          MPI_Waitsome(kPerRound, requests, &out, indices, some);
          for (int k = 0; k < out; ++k) statuses[indices[k]] = some[k], done[indices[k]] = 1;
          completed += out;
          break;
        }
        case 4:
          for (int i = 0; i < kPerRound; ++i) {
            if (done[i]) continue;
            MPI_Test(&requests[i], &flag, &statuses[i]);
            if (flag) done[i] = 1, ++completed;
          }
          break;
        case 5:
          MPI_Testall(kPerRound, requests, &flag, statuses);
          if (flag) {
            for (int i = 0; i < kPerRound; ++i) done[i] = 1;
            completed = kPerRound;
          }
          break;
        case 6: {
          MPI_Status s;
          MPI_Testany(kPerRound, requests, &index, &flag, &s);
          if (flag && index != MPI_UNDEFINED) statuses[index] = s, done[index] = 1, ++completed;
          break;
        }
        default: {
          MPI_Status some[kPerRound];
          MPI_Testsome(kPerRound, requests, &out, indices, some);
          for (int k = 0; k < out; ++k) statuses[indices[k]] = some[k], done[indices[k]] = 1;
          completed += out;
          break;
        }
      }
    }
    for (int i = 0; i < kPerRound; ++i) {
      char name[64];
      snprintf(name, sizeof name, "%s request %d", kNames[round], i);
      check_status(name, &statuses[i], 0, 600 + 10 * round + i, MPI_INT, 1 + i);
      /* Message i holds 1 + i ints: {round, i, ...}. */
      check(values[i][0] == round && (i == 0 ? values[i][1] == -1 : values[i][1] == i), name,
            "wrong data");
    }
  }
}

/* Persistent requests, a cancelled receive and MPI_PROC_NULL. */
static void persistent_cancel_null(void) {
  int value = 0;
  if (rank == 0) {
    MPI_Request r;
    MPI_Send_init(&value, 1, MPI_INT, 1, 700, MPI_COMM_WORLD, &r);
    for (int i = 0; i < 3; ++i) {
      value = 70 + i;
      MPI_Start(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    }
    MPI_Request_free(&r);
  } else if (rank == 1) {
    MPI_Request r;
    MPI_Recv_init(&value, 1, MPI_INT, 0, 700, MPI_COMM_WORLD, &r);
    for (int i = 0; i < 3; ++i) {
      MPI_Status s;
      MPI_Startall(1, &r);
      MPI_Wait(&r, &s);
      check(value == 70 + i && s.MPI_TAG == 700, "persistent", "wrong data");
    }
    MPI_Request_free(&r);
    /* A receive nobody sends to, cancelled. */
    MPI_Request c;
    MPI_Status s;
    int cancelled = 0;
    MPI_Irecv(&value, 1, MPI_INT, 2, 799, MPI_COMM_WORLD, &c);
    MPI_Cancel(&c);
    MPI_Wait(&c, &s);
    MPI_Test_cancelled(&s, &cancelled);
    check(cancelled, "cancelled receive", "not cancelled");
  }
  MPI_Status s;
  MPI_Recv(&value, 1, MPI_INT, MPI_PROC_NULL, 5, MPI_COMM_WORLD, &s);
  check_status("proc_null", &s, MPI_PROC_NULL, MPI_ANY_TAG, MPI_INT, 0);
}

/* Messages on a split and on a duplicated communicator, with the same tags as on the world. */
static void communicators(void) {
  MPI_Comm half, copy;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half); /* reversed order within each half */
  MPI_Comm_dup(MPI_COMM_WORLD, &copy);
  int half_rank, half_size;
  MPI_Comm_rank(half, &half_rank);
  MPI_Comm_size(half, &half_size);
  if (half_size > 1) {
    int value = rank, got = -1;
    MPI_Status s;
    const int peer = 1 - half_rank;
    MPI_Sendrecv(&value, 1, MPI_INT, peer, 800, &got, 1, MPI_INT, peer, 800, half, &s);
    check(s.MPI_SOURCE == peer && got != rank, "split communicator", "wrong source or data");
  }
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int out = rank, in = -1;
  MPI_Status s;
  MPI_Sendrecv(&out, 1, MPI_INT, right, 801, &in, 1, MPI_INT, left, 801, copy, &s);
  check(in == left && s.MPI_SOURCE == left, "duplicated communicator", "wrong data");
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, copy);
  check(sum == size * (size - 1) / 2, "allreduce on the copy", "wrong sum");
  MPI_Comm_free(&half);
  MPI_Comm_free(&copy);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 3) {
    if (rank == 0) fprintf(stderr, "run with 3 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  /* Each phase ends with a barrier, so that its wildcard receives and probes meet only its own
   * messages. */
  void (*phases[])(void) = {sizes, wildcards, probes, derived_types, ring,
                            send_modes, completions, persistent_cancel_null, communicators};
  for (unsigned p = 0; p < sizeof phases / sizeof phases[0]; ++p) {
    phases[p]();
    MPI_Barrier(MPI_COMM_WORLD);
  }
  int all = 0;
  MPI_Allreduce(&failures, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf("rank %d done: %d checks, %d failed\n", rank, checks, failures);
  MPI_Finalize();
  return all == 0 ? 0 : 1;
}
