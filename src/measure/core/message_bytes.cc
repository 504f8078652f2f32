#include "measure/core/message_bytes.h"

namespace cw::measure {
namespace {

// Where this process stands in a rooted collective.
enum class Side { kRoot, kMember, kNone };

Side SideOf(MPI_Comm comm, int root) {
  if (IsIntercomm(comm)) {
    if (root == MPI_ROOT) return Side::kRoot;
    return root == MPI_PROC_NULL ? Side::kNone : Side::kMember;
  }
  return CommRank(comm) == root ? Side::kRoot : Side::kMember;
}

// This process's entry of per-process counts over the local group (MPI_IN_PLACE on an
// intracommunicator, where the local group is the whole one).
int OwnCount(MPI_Comm comm, const int counts[]) {
  return counts == nullptr ? 0 : counts[CommRank(comm)];
}

}  // namespace

uint64_t Bytes(int count, MPI_Datatype type) {
  MPI_Count size = 0;  // 64-bit: a derived type may span more than 2^31 bytes
  if (count <= 0 || type == MPI_DATATYPE_NULL || PMPI_Type_size_x(type, &size) != MPI_SUCCESS)
    return 0;
  return size > 0 ? static_cast<uint64_t>(count) * static_cast<uint64_t>(size) : 0;
}
uint64_t ReceivedBytes(const MPI_Status* status) {
  MPI_Count bytes = 0;
  if (PMPI_Get_elements_x(status, MPI_BYTE, &bytes) != MPI_SUCCESS || bytes < 0) return 0;
  return static_cast<uint64_t>(bytes);
}
uint64_t CommSize(MPI_Comm comm) {
  int n = 0;
  PMPI_Comm_size(comm, &n);
  return static_cast<uint64_t>(n);
}
int CommRank(MPI_Comm comm) {
  int r = 0;
  PMPI_Comm_rank(comm, &r);
  return r;
}
bool IsIntercomm(MPI_Comm comm) {
  int inter = 0;
  PMPI_Comm_test_inter(comm, &inter);
  return inter != 0;
}
uint64_t Peers(MPI_Comm comm) {
  if (!IsIntercomm(comm)) return CommSize(comm);
  int n = 0;
  PMPI_Comm_remote_size(comm, &n);
  return static_cast<uint64_t>(n);
}

uint64_t SumBytes(MPI_Comm comm, const int counts[], MPI_Datatype type) {
  if (counts == nullptr) return 0;
  uint64_t total = 0;
  const uint64_t n = Peers(comm);
  for (uint64_t i = 0; i < n; ++i) total += Bytes(counts[i], type);
  return total;
}
uint64_t LocalSumBytes(MPI_Comm comm, const int counts[], MPI_Datatype type) {
  if (counts == nullptr) return 0;
  uint64_t total = 0;
  const uint64_t n = CommSize(comm);
  for (uint64_t i = 0; i < n; ++i) total += Bytes(counts[i], type);
  return total;
}
uint64_t SumBytesW(MPI_Comm comm, const int counts[], const MPI_Datatype types[]) {
  if (counts == nullptr || types == nullptr) return 0;
  uint64_t total = 0;
  const uint64_t n = Peers(comm);
  // A zero count's type may be anything: it is not read.
  for (uint64_t i = 0; i < n; ++i) total += counts[i] > 0 ? Bytes(counts[i], types[i]) : 0;
  return total;
}

uint64_t RootSends(MPI_Comm comm, int root, int count, MPI_Datatype type) {
  return SideOf(comm, root) == Side::kRoot ? Bytes(count, type) * Peers(comm) : 0;
}
uint64_t RootSendsV(MPI_Comm comm, int root, const int counts[], MPI_Datatype type) {
  return SideOf(comm, root) == Side::kRoot ? SumBytes(comm, counts, type) : 0;
}
uint64_t RootReceives(MPI_Comm comm, int root, int count, MPI_Datatype type) {
  return RootSends(comm, root, count, type);
}
uint64_t RootReceivesV(MPI_Comm comm, int root, const int counts[], MPI_Datatype type) {
  return RootSendsV(comm, root, counts, type);
}
uint64_t NonRootReceives(MPI_Comm comm, int root, int count, MPI_Datatype type) {
  return SideOf(comm, root) == Side::kMember ? Bytes(count, type) : 0;
}
uint64_t MemberSends(MPI_Comm comm, int root, int count, MPI_Datatype type) {
  const Side side = SideOf(comm, root);
  const bool sends = IsIntercomm(comm) ? side == Side::kMember : true;
  return sends ? Bytes(count, type) : 0;
}

uint64_t GatherSends(MPI_Comm comm, int root, const void* sendbuf, int sendcount,
                     MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype) {
  const Side side = SideOf(comm, root);
  if (IsIntercomm(comm)) return side == Side::kMember ? Bytes(sendcount, sendtype) : 0;
  if (side == Side::kRoot && sendbuf == MPI_IN_PLACE) return Bytes(recvcount, recvtype);
  return Bytes(sendcount, sendtype);
}
uint64_t GathervSends(MPI_Comm comm, int root, const void* sendbuf, int sendcount,
                      MPI_Datatype sendtype, const int recvcounts[], MPI_Datatype recvtype) {
  const Side side = SideOf(comm, root);
  if (IsIntercomm(comm)) return side == Side::kMember ? Bytes(sendcount, sendtype) : 0;
  if (side == Side::kRoot && sendbuf == MPI_IN_PLACE)
    return Bytes(OwnCount(comm, recvcounts), recvtype);
  return Bytes(sendcount, sendtype);
}
uint64_t ScatterReceives(MPI_Comm comm, int root, const void* recvbuf, int recvcount,
                         MPI_Datatype recvtype, int sendcount, MPI_Datatype sendtype) {
  const Side side = SideOf(comm, root);
  if (IsIntercomm(comm)) return side == Side::kMember ? Bytes(recvcount, recvtype) : 0;
  if (side == Side::kRoot && recvbuf == MPI_IN_PLACE) return Bytes(sendcount, sendtype);
  return Bytes(recvcount, recvtype);
}
uint64_t ScattervReceives(MPI_Comm comm, int root, const void* recvbuf, int recvcount,
                          MPI_Datatype recvtype, const int sendcounts[], MPI_Datatype sendtype) {
  const Side side = SideOf(comm, root);
  if (IsIntercomm(comm)) return side == Side::kMember ? Bytes(recvcount, recvtype) : 0;
  if (side == Side::kRoot && recvbuf == MPI_IN_PLACE)
    return Bytes(OwnCount(comm, sendcounts), sendtype);
  return Bytes(recvcount, recvtype);
}

uint64_t AllSends(MPI_Comm comm, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                  int recvcount, MPI_Datatype recvtype) {
  const uint64_t block =
      sendbuf == MPI_IN_PLACE ? Bytes(recvcount, recvtype) : Bytes(sendcount, sendtype);
  return block * Peers(comm);
}
uint64_t AllgathervSends(MPI_Comm comm, const void* sendbuf, int sendcount, MPI_Datatype sendtype,
                         const int recvcounts[], MPI_Datatype recvtype) {
  const uint64_t block = sendbuf == MPI_IN_PLACE ? Bytes(OwnCount(comm, recvcounts), recvtype)
                                                 : Bytes(sendcount, sendtype);
  return block * Peers(comm);
}
uint64_t AlltoallvSends(MPI_Comm comm, const void* sendbuf, const int sendcounts[],
                        MPI_Datatype sendtype, const int recvcounts[], MPI_Datatype recvtype) {
  return sendbuf == MPI_IN_PLACE ? SumBytes(comm, recvcounts, recvtype)
                                 : SumBytes(comm, sendcounts, sendtype);
}
uint64_t AlltoallwSends(MPI_Comm comm, const void* sendbuf, const int sendcounts[],
                        const MPI_Datatype sendtypes[], const int recvcounts[],
                        const MPI_Datatype recvtypes[]) {
  return sendbuf == MPI_IN_PLACE ? SumBytesW(comm, recvcounts, recvtypes)
                                 : SumBytesW(comm, sendcounts, sendtypes);
}

}  // namespace cw::measure
