// OTF2's I/O records as causeway writes them and as Score-P writes them: the definitions (an I/O
// paradigm, regular files, handles) read back, and trace::FileIoOf sums each location's
// operations by file with exact counts and bytes.
#include <gtest/gtest.h>

#include "otf2/trace_reader.h"
#include "otf2_writer/archive_writer.h"
#include "testing/scenario.h"
#include "trace/file_io.h"

namespace cw::otf2 {
namespace {

using otf2_writer::ArchiveWriter;

// Rank 0 writes out.dat through handle 0 and reads in.dat through handle 1; a third handle names
// no file (a Fortran program's, whose open the tracer did not see). Rank 1 uses out.dat only.
// Timestamps and bytes (derivations in the test below):
//   rank 0, handle 0 (out.dat): write 100 asked / 100 done; collective write 40 / 30 (short);
//           a sync (flush mode: no read or write); a non-blocking write of 8 bytes that never
//           completes (counted, without bytes)
//   rank 0, handle 1 (in.dat):  read 64 / 64, read 64 / 0 (end of file)
//   rank 0, handle 2 (no file): write 5 / 5
//   rank 1, handle 3 (out.dat): write 7 / 7
std::string WriteFileIoArchive(const std::string& dir) {
  auto archive = ArchiveWriter::Create(dir, "traces", "causeway", ArchiveWriter::Buffering{});
  EXPECT_TRUE(archive) << archive.error().message();
  if (!archive) return "";
  ArchiveWriter& a = **archive;
  const uint32_t node = a.DefineSystemTreeNode("node", "node", OTF2_UNDEFINED_SYSTEM_TREE_NODE);
  const uint64_t r0 = a.DefineLocation("Master thread", a.DefineLocationGroup("MPI Rank 0", node));
  const uint64_t r1 = a.DefineLocation("Master thread", a.DefineLocationGroup("MPI Rank 1", node));
  const uint32_t world = a.DefineMpiWorld({r0, r1});
  const uint32_t main = a.DefineRegion("main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER, "");
  const uint32_t out = a.DefineIoFile("out.dat", node);
  const uint32_t in = a.DefineIoFile("in.dat", node);
  EXPECT_EQ(a.DefineIoFile("out.dat", node), out);  // interned
  const uint32_t h_out0 = a.DefineMpiIoHandle("out.dat", out, world);
  const uint32_t h_in = a.DefineMpiIoHandle("in.dat", in, world);
  const uint32_t h_none = a.DefineMpiIoHandle("", OTF2_UNDEFINED_IO_FILE, OTF2_UNDEFINED_COMM);
  const uint32_t h_out1 = a.DefineMpiIoHandle("out.dat", out, world);

  otf2_writer::EventWriter& e0 = a.Events(r0);
  e0.Enter(10, main);
  e0.IoCreateHandle(11, h_out0, OTF2_IO_ACCESS_MODE_READ_WRITE, OTF2_IO_CREATION_FLAG_CREATE,
                    OTF2_IO_STATUS_FLAG_NONE);
  e0.IoOperationBegin(12, h_out0, OTF2_IO_OPERATION_MODE_WRITE, OTF2_IO_OPERATION_FLAG_NONE, 100,
                      1);
  e0.IoOperationComplete(13, h_out0, 100, 1);
  e0.IoOperationBegin(14, h_out0, OTF2_IO_OPERATION_MODE_WRITE, OTF2_IO_OPERATION_FLAG_COLLECTIVE,
                      40, 2);
  e0.IoOperationComplete(15, h_out0, 30, 2);
  e0.IoOperationBegin(16, h_out0, OTF2_IO_OPERATION_MODE_FLUSH, OTF2_IO_OPERATION_FLAG_COLLECTIVE,
                      0, 3);
  e0.IoOperationComplete(17, h_out0, 0, 3);
  e0.IoOperationBegin(18, h_in, OTF2_IO_OPERATION_MODE_READ, OTF2_IO_OPERATION_FLAG_NONE, 64, 4);
  e0.IoOperationComplete(19, h_in, 64, 4);
  e0.IoOperationBegin(20, h_in, OTF2_IO_OPERATION_MODE_READ, OTF2_IO_OPERATION_FLAG_NONE, 64, 5);
  e0.IoOperationComplete(21, h_in, 0, 5);
  e0.IoOperationBegin(22, h_none, OTF2_IO_OPERATION_MODE_WRITE, OTF2_IO_OPERATION_FLAG_NONE, 5, 6);
  e0.IoOperationComplete(23, h_none, 5, 6);
  e0.IoOperationBegin(24, h_out0, OTF2_IO_OPERATION_MODE_WRITE, OTF2_IO_OPERATION_FLAG_NON_BLOCKING,
                      8, 7);
  e0.IoOperationIssued(25, h_out0, 7);
  e0.IoDestroyHandle(26, h_out0);
  e0.Leave(30, main);

  otf2_writer::EventWriter& e1 = a.Events(r1);
  e1.Enter(10, main);
  e1.IoOperationBegin(12, h_out1, OTF2_IO_OPERATION_MODE_WRITE, OTF2_IO_OPERATION_FLAG_NONE, 7, 1);
  e1.IoOperationComplete(13, h_out1, 7, 1);
  e1.Leave(30, main);
  const Status closed = a.Close(1'000'000'000);
  EXPECT_TRUE(closed.has_value()) << closed.error().message();
  return a.anchor_path();
}

TEST(FileIoTest, IoDefinitionsAndOperationsReadBackWithTheirBytesPerLocationAndFile) {
  const std::string anchor = WriteFileIoArchive(testing::MakeTempDir("file-io"));
  ASSERT_FALSE(anchor.empty());
  Result<trace::Trace> t = ReadTrace(anchor, ReadOptions{});
  ASSERT_TRUE(t) << t.error().message();
  const trace::Definitions& defs = t->defs;
  ASSERT_EQ(defs.io_files.size(), 2u);
  ASSERT_EQ(defs.io_handles.size(), 4u);
  EXPECT_EQ(defs.str(defs.io_files[0].name), "out.dat");
  EXPECT_EQ(defs.str(defs.io_files[1].name), "in.dat");
  EXPECT_EQ(defs.io_handles[2].file, trace::kNone);
  for (uint32_t h = 0; h < 4; ++h) EXPECT_TRUE(defs.IsMpiIoHandle(h)) << h;
  EXPECT_FALSE(defs.IsMpiIoHandle(4));
  EXPECT_EQ(defs.IoFileName(1), "in.dat");
  EXPECT_EQ(defs.IoFileName(2), "");

  // Rank 0, by file id: out.dat (0) 3 writes (the flush is neither; the unfinished one counts
  // without bytes), 100 + 30 bytes written; in.dat (1) 2 reads, 64 + 0 bytes read; no file
  // (kNone, last in file-id order) 1 write of 5 bytes.
  const std::vector<trace::FileIoUse> rank0 = trace::FileIoOf(*t, 0);
  ASSERT_EQ(rank0.size(), 3u);
  EXPECT_EQ(rank0[0].file, 0u);
  EXPECT_EQ(rank0[0].reads, 0u);
  EXPECT_EQ(rank0[0].writes, 3u);
  EXPECT_EQ(rank0[0].bytes_written, 130u);
  EXPECT_EQ(rank0[1].file, 1u);
  EXPECT_EQ(rank0[1].reads, 2u);
  EXPECT_EQ(rank0[1].bytes_read, 64u);
  EXPECT_EQ(rank0[2].file, trace::kNone);
  EXPECT_EQ(rank0[2].writes, 1u);
  EXPECT_EQ(rank0[2].bytes_written, 5u);
  for (const trace::FileIoUse& u : rank0) EXPECT_EQ(u.location, 0u);
  // Rank 1: its own handle on out.dat, 1 write of 7 bytes.
  const std::vector<trace::FileIoUse> rank1 = trace::FileIoOf(*t, 1);
  ASSERT_EQ(rank1.size(), 1u);
  EXPECT_EQ(rank1[0].file, 0u);
  EXPECT_EQ(rank1[0].location, 1u);
  EXPECT_EQ(rank1[0].writes, 1u);
  EXPECT_EQ(rank1[0].bytes_written, 7u);
}

}  // namespace
}  // namespace cw::otf2
