// Names of the functions a program compiled with -finstrument-functions enters, and which of
// them to record.
//
// The compiler passes only a function's address. Its name comes from the symbol tables of the
// module it lies in: the dynamic one through dladdr, else the full ELF symbol table of the file
// (read once per module with libelf; static functions and executables linked without -rdynamic
// only have their names there). C++ names are demangled. An address with no symbol is named by
// module and offset.
//
// Filters (CAUSEWAY_FILTER_INCLUDE, CAUSEWAY_FILTER_EXCLUDE: comma-separated shell patterns on
// the name) are applied once per function: excluded functions cost a lookup, not a record.
#pragma once

#include <string>
#include <vector>

namespace cw::measure {

std::string FunctionName(void* address);

class FunctionFilter {
 public:
  // From the environment variables above.
  static FunctionFilter FromEnvironment();
  FunctionFilter(std::vector<std::string> include, std::vector<std::string> exclude)
      : include_(std::move(include)), exclude_(std::move(exclude)) {}
  // Excluded if any exclude pattern matches; else included if there are no include patterns or
  // one matches.
  bool Accepts(const std::string& name) const;
  // Whether an exclude pattern matches (MPI and OpenSHMEM routines: include patterns name
  // instrumented functions only).
  bool Excludes(const std::string& name) const;

 private:
  std::vector<std::string> include_;
  std::vector<std::string> exclude_;
};

}  // namespace cw::measure
