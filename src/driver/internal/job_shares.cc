#include "driver/internal/job_shares.h"

#include <deque>
#include <mutex>
#include <string>

namespace cw::driver::internal {
namespace {

using comm::ByteReader;
using comm::ByteWriter;

// A kind received from another rank, with storage for the views DiagnosticKind holds.
struct ReceivedKind {
  std::string name;
  std::string description;
  DiagnosticKind kind;
};

const DiagnosticKind& InternKind(std::string name, Severity severity, std::string description) {
  static std::mutex mutex;
  static std::deque<ReceivedKind> kinds;  // a deque never moves what it holds
  std::lock_guard<std::mutex> lock(mutex);
  for (const ReceivedKind& k : kinds) {
    if (k.name == name) return k.kind;
  }
  ReceivedKind& k = kinds.emplace_back();
  k.name = std::move(name);
  k.description = std::move(description);
  k.kind = DiagnosticKind{k.name, severity, k.description};
  return k.kind;
}

}  // namespace

void PutDiagnostics(ByteWriter& out, const Diagnostics& diagnostics) {
  const std::vector<Diagnostics::Entry> entries = diagnostics.Sorted();
  out.Put(static_cast<uint64_t>(entries.size()));
  for (const Diagnostics::Entry& e : entries) {
    out.PutString(e.kind->name);
    out.Put(static_cast<uint8_t>(e.kind->severity));
    out.PutString(e.kind->description);
    out.Put(e.count);
    out.PutString(e.example);
    out.Put(e.order);
  }
}

Diagnostics GetDiagnostics(ByteReader& in) {
  Diagnostics diagnostics;
  const auto n = in.Get<uint64_t>();
  for (uint64_t i = 0; i < n; ++i) {
    std::string name = in.GetString();
    const auto severity = static_cast<Severity>(in.Get<uint8_t>());
    std::string description = in.GetString();
    const auto count = in.Get<uint64_t>();
    const std::string example = in.GetString();
    const auto order = in.Get<uint64_t>();
    diagnostics.Report(InternKind(std::move(name), severity, std::move(description)), example,
                       count, order);
  }
  return diagnostics;
}

void PutSeverities(ByteWriter& out, std::span<const uint32_t> locations,
                   const std::vector<analysis::LocationSeverities>& severities) {
  for (uint32_t loc : locations) {
    for (int m = 0; m < analysis::kMetricCount; ++m) {
      const auto metric = static_cast<analysis::MetricId>(m);
      const std::vector<double>* values = severities[loc].Values(metric);
      if (values == nullptr) continue;
      for (uint32_t cp = 0; cp < values->size(); ++cp) {
        if ((*values)[cp] == 0) continue;
        out.Put(loc);
        out.Put(static_cast<uint16_t>(m));
        out.Put(cp);
        out.Put((*values)[cp]);
      }
    }
  }
  out.Put(trace::kNone);  // the end
}

void GetSeverities(ByteReader& in, std::vector<analysis::LocationSeverities>& into) {
  for (auto loc = in.Get<uint32_t>(); loc != trace::kNone; loc = in.Get<uint32_t>()) {
    const auto metric = static_cast<analysis::MetricId>(in.Get<uint16_t>());
    const auto cp = in.Get<uint32_t>();
    const auto value = in.Get<double>();
    CW_CHECK(loc < into.size() && cp < into[loc].callpaths());
    into[loc].Add(metric, cp, value);
  }
}

void PutSpans(ByteWriter& out, std::span<const uint32_t> locations,
              const std::vector<trace::LocationSpan>& spans) {
  out.Put(static_cast<uint64_t>(locations.size()));
  for (uint32_t loc : locations) {
    out.Put(loc);
    out.Put(spans[loc]);
  }
}

void GetSpans(ByteReader& in, std::vector<trace::LocationSpan>& into) {
  const auto n = in.Get<uint64_t>();
  for (uint64_t i = 0; i < n; ++i) {
    const auto loc = in.Get<uint32_t>();
    CW_CHECK(loc < into.size());
    into[loc] = in.Get<trace::LocationSpan>();
  }
}

void PutAnalysisInstances(ByteWriter& out, const std::vector<analysis::Instance>& instances) {
  out.PutVector(instances);
}

std::vector<analysis::Instance> GetAnalysisInstances(ByteReader& in) {
  return in.GetVector<analysis::Instance>();
}

void PutReportInstances(ByteWriter& out, const std::vector<report::Instance>& instances) {
  out.Put(static_cast<uint64_t>(instances.size()));
  for (const report::Instance& i : instances) {
    out.Put(i.metric);
    out.Put(i.callpath);
    out.Put(i.location);
    out.Put(i.time);
    out.Put(i.value);
    out.Put(i.partner.value_or(trace::kNone));
  }
}

std::vector<report::Instance> GetReportInstances(ByteReader& in) {
  std::vector<report::Instance> instances(in.Get<uint64_t>());
  for (report::Instance& i : instances) {
    i.metric = in.Get<analysis::MetricId>();
    i.callpath = in.Get<uint32_t>();
    i.location = in.Get<uint32_t>();
    i.time = in.Get<double>();
    i.value = in.Get<double>();
    const auto partner = in.Get<uint32_t>();
    if (partner != trace::kNone) i.partner = partner;
  }
  return instances;
}

void PutEventViews(ByteWriter& out, const report::EventViews& views) {
  const report::CommunicationMatrix& m = views.communication;
  out.Put(static_cast<uint8_t>(m.by_rank));
  out.Put(m.bin);
  out.Put(m.side);
  out.PutVector(m.bytes);
  out.PutVector(m.messages);
  out.Put(static_cast<uint64_t>(m.sizes.size()));
  for (const auto& [bucket, count] : m.sizes) {
    out.Put(bucket);
    out.Put(count);
  }
  out.Put(static_cast<uint64_t>(views.timelines.size()));
  for (const report::InstanceTimeline& t : views.timelines) {
    out.Put(static_cast<uint64_t>(t.instance));
    out.Put(t.from);
    out.Put(t.to);
    out.PutVector(t.locations);
    out.Put(static_cast<uint64_t>(t.tracks.size()));
    for (const report::TimelineTrack& track : t.tracks) {
      out.Put(track.location);
      out.PutVector(track.slices);
    }
    out.PutVector(t.arrows);
  }
}

report::EventViews GetEventViews(ByteReader& in) {
  report::EventViews views;
  report::CommunicationMatrix& m = views.communication;
  m.by_rank = in.Get<uint8_t>() != 0;
  m.bin = in.Get<uint32_t>();
  m.side = in.Get<uint32_t>();
  m.bytes = in.GetVector<double>();
  m.messages = in.GetVector<uint64_t>();
  const auto buckets = in.Get<uint64_t>();
  for (uint64_t b = 0; b < buckets; ++b) {
    const int bucket = in.Get<int>();
    m.sizes[bucket] = in.Get<uint64_t>();
  }
  views.timelines.resize(in.Get<uint64_t>());
  for (report::InstanceTimeline& t : views.timelines) {
    t.instance = in.Get<uint64_t>();
    t.from = in.Get<double>();
    t.to = in.Get<double>();
    t.locations = in.GetVector<uint32_t>();
    t.tracks.resize(in.Get<uint64_t>());
    for (report::TimelineTrack& track : t.tracks) {
      track.location = in.Get<uint32_t>();
      track.slices = in.GetVector<report::TimelineSlice>();
    }
    t.arrows = in.GetVector<report::TimelineArrow>();
  }
  return views;
}

void PutDelayResult(ByteWriter& out, const analysis::DelayResult& delay) {
  out.Put(delay.unexplained_waits);
  out.Put(delay.unexplained_ticks);
  out.Put(delay.broken_edges);
  PutDiagnostics(out, delay.diagnostics);
}

void AddDelayResult(ByteReader& in, analysis::DelayResult& into) {
  into.unexplained_waits += in.Get<uint64_t>();
  // Sums of whole ticks: exact in any order.
  into.unexplained_ticks += in.Get<double>();
  into.broken_edges += in.Get<uint64_t>();
  into.diagnostics.Merge(GetDiagnostics(in));
}

void PutPathFacts(ByteWriter& out, std::span<const uint32_t> locations,
                  const analysis::CriticalPathFacts& facts) {
  const bool walked = !facts.own.empty();  // not when the trace has no participant
  out.Put(static_cast<uint8_t>(walked ? 1 : 0));
  if (walked) {
    for (uint32_t loc : locations) {
      if (facts.own[loc].empty() && facts.on_path[loc].empty() && facts.own_untracked[loc] == 0 &&
          facts.on_path_untracked[loc] == 0) {
        continue;
      }
      out.PutVarint(uint64_t{loc} + 1);
      out.PutVector(facts.own[loc]);
      out.Put(facts.own_untracked[loc]);
      out.PutVector(facts.on_path[loc]);
      out.Put(facts.on_path_untracked[loc]);
    }
    out.PutVarint(0);
  }
  out.PutVector(facts.segments);
  PutDiagnostics(out, facts.diagnostics);
}

void AddPathFacts(ByteReader& in, analysis::CriticalPathFacts& into) {
  if (in.Get<uint8_t>() != 0) {
    while (const uint64_t tag = in.GetVarint()) {
      const auto loc = static_cast<size_t>(tag - 1);
      CW_CHECK(loc < into.own.size());
      into.own[loc] = in.GetVector<analysis::CallpathTicks>();
      into.own_untracked[loc] = in.Get<int64_t>();
      into.on_path[loc] = in.GetVector<analysis::CallpathTicks>();
      into.on_path_untracked[loc] = in.Get<int64_t>();
    }
  }
  const std::vector<analysis::PathSegment> segments = in.GetVector<analysis::PathSegment>();
  into.segments.insert(into.segments.end(), segments.begin(), segments.end());
  into.diagnostics.Merge(GetDiagnostics(in));
}

}  // namespace cw::driver::internal
