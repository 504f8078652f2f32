#include "tests/common/traced_program.h"

#include <gtest/gtest.h>

#include "testing/scenario.h"
#include "tests/common/paths.h"

namespace cw::test {

namespace {

std::string Trace(const std::string& launcher, const std::string& name, int ranks,
                  const std::string& args, const std::string& trace_options, std::string* output,
                  const std::string& environment) {
  const std::string dir = testing::MakeTempDir("traced-" + name);
  std::string out;
  const int rc = RunCommand(environment + " " + CausewayBinary() + " trace -o " + dir + " " +
                                trace_options + " -- " + launcher + " -np " +
                                std::to_string(ranks) + " " + TestProgram(name) + " " + args,
                            &out);
  EXPECT_EQ(rc, 0) << out;
  if (output != nullptr) *output = out;
  return dir;
}

}  // namespace

std::string MpirunOn(int ranks) {
  std::string command = kMpirun;
  command += " -np " + std::to_string(ranks);
  return command;
}

std::string TraceProgram(const std::string& name, int ranks, const std::string& args,
                         const std::string& trace_options, std::string* output,
                         const std::string& environment) {
  return Trace(kMpirun, name, ranks, args, trace_options, output, environment);
}

std::string TraceShmemProgram(const std::string& name, int pes, const std::string& args,
                              const std::string& trace_options, std::string* output,
                              const std::string& environment) {
  return Trace(kOshrun, name, pes, args, trace_options, output,
               std::string(kShmemEnvironment) + " " + environment);
}

}  // namespace cw::test
