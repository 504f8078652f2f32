// The bytes an MPI call moves, as the wrappers' hooks compute them from its arguments
// (mpi_functions.def): shared by the tracer's hooks and the task activity graph's
// (measure/tag_runtime), which are generated from the same description.
//
// Only the arguments the MPI standard makes significant at this process are read: on an
// intercommunicator a collective's per-process arrays have an entry per process of the remote
// group, a rooted collective's root passes MPI_ROOT, the rest of its group MPI_PROC_NULL and the
// other group the root's rank; arguments significant only at the root are not read elsewhere;
// with MPI_IN_PLACE the ignored send (or receive) arguments are not read, and the call counts
// the bytes of the same call without MPI_IN_PLACE. Byte counts follow Score-P's conventions
// for intracommunicators: a root counts the block it sends to (receives from) itself.
#pragma once

#include <mpi.h>

#include <cstdint>

namespace cw::measure {

uint64_t Bytes(int count, MPI_Datatype type);
// The bytes a completed receive got (64-bit: a message may hold more than 2^31 bytes).
uint64_t ReceivedBytes(const MPI_Status* status);
uint64_t CommSize(MPI_Comm comm);
int CommRank(MPI_Comm comm);
bool IsIntercomm(MPI_Comm comm);
// The processes a collective exchanges blocks with: the communicator's size, or the remote
// group's size on an intercommunicator.
uint64_t Peers(MPI_Comm comm);
// Sum over the peers of per-peer counts (of one type, or of one type each).
uint64_t SumBytes(MPI_Comm comm, const int counts[], MPI_Datatype type);
uint64_t SumBytesW(MPI_Comm comm, const int counts[], const MPI_Datatype types[]);
// Sum over the local group of per-process counts (MPI_Reduce_scatter's receive counts, which
// have an entry per process of the local group on an intercommunicator too).
uint64_t LocalSumBytes(MPI_Comm comm, const int counts[], MPI_Datatype type);

// Rooted collectives. The root sends (receives) one block per peer; a member other than the
// root receives (sends) one block.
uint64_t RootSends(MPI_Comm comm, int root, int count, MPI_Datatype type);
uint64_t RootSendsV(MPI_Comm comm, int root, const int counts[], MPI_Datatype type);
uint64_t RootReceives(MPI_Comm comm, int root, int count, MPI_Datatype type);
uint64_t RootReceivesV(MPI_Comm comm, int root, const int counts[], MPI_Datatype type);
// MPI_Bcast: what a process other than the root receives.
uint64_t NonRootReceives(MPI_Comm comm, int root, int count, MPI_Datatype type);
// MPI_Reduce: what a contributing process sends (every process of an intracommunicator, the
// group other than the root's on an intercommunicator).
uint64_t MemberSends(MPI_Comm comm, int root, int count, MPI_Datatype type);
// MPI_Gather(v): the block a process sends to the root (MPI_IN_PLACE at the root: its own block
// as the receive arguments describe it).
uint64_t GatherSends(MPI_Comm comm, int root, const void* sendbuf, int sendcount,
                     MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype);
uint64_t GathervSends(MPI_Comm comm, int root, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, const int recvcounts[], MPI_Datatype recvtype);
// MPI_Scatter(v): the block a process receives from the root (MPI_IN_PLACE at the root: its own
// block as the send arguments describe it).
uint64_t ScatterReceives(MPI_Comm comm, int root, const void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, int sendcount, MPI_Datatype sendtype);
uint64_t ScattervReceives(MPI_Comm comm, int root, const void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, const int sendcounts[], MPI_Datatype sendtype);

// All-to-all kinds. MPI_Allgather and MPI_Alltoall send one block per peer (MPI_IN_PLACE: the
// receive block); MPI_Allgatherv sends its block to every peer (MPI_IN_PLACE: its own entry of
// the receive counts); MPI_Alltoallv and MPI_Alltoallw send what their counts say
// (MPI_IN_PLACE: what they receive).
uint64_t AllSends(MPI_Comm comm, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                  int recvcount, MPI_Datatype recvtype);
uint64_t AllgathervSends(MPI_Comm comm, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                         const int recvcounts[], MPI_Datatype recvtype);
uint64_t AlltoallvSends(MPI_Comm comm, const void* sendbuf, const int sendcounts[],
                        MPI_Datatype sendtype, const int recvcounts[], MPI_Datatype recvtype);
uint64_t AlltoallwSends(MPI_Comm comm, const void* sendbuf, const int sendcounts[],
                        const MPI_Datatype sendtypes[], const int recvcounts[],
                        const MPI_Datatype recvtypes[]);

}  // namespace cw::measure
