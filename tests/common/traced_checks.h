// Checks on traces that tests/programs recorded under `causeway trace`: what `causeway info`
// counts, what `causeway analyze` reports, and whether other readers accept the trace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

namespace cw::test {

using nlohmann::json;

// Events per kind over all locations, as `causeway info --json` counts them.
json Info(const std::string& dir);

// The number of events of `kind` ("RMA_PUT") in what Info returned.
uint64_t Count(const json& info, const std::string& kind);

// `causeway analyze` of the trace: its report.json.
json Analyze(const std::string& dir);

// The value of `metric` summed over locations, at call paths whose region is `region` (any if
// empty).
double MetricTotal(const json& report, const std::string& metric, const std::string& region = "");

// Every call path of the report, written as "main/solve/inner".
std::set<std::string> CallPaths(const json& report);
// The call path with id `id`, written so.
std::string CallPathName(const json& report, uint64_t id);

// The value of `metric` at the call path written as "main/solve/inner" on `location`.
double ValueAt(const json& report, const std::string& metric, const std::string& path,
               uint64_t location);

// A programmed wait, measured in a real run: within 5 % or 20 ms per programmed wait (a value
// that sums `parts` of them may be off by as much in each).
void ExpectWait(double measured, double programmed, int parts = 1);

// otf2-print reads the whole trace without a warning or an error.
void ExpectOtf2PrintReads(const std::string& dir);

// What a reader that orders each location's events by time alone (Pipit sorts them with an
// unstable sort) needs to rebuild the nesting: the program region `main` begins strictly before
// and ends strictly after everything else on its location, and, ordering events by time with
// ties in any order (reversed here, the worst case), every region's exclusive time is
// non-negative. Before main was entered at process start, it shared MPI_Init's Enter timestamp
// and Pipit computed an exclusive time of -0.5 s for MPI_Init.
void ExpectNestingSurvivesTimeOrder(const std::string& dir);

// The `count` most severe instances of `metric` are each a programmed wait of `seconds`; the
// others (scheduling jitter between phases) stay below the tolerance of one.
void ExpectInstances(const json& report, const std::string& metric, size_t count, double seconds);

}  // namespace cw::test
