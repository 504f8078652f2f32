// One run as `causeway compare` sees it: what its report.json says of the whole run (process
// count, runtime, POP efficiencies), of each call path (the slowest process's exclusive time in
// it) and of each metric (its total). Read from a report directory written by `causeway
// analyze`, or from the report.json of a trace analysed on the fly: comparing costs nothing more
// than reading.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/status.h"

namespace cw::compare {

struct CallpathTime {
  double max = 0;  // seconds: the slowest process's exclusive time
  double sum = 0;  // seconds: over every process
};

struct PopFigures {
  std::optional<double> parallel, load_balance, communication, serialisation, transfer;
  std::optional<double> average_computation;  // seconds per process
};

// A top-level category of the time (a child of the `execution` metric: computation, MPI,
// OpenSHMEM, ...), over every process.
struct Category {
  std::string metric;
  std::string display;
  double seconds = 0;  // the metric's inclusive total
};

struct RunSummary {
  std::string label;   // --label, else the directory's name
  std::string source;  // the path it was read from
  uint32_t processes = 0;
  double runtime = 0;  // seconds, first to last event
  PopFigures pop;
  std::map<std::string, CallpathTime> callpaths;  // by region path: "main/solve/MPI_Allreduce"
  // Call paths of initialisation and termination (MPI_Init, shmem_finalize, ...): compared, but
  // not ranked among those that scale worst or will dominate (they are not the program's work).
  std::set<std::string> setup;
  std::map<std::string, double> metrics;  // metric name -> total, seconds or count
  std::vector<Category> categories;       // in the report's order
};

// Refuses a document that is not a causeway report (format, version, the fields used).
Result<RunSummary> ReadRunSummary(const nlohmann::json& report, std::string label,
                                  std::string source);

}  // namespace cw::compare
