// Trace anomalies as counted diagnostics: the analysis goes on and the report says what it met.
//
// Each component declares its kinds once, as data:
//   inline constexpr DiagnosticKind kUnmatchedReceive{
//       "match.unmatched_receive", Severity::kError, "receive with no matching send"};
// and reports occurrences, with an example location for the first one:
//   diagnostics.Report(kUnmatchedReceive, fmt::format("location {} event {}", loc, index));
// Collections built on worker threads are merged in a fixed order, so reports are deterministic.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace cw {

enum class Severity {
  kInfo,      // worth knowing, results are complete
  kWarning,   // something was repaired; results remain meaningful
  kDataLoss,  // part of the input could not be used; results cover the rest
  kError,     // inconsistent input; affected values are missing or approximate
};

const char* SeverityName(Severity severity);

struct DiagnosticKind {
  std::string_view name;  // "component.what", stable, used in report.json
  Severity severity;
  std::string_view description;  // one sentence for people
};

class Diagnostics {
 public:
  static constexpr uint64_t kUnordered = UINT64_MAX;

  struct Entry {
    const DiagnosticKind* kind;
    uint64_t count;
    std::string example;          // where the first occurrence was seen, may be empty
    uint64_t order = kUnordered;  // the example's place, when the reporter gave one
  };

  // Counts `count` occurrences of `kind`; `example` is kept only for the first report of a kind,
  // or, where reporters give an `order` (a place in the trace, such as location << 32 | event),
  // for the lowest: then the example does not depend on the order of reports and merges (the
  // ranks of an MPI analysis job meet the occurrences in another order than one process).
  void Report(const DiagnosticKind& kind, std::string_view example = {}, uint64_t count = 1,
              uint64_t order = kUnordered);

  // Adds every entry of `other` (examples of `this` win).
  void Merge(const Diagnostics& other);
  // The same for the diagnostics of one place (a location), whose examples ("event 12") do not
  // say where they are: each example is prefixed with `where`.
  void MergeFrom(const Diagnostics& other, std::string_view where);

  uint64_t Count(const DiagnosticKind& kind) const;
  bool empty() const { return entries_.empty(); }

  // Entries in a stable order: by severity (worst first), then by name.
  std::vector<Entry> Sorted() const;

 private:
  std::vector<Entry> entries_;  // few distinct kinds: a linear search beats a map
};

}  // namespace cw
