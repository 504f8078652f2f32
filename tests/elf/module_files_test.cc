// Which files are read as modules (elf/elf_module.h): a memory map names device files too, and a
// damaged one any path. Only regular files are opened; a FIFO, whose open would wait for a
// writer forever, and a device such as /dev/zero are no module, at once.
#include <sys/stat.h>

#include <string>

#include <gtest/gtest.h>

#include "elf/debug_info.h"
#include "elf/elf_module.h"
#include "elf/needed_libraries.h"
#include "testing/temp_dir.h"

namespace cw::elf {
namespace {

TEST(ModuleFilesTest, ARegularElfFileIsReadAsAModule) {
  EXPECT_TRUE(IsModuleFile("/proc/self/exe"));  // a symbolic link to this test's executable
  const ElfModule m = ReadElfModule("/proc/self/exe");
  EXPECT_TRUE(m.readable);
  EXPECT_FALSE(m.loads.empty());
}

TEST(ModuleFilesTest, AFifoOrADeviceIsNoModuleAndNothingWaits) {
  const std::string fifo = testing::MakeTempDir("module-files") + "/fifo";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  for (const std::string& path : {fifo, std::string("/dev/zero"), std::string("/dev/null")}) {
    EXPECT_FALSE(IsModuleFile(path)) << path;
    // Each would block here (open of a FIFO without a writer) or read forever (/dev/zero).
    EXPECT_FALSE(ReadElfModule(path).readable) << path;
    EXPECT_TRUE(ReadDynamicNeeds(path).needed.empty()) << path;
    const DebugInfo info(path);
    EXPECT_FALSE(info.has_dwarf()) << path;
    EXPECT_EQ(info.FunctionStart(0x1000), UINT64_MAX) << path;
  }
  EXPECT_FALSE(IsModuleFile("/nonexistent/module.so"));
}

}  // namespace
}  // namespace cw::elf
