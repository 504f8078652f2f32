// Locations of test inputs and of the built binaries.
#pragma once

#include <string>
#include <vector>

namespace cw::test {

// ../shared (holding traces/ and peer-results/), as found at configure time.
std::string SharedDir();
// A real trace by its directory name under shared/traces, e.g. "4_mpi_ls_barr".
std::string RealTrace(const std::string& name);
// The directory names of every real trace under shared/traces (those holding traces.otf2),
// sorted.
std::vector<std::string> RealTraceNames();
// Scalasca's decoded results for a trace: shared/peer-results/scalasca/<name>/<file>.
std::string ScalascaResult(const std::string& name, const std::string& file);
// The causeway executable of this build.
std::string CausewayBinary();
// build/test-artifacts/<what>, created: files tests keep for people to look at (screenshots).
std::string ArtifactDir(const std::string& what);
// A program of tests/programs as built (build/tests/programs/<name>).
std::string TestProgram(const std::string& name);

// Runs a shell command; returns its exit code and captures stdout+stderr into `output`. In a
// sanitizer build's MPI tests (CW_SANITIZER_RUNTIME set) the command runs with the sanitizer's
// runtime preloaded.
int RunCommand(const std::string& command, std::string* output);

}  // namespace cw::test
