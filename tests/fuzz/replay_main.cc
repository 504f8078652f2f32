// Replays inputs of the fuzz target without libFuzzer: every file of the given directories (or
// the given files) goes once through LLVMFuzzerTestOneInput, in name order. With `--shard K/N`
// only the files whose position in that order is K modulo N. The sanitizer builds run the
// corpus and the crash reproducers this way as tests (tests/fuzz/CMakeLists.txt), so every
// `make test` checks them under AddressSanitizer and UndefinedBehaviorSanitizer with gcc; the
// libFuzzer build (`make fuzz`) is for finding new inputs.
//
//   build-asan/tests/read_trace_replay --shard 0/4 tests/fuzz/corpus tests/fuzz/crashes
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

// This replay's name in its messages (read_trace_replay, export_raw_replay).
std::string g_program = "replay";

// The inputs named by `args`: regular files, and the regular files of directories (README.md
// files, which describe the reproducers, are not inputs), sorted by path.
std::vector<fs::path> Inputs(const std::vector<std::string>& args) {
  std::vector<fs::path> inputs;
  for (const std::string& arg : args) {
    if (fs::is_directory(arg)) {
      for (const fs::directory_entry& e : fs::directory_iterator(arg)) {
        if (e.is_regular_file() && e.path().filename() != "README.md") inputs.push_back(e.path());
      }
    } else if (fs::is_regular_file(arg)) {
      inputs.emplace_back(arg);
    } else {
      std::fprintf(stderr, "%s: %s is neither a file nor a directory\n", g_program.c_str(),
                   arg.c_str());
      std::exit(2);
    }
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

}  // namespace

int main(int argc, char** argv) {
  g_program = fs::path(argv[0]).filename().string();
  unsigned shard = 0, shards = 1;
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--shard" && i + 1 < argc) {
      if (std::sscanf(argv[++i], "%u/%u", &shard, &shards) != 2 || shards == 0 || shard >= shards) {
        std::fprintf(stderr, "%s: --shard expects K/N with K < N\n", g_program.c_str());
        return 2;
      }
    } else {
      args.push_back(arg);
    }
  }
  if (args.empty()) {
    std::fprintf(stderr, "usage: %s [--shard K/N] DIR_OR_FILE...\n", g_program.c_str());
    return 2;
  }
  const std::vector<fs::path> inputs = Inputs(args);
  size_t replayed = 0;
  for (size_t i = shard; i < inputs.size(); i += shards) {
    std::ifstream in(inputs[i], std::ios::binary);
    const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    if (!in.good() && !in.eof()) {
      std::fprintf(stderr, "%s: cannot read %s\n", g_program.c_str(), inputs[i].c_str());
      return 2;
    }
    // Named before it runs: a hang or a crash then shows which input it was.
    std::printf("%s\n", inputs[i].filename().c_str());
    std::fflush(stdout);
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    ++replayed;
  }
  // An empty shard means the inputs went missing: that must not pass as a clean replay.
  if (replayed == 0) {
    std::fprintf(stderr, "%s: no input in shard %u/%u\n", g_program.c_str(), shard, shards);
    return 1;
  }
  // The fuzz target unpacks each input into its process's work directory; nothing there is kept.
  std::error_code ec;
  fs::remove_all(fs::temp_directory_path() / ("causeway-fuzz-" + std::to_string(getpid())), ec);
  std::printf("%s: %zu of %zu inputs replayed (shard %u/%u)\n", g_program.c_str(), replayed,
              inputs.size(), shard, shards);
  return 0;
}
