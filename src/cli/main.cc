// The `causeway` command: parses the command line, runs one subcommand, and turns its Status
// into a message on stderr and an exit code (the only place that does).
#include <cstdio>
#include <exception>
#include <memory>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/exit_codes.h"
#include "cli/subcommand.h"

namespace cw::cli {

int ExitCodeFor(const Error& error) {
  switch (error.code()) {
    case ErrorCode::kInvalidArgument:
      return kExitUsage;
    case ErrorCode::kNotFound:
    case ErrorCode::kCorrupt:
    case ErrorCode::kUnsupported:
      return kExitBadInput;
    case ErrorCode::kIo:
      return kExitOutput;
    case ErrorCode::kResourceLimit:
      return kExitLimit;
    case ErrorCode::kInternal:
      return kExitInternal;
  }
  return kExitInternal;
}

namespace {

int Main(int argc, char** argv) {
  CLI::App app{"causeway: where parallel programs wait, and why"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "causeway 0.1.0");
  std::vector<std::unique_ptr<Subcommand>> subcommands;
  subcommands.push_back(MakeAnalyzeSubcommand());
  subcommands.push_back(MakeBaselineSubcommand());
  subcommands.push_back(MakeCompareSubcommand());
  subcommands.push_back(MakeExportSubcommand());
  subcommands.push_back(MakeInfoSubcommand());
  subcommands.push_back(MakeTagSubcommand());
  subcommands.push_back(MakeTraceSubcommand());
  subcommands.push_back(MakeWhatIfSubcommand());
  Subcommand* selected = nullptr;
  for (std::unique_ptr<Subcommand>& sub : subcommands) {
    CLI::App* sub_app = app.add_subcommand(sub->name(), sub->description());
    sub->AddOptions(*sub_app);
    Subcommand* raw = sub.get();
    sub_app->callback([&selected, raw] { selected = raw; });
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? kExitOk : kExitUsage;
  }
  if (selected == nullptr) return kExitUsage;
  Status status = selected->Run();
  if (!status) {
    std::fprintf(stderr, "causeway %s: %s\n", selected->name(), status.error().message().c_str());
    return ExitCodeFor(status.error());
  }
  return selected->SucceededExitCode();
}

}  // namespace
}  // namespace cw::cli

int main(int argc, char** argv) {
  try {
    return cw::cli::Main(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "causeway: out of memory\n");
    return cw::cli::kExitLimit;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "causeway: internal error: %s\n", e.what());
    return cw::cli::kExitInternal;
  }
}
