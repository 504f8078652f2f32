// Call paths of an unmodified program (causeway trace --callpaths): tests/programs/callpaths/
// nested_compute.c, built with -O1 -g and no instrumentation, traced with the stack walked at
// every MPI call and sampled between calls. Its structure is known: rank 1 waits in
// main/step/exchange/MPI_Sendrecv for rank 0, which computes 25 ms a step longer in
// main/step/prepare/smooth.
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include "tests/common/paths.h"
#include "tests/common/traced_checks.h"
#include "tests/common/traced_program.h"

namespace cw::test {
namespace {

using nlohmann::json;

constexpr int kSteps = 8;

// Each call path's full name ("main/step/exchange/MPI_Sendrecv") by its id.
std::map<uint64_t, std::string> CallpathNames(const json& report) {
  std::map<uint64_t, const json*> by_id;
  for (const json& c : report["callpaths"]) by_id[c["id"].get<uint64_t>()] = &c;
  std::map<uint64_t, std::string> names;
  for (const auto& [id, c] : by_id) {
    std::string name = (*c)["region"];
    for (const json* p = c; !(*p)["parent"].is_null();) {
      p = by_id[(*p)["parent"].get<uint64_t>()];
      name = (*p)["region"].get<std::string>() + "/" + name;
    }
    names[id] = name;
  }
  return names;
}

// `metric` summed over locations, per full call path name.
std::map<std::string, double> ByCallpath(const json& report, const std::string& metric) {
  const std::map<uint64_t, std::string> names = CallpathNames(report);
  std::map<std::string, double> values;
  for (const json& v : report["values"]) {
    if (v["metric"] == metric)
      values[names.at(v["callpath"].get<uint64_t>())] += v["value"].get<double>();
  }
  return values;
}

double Under(const std::map<std::string, double>& values, const std::string& prefix) {
  double total = 0;
  for (const auto& [path, value] : values) {
    if (path == prefix || path.rfind(prefix + "/", 0) == 0) total += value;
  }
  return total;
}

TEST(CallpathsTest, SampledPathsNameTheNestedFunctionThatCausesTheWait) {
  const std::string dir = TraceProgram("nested_compute", 2, std::to_string(kSteps));
  ExpectOtf2PrintReads(dir);
  ExpectNestingSurvivesTimeOrder(dir);
  const json report = Analyze(dir);
  // The wait is where the program waits: every Late Sender at the exchange's MPI_Sendrecv,
  // 25 ms a step (within 20 %: a real run on a shared machine).
  const std::map<std::string, double> late = ByCallpath(report, "mpi_latesender");
  double total_late = 0;
  for (const auto& [path, value] : late) total_late += value;
  ASSERT_GT(total_late, 0.0);
  EXPECT_DOUBLE_EQ(Under(late, "main/step/exchange/MPI_Sendrecv"), total_late);
  EXPECT_NEAR(total_late, kSteps * 0.025, kSteps * 0.025 * 0.2);
  // Its root cause is the nested function's computation: the delay costs of
  // main/step/prepare/smooth (and what smooth calls) hold most of the waiting. The rest is the
  // sampling's resolution: the time between a call and the first sample after it is shared
  // halfway (2 ms samples: about 1 ms a step of the 25 ms).
  const std::map<std::string, double> delay = ByCallpath(report, "delay_mpi");
  const double in_smooth = Under(delay, "main/step/prepare/smooth");
  EXPECT_GT(in_smooth, 0.75 * total_late)
      << "delay in smooth " << in_smooth << " of " << total_late;
  // main itself (between MPI_Init and the first step) causes next to nothing.
  EXPECT_LT(delay.count("main") > 0 ? delay.at("main") : 0.0, 0.05 * total_late);
}

TEST(CallpathsTest, CallsOnlyKeepTheComputationWithTheDeepestSharedFunction) {
  // Without samples, the computation between two calls of main/step/exchange stays with
  // main/step/exchange: nothing says the program went through prepare.
  const std::string dir =
      TraceProgram("nested_compute", 2, std::to_string(kSteps), "--callpaths calls");
  const json report = Analyze(dir);
  const std::map<std::string, double> delay = ByCallpath(report, "delay_mpi");
  for (const auto& [path, value] : delay)
    EXPECT_EQ(path.find("prepare"), std::string::npos) << path;
  double total_late = 0;
  for (const auto& [path, value] : ByCallpath(report, "mpi_latesender")) total_late += value;
  EXPECT_DOUBLE_EQ(Under(delay, "main/step/exchange"), Under(delay, "main/step"));
  EXPECT_GT(Under(delay, "main/step/exchange"), 0.75 * total_late);
}

TEST(CallpathsTest, NoneRecordsEveryCallUnderMain) {
  const std::string dir =
      TraceProgram("nested_compute", 2, std::to_string(kSteps), "--callpaths none");
  const json report = Analyze(dir);
  for (const auto& [id, name] : CallpathNames(report)) {
    EXPECT_TRUE(name == "main" ||
                (name.rfind("main/MPI_", 0) == 0 && name.find('/', 5) == std::string::npos))
        << name;
  }
}

}  // namespace
}  // namespace cw::test
