// The construct map: every construct causeway records maps to the generic operation type its
// role says, a user's file extends and overrides the table, and bad lines are refused.
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "analysis/generic/construct_map.h"
#include "measure/wrappers/mpi_functions.gen.h"
#include "measure/wrappers/shmem_functions.gen.h"
#include "testing/scenario.h"
#include "tests/common/paths.h"

namespace cw::analysis {
namespace {

const ConstructMap& Map() { return ConstructMap::Builtin(); }

TEST(ConstructMapTest, EveryMpiFunctionThatCommunicatesHasACommunicationType) {
  for (const measure::MpiFunctionInfo& f : measure::kMpiFunctions) {
    SCOPED_TRACE(f.name);
    const GenericType t = Map().Classify(f.name);
    switch (f.role) {
      case OTF2_REGION_ROLE_BARRIER:
        EXPECT_EQ(t, GenericType::kGroupSync);
        break;
      case OTF2_REGION_ROLE_COLL_ONE2ALL:
      case OTF2_REGION_ROLE_COLL_ALL2ONE:
      case OTF2_REGION_ROLE_COLL_ALL2ALL:
      case OTF2_REGION_ROLE_COLL_OTHER:
        EXPECT_EQ(t, GenericType::kGroupComm);
        break;
      case OTF2_REGION_ROLE_POINT2POINT:
        EXPECT_TRUE(t == GenericType::kSend || t == GenericType::kReceive ||
                    t == GenericType::kCommSync)
            << GenericTypeName(t);
        break;
      default:
        break;
    }
  }
  EXPECT_EQ(Map().Classify("MPI_Isend"), GenericType::kSend);
  EXPECT_EQ(Map().Classify("MPI_Probe"), GenericType::kReceive);
  EXPECT_EQ(Map().Classify("MPI_Waitall"), GenericType::kCommSync);
  EXPECT_EQ(Map().Classify("MPI_Put"), GenericType::kPut);
  EXPECT_EQ(Map().Classify("MPI_Rget"), GenericType::kGet);
  EXPECT_EQ(Map().Classify("MPI_Fetch_and_op"), GenericType::kAtomic);
  EXPECT_EQ(Map().Classify("MPI_Win_lock"), GenericType::kLockAcquire);
  EXPECT_EQ(Map().Classify("MPI_Win_unlock_all"), GenericType::kLockRelease);
  EXPECT_EQ(Map().Classify("MPI_Win_fence"), GenericType::kCommSync);
  EXPECT_EQ(Map().Classify("MPI_Init"), GenericType::kInitialization);
  EXPECT_EQ(Map().Classify("MPI_Comm_rank"), GenericType::kEnvironmentInquiry);
  EXPECT_EQ(Map().Classify("MPI_Comm_split"), GenericType::kLocal);
}

// OpenSHMEM: transfers are puts and gets, atomics atomic, barriers group synchronisation,
// collectives group communication, allocation memory management; waits for a value, locks and
// quiet/fence by their names (Su 2010 Table 4-2).
TEST(ConstructMapTest, EveryOpenShmemRoutineHasItsType) {
  for (const measure::ShmemFunctionInfo& f : measure::kShmemFunctions) {
    SCOPED_TRACE(f.name);
    const std::string name = f.name;
    const GenericType t = Map().Classify(name);
    switch (f.role) {
      case OTF2_REGION_ROLE_RMA:
        EXPECT_EQ(t, name.find("get") != std::string::npos || name.back() == 'g'
                         ? GenericType::kGet
                         : GenericType::kPut);
        break;
      case OTF2_REGION_ROLE_ATOMIC:
        EXPECT_EQ(t, GenericType::kAtomic);
        break;
      case OTF2_REGION_ROLE_BARRIER:
        EXPECT_EQ(t, GenericType::kGroupSync);
        break;
      case OTF2_REGION_ROLE_COLL_ONE2ALL:
      case OTF2_REGION_ROLE_COLL_ALL2ALL:
        EXPECT_EQ(t, GenericType::kGroupComm);
        break;
      case OTF2_REGION_ROLE_ALLOCATE:
      case OTF2_REGION_ROLE_DEALLOCATE:
      case OTF2_REGION_ROLE_REALLOCATE:
        EXPECT_EQ(t, GenericType::kMemoryManagement);
        break;
      default:
        if (name.find("wait") != std::string::npos || name.ends_with("_test")) {
          EXPECT_EQ(t, GenericType::kWaitOnValue);
        } else if (name == "shmem_clear_lock") {
          EXPECT_EQ(t, GenericType::kLockRelease);
        } else if (name.ends_with("_lock")) {
          EXPECT_EQ(t, GenericType::kLockAcquire);
        } else if (name.ends_with("quiet") || name.ends_with("fence")) {
          EXPECT_EQ(t, GenericType::kCommSync);
        }
        break;
    }
  }
  EXPECT_EQ(Map().Classify("shmem_init"), GenericType::kInitialization);
  EXPECT_EQ(Map().Classify("shmem_ptr"), GenericType::kEnvironmentInquiry);
  EXPECT_EQ(Map().Classify("shmem_ctx_create"), GenericType::kLocal);
}

// OpenMP constructs by the names Score-P's Opari2 adapter gives them: the implicit barrier is a
// group synchronisation like the explicit one, a critical construct acquires a lock but its
// body (the "sblock" region) is the program's own work.
TEST(ConstructMapTest, OpenMpConstructsAsScorePNamesThem) {
  EXPECT_EQ(Map().Classify("!$omp barrier @a.c:10"), GenericType::kGroupSync);
  EXPECT_EQ(Map().Classify("!$omp implicit barrier @a.c:12"), GenericType::kGroupSync);
  EXPECT_EQ(Map().Classify("!$omp critical @a.c:20"), GenericType::kLockAcquire);
  EXPECT_EQ(Map().Classify("!$omp critical sblock @a.c:20"), GenericType::kLocal);
  EXPECT_EQ(Map().Classify("!$omp for @a.c:30"), GenericType::kWorkSharing);
  EXPECT_EQ(Map().Classify("omp_set_lock"), GenericType::kLockAcquire);
  EXPECT_EQ(Map().Classify("omp_unset_lock"), GenericType::kLockRelease);
}

TEST(ConstructMapTest, AUserFileExtendsAndOverridesTheTable) {
  Result<ConstructMap> map = ConstructMap::WithUserText(
      "# mine\nmy_wait_until   wait_on_value\nMPI_Send local  # overrides causeway's line\n"
      "solver_*  work_sharing\n",
      "mine.map");
  ASSERT_TRUE(map.has_value()) << map.error().message();
  EXPECT_EQ(map->Classify("my_wait_until"), GenericType::kWaitOnValue);
  EXPECT_EQ(map->Classify("MPI_Send"), GenericType::kLocal);
  EXPECT_EQ(map->Classify("solver_sweep"), GenericType::kWorkSharing);
  EXPECT_EQ(map->Classify("MPI_Recv"), GenericType::kReceive);  // causeway's lines still apply
  EXPECT_EQ(map->Lines().front(), "my_wait_until wait_on_value");
  EXPECT_EQ(Map().Classify("my_wait_until"), GenericType::kLocal);
}

TEST(ConstructMapTest, BadLinesAreRefusedWithTheirPlace) {
  Result<ConstructMap> unknown = ConstructMap::WithUserText("a put\nb waiting\n", "x.map");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().message().find("x.map:2"), std::string::npos);
  EXPECT_NE(unknown.error().message().find("\"waiting\""), std::string::npos);
  Result<ConstructMap> missing = ConstructMap::WithUserText("only_a_name\n", "y.map");
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message().find("y.map:1"), std::string::npos);
  EXPECT_FALSE(ConstructMap::WithUserText("a put extra\n", "z.map").has_value());
  EXPECT_FALSE(ConstructMap::WithUserFile("/nonexistent/file.map").has_value());
}

// `causeway analyze --construct-map` puts the user's types into report.json.
TEST(ConstructMapTest, AnalyzeReportsEachCallPathsGenericType) {
  testing::Scenario s(2);
  s.rank(0).Enter(0, "main").Call(1, 2, "my_wait_until").Send(3, 4, 1, 0, 8).Leave(5, "main");
  s.rank(1).Enter(0, "main").Recv(1, 4, 0, 0, 8).Leave(5, "main");
  const std::string dir = testing::MakeTempDir("construct-map");
  const std::string anchor = s.WriteOrDie(dir);
  const std::string map = dir + "/mine.map";
  std::ofstream(map) << "my_wait_until wait_on_value\n";
  std::string out;
  ASSERT_EQ(test::RunCommand(test::CausewayBinary() + " analyze -q " + anchor + " -o " + dir +
                                 "/report --construct-map " + map,
                             &out),
            0)
      << out;
  std::ifstream in(dir + "/report/report.json");
  const nlohmann::json report = nlohmann::json::parse(in);
  std::map<std::string, std::string> types;
  for (const nlohmann::json& c : report["callpaths"]) types[c["region"]] = c["generic_type"];
  EXPECT_EQ(types["my_wait_until"], "wait_on_value");
  EXPECT_EQ(types["MPI_Send"], "send");
  EXPECT_EQ(types["MPI_Recv"], "receive");
  EXPECT_EQ(types["main"], "local");
  // A map with a bad line stops the analysis with the line's place.
  std::ofstream(map) << "my_wait_until waits\n";
  EXPECT_NE(test::RunCommand(test::CausewayBinary() + " analyze -q " + anchor + " -o " + dir +
                                 "/report2 --construct-map " + map,
                             &out),
            0);
  EXPECT_NE(out.find("mine.map:1"), std::string::npos) << out;
}

}  // namespace
}  // namespace cw::analysis
