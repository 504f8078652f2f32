#include "measure/core/clock_offset.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace cw::measure {
namespace {

constexpr int kRounds = 5;
constexpr int kIdentityBytes = 256;

// The contents of a small file under /proc, "" if it cannot be read.
std::string ReadSmallFile(const char* path) {
  const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  char buffer[200];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  ::close(fd);
  return n > 0 ? std::string(buffer, static_cast<size_t>(n)) : "";
}

// Which ranks share rank 0's clock (1), from rank 0's identity broadcast to all and a flag
// gathered from each.
std::vector<int> RanksSharingTheClock(MPI_Comm comm, int size, const std::string& mine) {
  char own[kIdentityBytes] = {};
  std::memcpy(own, mine.data(), std::min<size_t>(mine.size(), kIdentityBytes - 1));
  char root[kIdentityBytes];
  std::memcpy(root, own, kIdentityBytes);
  PMPI_Bcast(root, kIdentityBytes, MPI_CHAR, 0, comm);
  int same = own[0] != '\0' && std::memcmp(own, root, kIdentityBytes) == 0 ? 1 : 0;
  std::vector<int> all(static_cast<size_t>(size), 0);
  PMPI_Allgather(&same, 1, MPI_INT, all.data(), 1, MPI_INT, comm);
  return all;
}

}  // namespace

std::string SystemClockIdentity() {
  const std::string boot = ReadSmallFile("/proc/sys/kernel/random/boot_id");
  if (boot.empty()) return "";
  // Without time namespaces (kernels before 5.6) the file is missing and the offsets are 0.
  return boot + ReadSmallFile("/proc/self/timens_offsets");
}

ClockComparison CompareClockWithRankZero(MPI_Comm comm, int rank, int size, uint64_t (*now)(),
                                         const std::optional<std::string>& clock_identity) {
  const std::vector<int> same = clock_identity ? RanksSharingTheClock(comm, size, *clock_identity)
                                               : std::vector<int>(static_cast<size_t>(size), 0);
  ClockComparison result;
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      if (same[static_cast<size_t>(r)] != 0) continue;
      uint64_t best_rtt = ~uint64_t{0};
      int64_t best[2] = {0, 0};  // the other rank's clock, and its offset
      for (int k = 0; k < kRounds; ++k) {
        const uint64_t t0 = now();
        uint64_t remote = 0;
        PMPI_Send(&t0, 1, MPI_UINT64_T, r, 1, comm);
        PMPI_Recv(&remote, 1, MPI_UINT64_T, r, 2, comm, MPI_STATUS_IGNORE);
        const uint64_t t1 = now();
        if (t1 - t0 < best_rtt) {
          best_rtt = t1 - t0;
          best[0] = static_cast<int64_t>(remote);
          best[1] = static_cast<int64_t>(remote) - static_cast<int64_t>(t0 + (t1 - t0) / 2);
        }
      }
      PMPI_Send(best, 2, MPI_INT64_T, r, 3, comm);
    }
    result.local = static_cast<int64_t>(now());
    return result;
  }
  if (same[static_cast<size_t>(rank)] != 0) {
    result.local = static_cast<int64_t>(now());
    return result;
  }
  for (int k = 0; k < kRounds; ++k) {
    uint64_t t0 = 0;
    PMPI_Recv(&t0, 1, MPI_UINT64_T, 0, 1, comm, MPI_STATUS_IGNORE);
    const uint64_t t = now();
    PMPI_Send(&t, 1, MPI_UINT64_T, 0, 2, comm);
  }
  int64_t best[2] = {0, 0};
  PMPI_Recv(best, 2, MPI_INT64_T, 0, 3, comm, MPI_STATUS_IGNORE);
  result.local = best[0];
  result.offset = best[1];
  result.measured = true;
  return result;
}

}  // namespace cw::measure
