// write_random_traces DIR COUNT [FIRST_SEED]: writes the random MPI programs of seeds FIRST_SEED
// .. FIRST_SEED + COUNT - 1 (testing/random_mpi_scenario.h) as OTF2 traces DIR/r<seed>/ and
// prints each one's directory and rank count. A directory of that name is replaced.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "testing/random_mpi_scenario.h"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s DIR COUNT [FIRST_SEED]\n", argv[0]);
    return 1;
  }
  const std::string dir = argv[1];
  const unsigned long count = std::strtoul(argv[2], nullptr, 10);
  const unsigned long first = argc > 3 ? std::strtoul(argv[3], nullptr, 10) : 0;
  for (unsigned long seed = first; seed < first + count; ++seed) {
    const auto s = cw::testing::RandomMpiScenario(static_cast<uint32_t>(seed));
    const std::string out = dir + "/r" + std::to_string(seed);
    std::filesystem::remove_all(out);  // the OTF2 writer will not overwrite an archive
    std::filesystem::create_directories(out);
    s.WriteOrDie(out);
    std::printf("%s %d\n", out.c_str(), s.size());
  }
  return 0;
}
