// Fortran MPI programs (tests/programs/*.f90) under `causeway trace`: the three Fortran
// bindings (`use mpi`, `use mpi_f08`, `mpif.h`) and MPI-IO's CHARACTER file names, with the
// waits the programs were written to produce.
#include <string>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/common/paths.h"
#include "tests/common/traced_checks.h"
#include "tests/common/traced_program.h"

namespace cw::test {
namespace {

using nlohmann::json;

#ifdef CW_HAVE_FORTRAN_PROGRAMS
// The Fortran programs' waits are programmed; their ranks yield while they wait
// (kIdleRanksYield), so that a rank that polls does not keep the one that must send off the CPU
// when other tests load the cores.
TEST(TracedProgramsTest, FortranWithUseMpi) {
  const std::string dir = TraceProgram("fortran_patterns", 2, "", "", nullptr, kIdleRanksYield);
  ExpectOtf2PrintReads(dir);
  const json report = Analyze(dir);
  // tests/programs/fortran_patterns.f90: 100 ms in each of MPI_Recv, MPI_Waitall (an array of
  // requests and statuses), MPI_Waitany (an index counted from 1) and MPI_Allreduce.
  ExpectWait(MetricTotal(report, "mpi_latesender", "MPI_Recv"), 0.1);
  ExpectWait(MetricTotal(report, "mpi_latesender", "MPI_Waitall"), 0.1);
  ExpectWait(MetricTotal(report, "mpi_latesender", "MPI_Waitany"), 0.1);
  ExpectWait(MetricTotal(report, "mpi_wait_nxn", "MPI_Allreduce"), 0.1);
  EXPECT_EQ(report["matching"]["messages"].get<uint64_t>(), 5u);
  EXPECT_EQ(report["matching"]["unmatched_receives"].get<uint64_t>(), 0u);
  const json info = Info(dir);
  EXPECT_EQ(Count(info, "MPI_IRECV"), 4u);
  EXPECT_EQ(Count(info, "MPI_ISEND_COMPLETE"), 2u);
}

// The same phases from Fortran 2008 (`use mpi_f08`): derived-type handles, IERROR left out,
// MPI_STATUS_IGNORE and MPI_STATUSES_IGNORE, an MPI_IN_PLACE allreduce; the program's own
// output (what it received, the last status, the sum) is the same as without the tracer.
TEST(TracedProgramsTest, FortranWithUseMpiF08) {
  std::string output;
  const std::string dir = TraceProgram("fortran_f08", 2, "", "", &output, kIdleRanksYield);
  EXPECT_NE(output.find("rank 1 got  1  1  2  1  2; last from  0  5"), std::string::npos) << output;
  EXPECT_NE(output.find("sum  3"), std::string::npos) << output;
  ExpectOtf2PrintReads(dir);
  const json report = Analyze(dir);
  ExpectWait(MetricTotal(report, "mpi_latesender", "MPI_Recv"), 0.1);
  ExpectWait(MetricTotal(report, "mpi_latesender", "MPI_Waitall"), 0.1);
  ExpectWait(MetricTotal(report, "mpi_latesender", "MPI_Waitany"), 0.1);
  ExpectWait(MetricTotal(report, "mpi_wait_nxn", "MPI_Allreduce"), 0.1);
  EXPECT_EQ(report["matching"]["messages"].get<uint64_t>(), 5u);
  EXPECT_EQ(report["matching"]["unmatched_receives"].get<uint64_t>(), 0u);
  const json info = Info(dir);
  EXPECT_EQ(Count(info, "MPI_IRECV"), 4u);
  EXPECT_EQ(Count(info, "MPI_ISEND_COMPLETE"), 2u);
}

// MPI-IO from Fortran: the file name arrives as a CHARACTER argument with its length hidden
// after the others, padded with blanks; the tracer passes both on unchanged (the program reads
// back what it wrote) and records the handle under the name without the padding. Each rank
// writes 10 integers (40 bytes) individually and reads them back collectively.
TEST(TracedProgramsTest, FortranMpiIoKeepsItsFileName) {
  std::string output;
  const std::string dir = TraceProgram("fortran_io", 2, "", "", &output);
  EXPECT_NE(output.find("read back 1090"), std::string::npos) << output;
  ExpectOtf2PrintReads(dir);
  const json report = Analyze(dir);
  EXPECT_EQ(MetricTotal(report, "mpi_file_iwbytes", "MPI_File_write_at"), 2 * 40.0);
  EXPECT_EQ(MetricTotal(report, "mpi_file_crbytes", "MPI_File_read_at_all"), 2 * 40.0);
  EXPECT_EQ(MetricTotal(report, "visits", "MPI_File_delete"), 1.0);
  ASSERT_EQ(report["file_io"].size(), 2u);
  for (const json& f : report["file_io"]) {
    const std::string name = f["file"].get<std::string>();
    EXPECT_EQ(name.substr(name.rfind('/') + 1), "causeway-fortran-io.dat") << f;
    EXPECT_EQ(f["reads"].get<uint64_t>(), 1u);
    EXPECT_EQ(f["writes"].get<uint64_t>(), 1u);
    EXPECT_EQ(f["bytes_read"].get<uint64_t>(), 40u);
    EXPECT_EQ(f["bytes_written"].get<uint64_t>(), 40u);
  }
}

TEST(TracedProgramsTest, FortranWithMpifH) {
  const std::string dir = TraceProgram("fortran_mpif", 2, "", "", nullptr, kIdleRanksYield);
  ExpectOtf2PrintReads(dir);
  ExpectWait(MetricTotal(Analyze(dir), "mpi_latesender", "MPI_Recv"), 0.1);
}
#endif

}  // namespace
}  // namespace cw::test
