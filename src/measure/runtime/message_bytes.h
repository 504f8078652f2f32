// The bytes an MPI call moves, as the wrappers' hooks compute them from its arguments
// (mpi_functions.def): shared by the tracer's hooks and the task activity graph's
// (measure/tag_runtime), which are generated from the same description.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace cw::measure {

uint64_t Bytes(int count, MPI_Datatype type);
uint64_t CommSize(MPI_Comm comm);
int CommRank(MPI_Comm comm);
// Rooted collectives: what the root sends to (receives from) all members, 0 elsewhere; what a
// member other than the root receives.
uint64_t RootSends(MPI_Comm comm, int root, int count, MPI_Datatype type);
uint64_t RootSendsV(MPI_Comm comm, int root, const int counts[], MPI_Datatype type);
uint64_t NonRootReceives(MPI_Comm comm, int root, int count, MPI_Datatype type);
uint64_t RootReceives(MPI_Comm comm, int root, int count, MPI_Datatype type);
uint64_t RootReceivesV(MPI_Comm comm, int root, const int counts[], MPI_Datatype type);
// Sums over the communicator's members of per-member counts.
uint64_t SumBytes(MPI_Comm comm, const int counts[], MPI_Datatype type);
uint64_t SumBytesW(MPI_Comm comm, const int counts[], const MPI_Datatype types[]);

}  // namespace cw::measure
