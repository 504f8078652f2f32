// Whether the process wrote anything between two MPI_Barriers: a barrier after a file write may
// order it for a reader on another rank after the barrier, and the trace records MPI-IO but not
// POSIX I/O, so the bottleneck analysis could not tell that barrier from a redundant one.
//
// The kernel counts every write system call of the process (/proc/self/io, `syscw`). At the end
// of MPI_Init the tracer takes the count; at each MPI_Barrier, before its Enter, it takes it
// again, and if it grew it records a zero-length visit of the region "write system calls" (role
// file I/O) right before the barrier, where the analysis looks for file I/O since the previous
// synchronisation (analysis/advice/barrier_redundancy.h). The tracer's own writes (its event
// logs' flushes and definitions) are left out; writes to pipes and sockets (the program's
// output, an MPI transport over TCP) count: such a barrier is called possibly redundant, never
// wrongly redundant. One read of a small
// procfs file, about a microsecond, per barrier. Without /proc/self/io every barrier is marked.
// `causeway trace --write-marks off` (CAUSEWAY_WRITE_MARKS=0) marks none.
#pragma once

#include <cstdint>

namespace cw::measure::hook {

// At the start of the measurement (the end of MPI_Init): the count the first barrier compares
// with.
void StartCountingWrites();

// Before an MPI_Barrier's Enter, with the calling context of the barrier call: records the
// marker if the process made write system calls since the previous barrier (or the start).
void MarkWritesBeforeBarrier(uint32_t context);

}  // namespace cw::measure::hook
