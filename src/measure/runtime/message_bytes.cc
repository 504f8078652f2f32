#include "measure/runtime/message_bytes.h"

namespace cw::measure {

uint64_t Bytes(int count, MPI_Datatype type) {
  int size = 0;
  if (type == MPI_DATATYPE_NULL || PMPI_Type_size(type, &size) != MPI_SUCCESS) return 0;
  return count > 0 && size > 0 ? static_cast<uint64_t>(count) * static_cast<uint64_t>(size) : 0;
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
uint64_t RootSends(MPI_Comm comm, int root, int count, MPI_Datatype type) {
  return CommRank(comm) == root ? Bytes(count, type) * CommSize(comm) : 0;
}
uint64_t NonRootReceives(MPI_Comm comm, int root, int count, MPI_Datatype type) {
  return CommRank(comm) == root ? 0 : Bytes(count, type);
}
uint64_t RootReceives(MPI_Comm comm, int root, int count, MPI_Datatype type) {
  return RootSends(comm, root, count, type);
}
uint64_t SumBytes(MPI_Comm comm, const int counts[], MPI_Datatype type) {
  if (counts == nullptr) return 0;
  uint64_t total = 0;
  const uint64_t n = CommSize(comm);
  for (uint64_t i = 0; i < n; ++i) total += Bytes(counts[i], type);
  return total;
}
uint64_t SumBytesW(MPI_Comm comm, const int counts[], const MPI_Datatype types[]) {
  if (counts == nullptr || types == nullptr) return 0;
  uint64_t total = 0;
  const uint64_t n = CommSize(comm);
  for (uint64_t i = 0; i < n; ++i) total += Bytes(counts[i], types[i]);
  return total;
}

uint64_t RootSendsV(MPI_Comm comm, int root, const int counts[], MPI_Datatype type) {
  return CommRank(comm) == root ? SumBytes(comm, counts, type) : 0;
}
uint64_t RootReceivesV(MPI_Comm comm, int root, const int counts[], MPI_Datatype type) {
  return RootSendsV(comm, root, counts, type);
}

}  // namespace cw::measure
