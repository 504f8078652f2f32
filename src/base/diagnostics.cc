#include "base/diagnostics.h"

#include <algorithm>

namespace cw {

const char* SeverityName(Severity severity) {
  switch (severity) {
    case Severity::kInfo:
      return "info";
    case Severity::kWarning:
      return "warning";
    case Severity::kDataLoss:
      return "data-loss";
    case Severity::kError:
      return "error";
  }
  return "unknown";
}

void Diagnostics::Report(const DiagnosticKind& kind, std::string_view example, uint64_t count,
                         uint64_t order) {
  if (count == 0) return;
  for (Entry& entry : entries_) {
    if (entry.kind->name == kind.name) {
      entry.count += count;
      if (entry.example.empty() || order < entry.order) {
        entry.example = std::string(example);
        entry.order = order;
      }
      return;
    }
  }
  entries_.push_back(Entry{&kind, count, std::string(example), order});
}

void Diagnostics::Merge(const Diagnostics& other) {
  for (const Entry& entry : other.entries_) {
    Report(*entry.kind, entry.example, entry.count, entry.order);
  }
}

void Diagnostics::MergeFrom(const Diagnostics& other, std::string_view where) {
  for (const Entry& entry : other.entries_) {
    std::string example(where);
    if (!entry.example.empty()) example += ", " + entry.example;
    Report(*entry.kind, example, entry.count, entry.order);
  }
}

uint64_t Diagnostics::Count(const DiagnosticKind& kind) const {
  for (const Entry& entry : entries_) {
    if (entry.kind->name == kind.name) return entry.count;
  }
  return 0;
}

std::vector<Diagnostics::Entry> Diagnostics::Sorted() const {
  std::vector<Entry> sorted = entries_;
  std::sort(sorted.begin(), sorted.end(), [](const Entry& a, const Entry& b) {
    if (a.kind->severity != b.kind->severity) return a.kind->severity > b.kind->severity;
    return a.kind->name < b.kind->name;
  });
  return sorted;
}

}  // namespace cw
