// The regions the reader adds to a trace's definitions: they stand for what the events imply
// but no region definition names (a measurement-off gap, an undefined region id, the program).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "trace/definitions.h"

namespace cw::otf2 {

struct ReaderRegions {
  uint32_t gap = trace::kNone;        // "MEASUREMENT OFF"
  uint32_t undefined = trace::kNone;  // "<undefined region>"
  uint32_t program = trace::kNone;    // "<program>", until the program's name is known
};

// Adds the three regions to `defs` (reusing a defined "MEASUREMENT OFF").
ReaderRegions AddReaderRegions(trace::Definitions& defs);

// A program's name as its region shows it: the executable's file name ("/path/app" -> "app").
std::string ProgramDisplayName(std::string_view executable);

// The region that stands for a program whose ProgramBegin names it `name_string`: named like
// Scalasca's and Score-P's program region, after the executable's file name ("/path/app" ->
// "app"); added on first use.
uint32_t ProgramRegion(trace::Definitions& defs, uint32_t name_string);

}  // namespace cw::otf2
