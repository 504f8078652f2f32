// One `causeway <name>` subcommand: its options (as CLI11 options) and its run function.
//
// main.cc owns the parsing and turns the Status a subcommand returns into a message and an exit
// code; subcommands print their results to stdout and nothing else.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "base/status.h"

namespace cw::cli {

class Subcommand {
 public:
  virtual ~Subcommand() = default;
  virtual const char* name() const = 0;
  virtual const char* description() const = 0;
  virtual void AddOptions(CLI::App& app) = 0;
  virtual Status Run() = 0;
  // The exit code of a run that succeeded: 0, but `trace` passes on its command's, as wrappers
  // such as `time` and `timeout` do, so that a script notices a program that failed.
  virtual int SucceededExitCode() const { return 0; }
};

std::unique_ptr<Subcommand> MakeAnalyzeSubcommand();
std::unique_ptr<Subcommand> MakeBaselineSubcommand();
std::unique_ptr<Subcommand> MakeCompareSubcommand();
std::unique_ptr<Subcommand> MakeExportSubcommand();
std::unique_ptr<Subcommand> MakeInfoSubcommand();
std::unique_ptr<Subcommand> MakeTagSubcommand();
std::unique_ptr<Subcommand> MakeTraceSubcommand();
std::unique_ptr<Subcommand> MakeWhatIfSubcommand();

}  // namespace cw::cli
