#include "report/chrome_timeline.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string_view>
#include <vector>

#include "analysis/metrics/metric_catalog.h"
#include "base/utf8.h"

namespace cw::report {
namespace {

using trace::EventKind;
using trace::kNone;

// A JSON string literal of untrusted text (region names come from the trace): made valid UTF-8
// (bad bytes become U+FFFD), then quotes, backslashes and control characters escaped, so that
// every JSON parser accepts the file.
std::string JsonString(std::string_view raw) {
  const std::string text = ValidUtf8(raw);
  std::string out = "\"";
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += ch;
    } else if (c < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", c);
      out += buf;
    } else {
      out += ch;
    }
  }
  out += '"';
  return out;
}

// Writes the file through a temporary one renamed into place, so that a reader never sees half
// a timeline; remembers the first failure.
class FileSink {
 public:
  explicit FileSink(const std::string& path) : path_(path), temporary_(path + ".partial") {
    file_ = std::fopen(temporary_.c_str(), "wb");
    if (file_ == nullptr) Fail("cannot create");
  }
  ~FileSink() {
    if (file_ != nullptr) std::fclose(file_);
    if (!committed_) std::remove(temporary_.c_str());
  }
  void Write(std::string_view s) {
    if (file_ != nullptr && std::fwrite(s.data(), 1, s.size(), file_) != s.size()) {
      Fail("cannot write");
    }
    bytes_ += s.size();
  }
  Status Commit() {
    if (file_ != nullptr && std::fclose(file_) != 0) Fail("cannot write");
    file_ = nullptr;
    if (error_) return tl::unexpected(*error_);
    std::error_code ec;
    std::filesystem::rename(temporary_, path_, ec);
    if (ec) return MakeError(ErrorCode::kIo, path_ + ": cannot write: " + ec.message());
    committed_ = true;
    return OkStatus();
  }
  uint64_t bytes() const { return bytes_; }

 private:
  void Fail(const char* what) {
    if (!error_) error_ = Error(ErrorCode::kIo, path_ + ": " + what + ": " + std::strerror(errno));
  }
  std::string path_, temporary_;
  std::FILE* file_ = nullptr;
  std::optional<Error> error_;
  uint64_t bytes_ = 0;
  bool committed_ = false;
};

// What goes into the file, decided before anything is written.
struct Selection {
  std::vector<uint8_t> location;  // 1 if kept
  uint64_t begin = 0;             // ticks: the trace's first event (time 0 of the timeline)
  uint64_t from = 0, to = 0;      // ticks: the window
  double ticks_per_us = 1;
  std::vector<std::string> region_names;  // escaped, by region id
};

class TimelineWriter {
 public:
  TimelineWriter(const trace::Trace& trace, const Selection& sel, FileSink& out)
      : trace_(trace), sel_(sel), out_(out) {}

  void Metadata();
  void Slices(uint32_t location, TimelineStats& stats);
  void Flows(const match::SyncGraph& graph, TimelineStats& stats);
  void Markers(std::span<const analysis::Instance> instances, TimelineStats& stats);

 private:
  // Times are written in whole nanoseconds since the trace's first event, as microseconds with
  // three decimals. Every time goes through the same rounding and durations are differences of
  // rounded times, so children stay inside their parents.
  uint64_t Ns(uint64_t ticks) const {
    return static_cast<uint64_t>(static_cast<double>(ticks - std::min(ticks, sel_.begin)) * 1e3 /
                                 sel_.ticks_per_us);
  }
  static std::string Us(uint64_t ns) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%llu.%03llu", static_cast<unsigned long long>(ns / 1000),
                  static_cast<unsigned long long>(ns % 1000));
    return buf;
  }
  uint32_t Pid(uint32_t location) const {
    uint32_t rank = trace_.defs.RankOfLocation(location);
    // Locations outside MPI (GPU streams, ...) get a process of their own after the ranks.
    return rank != kNone ? rank : 1'000'000 + location;
  }
  void Event(const std::string& body) {
    out_.Write(first_ ? "\n" : ",\n");
    first_ = false;
    out_.Write(body);
  }
  // The time (ns) inside the call around record `event` at which a flow binds to that call's
  // slice: the record's own time, moved off the slice's end; none if the slice has no length.
  std::optional<uint64_t> BindingTime(uint32_t location, uint32_t event) const;

  const trace::Trace& trace_;
  const Selection& sel_;
  FileSink& out_;
  bool first_ = true;
};

void TimelineWriter::Metadata() {
  for (uint32_t l = 0; l < trace_.location_count(); ++l) {
    if (!sel_.location[l]) continue;
    const trace::Location& loc = trace_.defs.locations[l];
    uint32_t rank = trace_.defs.RankOfLocation(l);
    std::string process =
        rank != kNone ? "rank " + std::to_string(rank) : std::string(trace_.defs.str(loc.name));
    std::string pid = std::to_string(Pid(l)), tid = std::to_string(l);
    Event("{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":" + pid + ",\"tid\":" + tid +
          ",\"args\":{\"name\":" + JsonString(process) + "}}");
    Event("{\"ph\":\"M\",\"name\":\"process_sort_index\",\"pid\":" + pid + ",\"tid\":" + tid +
          ",\"args\":{\"sort_index\":" + pid + "}}");
    Event("{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":" + pid + ",\"tid\":" + tid +
          ",\"args\":{\"name\":" + JsonString(trace_.defs.str(loc.name)) + "}}");
  }
}

void TimelineWriter::Slices(uint32_t l, TimelineStats& stats) {
  const trace::LocationEvents& ev = trace_.location(l);
  const std::string ids = ",\"pid\":" + std::to_string(Pid(l)) + ",\"tid\":" + std::to_string(l);
  for (uint32_t i = 0; i < ev.size(); ++i) {
    if (ev.kind(i) != EventKind::kEnter || ev.pair(i) == kNone) continue;
    uint64_t enter = ev.time(i), leave = ev.time(ev.pair(i));
    if (leave < sel_.from || enter > sel_.to) continue;
    // Clamping to the window keeps the nesting: a child clamped stays inside its clamped parent.
    enter = std::max(enter, sel_.from);
    leave = std::min(leave, sel_.to);
    uint32_t region = trace_.CallpathRegion(ev.ref(i));
    const std::string& name =
        region < sel_.region_names.size() ? sel_.region_names[region] : sel_.region_names.back();
    Event("{\"ph\":\"X\",\"name\":" + name + ",\"ts\":" + Us(Ns(enter)) +
          ",\"dur\":" + Us(Ns(leave) - Ns(enter)) + ids + "}");
    ++stats.slices;
  }
}

std::optional<uint64_t> TimelineWriter::BindingTime(uint32_t location, uint32_t event) const {
  const trace::LocationEvents& ev = trace_.location(location);
  uint32_t call = ev.pair(event);
  if (call == kNone) return std::nullopt;
  uint64_t enter = std::max(ev.time(call), sel_.from);
  uint64_t leave = std::min(ev.time(ev.pair(call)), sel_.to);
  if (leave < enter || ev.time(event) < sel_.from || ev.time(event) > sel_.to) return std::nullopt;
  uint64_t from = Ns(enter), to = Ns(leave);
  if (to <= from) return std::nullopt;  // no slice with room to bind to
  return std::clamp(Ns(ev.time(event)), from, to - 1);
}

void TimelineWriter::Flows(const match::SyncGraph& graph, TimelineStats& stats) {
  for (size_t id = 0; id < graph.messages.size(); ++id) {
    const match::Message& m = graph.messages[id];
    if (m.sender >= sel_.location.size() || m.receiver >= sel_.location.size() ||
        !sel_.location[m.sender] || !sel_.location[m.receiver]) {
      continue;
    }
    std::optional<uint64_t> sent = BindingTime(m.sender, m.send_event);
    std::optional<uint64_t> received = BindingTime(m.receiver, m.recv_event);
    if (!sent || !received) continue;
    const std::string flow =
        "\"cat\":\"message\",\"name\":\"message\",\"id\":" + std::to_string(id) +
        ",\"args\":{\"bytes\":" + std::to_string(m.bytes) + "}";
    Event("{\"ph\":\"s\"," + flow + ",\"ts\":" + Us(*sent) + ",\"pid\":" +
          std::to_string(Pid(m.sender)) + ",\"tid\":" + std::to_string(m.sender) + "}");
    Event("{\"ph\":\"f\",\"bp\":\"e\"," + flow + ",\"ts\":" + Us(*received) + ",\"pid\":" +
          std::to_string(Pid(m.receiver)) + ",\"tid\":" + std::to_string(m.receiver) + "}");
    ++stats.flows;
  }
}

void TimelineWriter::Markers(std::span<const analysis::Instance> instances, TimelineStats& stats) {
  const double ticks_per_second = sel_.ticks_per_us * 1e6;
  for (const analysis::Instance& in : instances) {
    if (in.location >= sel_.location.size() || !sel_.location[in.location]) continue;
    if (in.time < sel_.from || in.time > sel_.to) continue;
    const analysis::MetricInfo& metric = analysis::Metric(in.metric);
    char value[32];
    std::snprintf(value, sizeof value, "%.9g", in.value / ticks_per_second);
    std::string args = "{\"metric\":" + JsonString(metric.name) + ",\"seconds\":" + value +
                       ",\"callpath\":" + JsonString(trace_.CallpathName(in.callpath));
    if (in.partner != kNone) args += ",\"partner_location\":" + std::to_string(in.partner);
    Event("{\"ph\":\"i\",\"s\":\"t\",\"cat\":\"wait state\",\"name\":" +
          JsonString(std::string(metric.display) + " " + value + " s") +
          ",\"ts\":" + Us(Ns(in.time)) + ",\"pid\":" + std::to_string(Pid(in.location)) +
          ",\"tid\":" + std::to_string(in.location) + ",\"args\":" + args + "}}");
    ++stats.markers;
  }
}

// The bytes the file will take, closely enough to refuse one that is too big before writing:
// each event's fixed text plus its name.
uint64_t EstimateBytes(const trace::Trace& trace, const match::SyncGraph& graph,
                       const Selection& sel, size_t instances) {
  constexpr uint64_t kSlice = 72, kFlow = 2 * 120, kMarker = 260, kMetadata = 3 * 100;
  uint64_t bytes = 64;
  for (uint32_t l = 0; l < trace.location_count(); ++l) {
    if (!sel.location[l]) continue;
    bytes += kMetadata;
    const trace::LocationEvents& ev = trace.location(l);
    for (uint32_t i = 0; i < ev.size(); ++i) {
      if (ev.kind(i) != EventKind::kEnter || ev.pair(i) == kNone) continue;
      if (ev.time(ev.pair(i)) < sel.from || ev.time(i) > sel.to) continue;
      uint32_t region = trace.CallpathRegion(ev.ref(i));
      bytes += kSlice + (region < sel.region_names.size() ? sel.region_names[region].size() : 16);
    }
  }
  for (const match::Message& m : graph.messages) {
    if (m.sender < sel.location.size() && m.receiver < sel.location.size() &&
        sel.location[m.sender] && sel.location[m.receiver] && m.send_time >= sel.from &&
        m.send_time <= sel.to) {
      bytes += kFlow;
    }
  }
  return bytes + instances * kMarker;
}

std::string Megabytes(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f MB", static_cast<double>(bytes) / 1e6);
  return buf;
}

}  // namespace

Result<TimelineStats> WriteChromeTimeline(const trace::Trace& trace, const match::SyncGraph& graph,
                                          std::span<const analysis::Instance> instances,
                                          const TimelineOptions& options, const std::string& path) {
  Selection sel;
  const trace::Definitions& defs = trace.defs;
  sel.ticks_per_us = static_cast<double>(std::max<uint64_t>(defs.clock.resolution, 1)) / 1e6;
  bool any = false;
  for (uint32_t l = 0; l < trace.location_count(); ++l) {
    if (trace.location(l).empty()) continue;
    sel.begin =
        any ? std::min(sel.begin, trace.location(l).first_time()) : trace.location(l).first_time();
    any = true;
  }
  sel.from = sel.begin;
  sel.to = UINT64_MAX;
  if (options.window) {
    auto ticks = [&](double seconds) {
      return sel.begin + static_cast<uint64_t>(seconds * sel.ticks_per_us * 1e6);
    };
    sel.from = ticks(options.window->first);
    sel.to = ticks(options.window->second);
  }
  sel.location.assign(trace.location_count(), 1);
  if (options.ranks) {
    for (uint32_t l = 0; l < trace.location_count(); ++l) {
      uint32_t rank = defs.RankOfLocation(l);
      sel.location[l] =
          rank != kNone && rank >= options.ranks->first && rank <= options.ranks->second;
    }
  }
  for (const trace::Region& r : defs.regions)
    sel.region_names.push_back(JsonString(defs.str(r.name)));
  sel.region_names.push_back(JsonString("<undefined region>"));

  uint64_t estimate = EstimateBytes(trace, graph, sel, instances.size());
  if (estimate > options.max_bytes) {
    return MakeError(
        ErrorCode::kResourceLimit,
        "the timeline would take about " + Megabytes(estimate) + ", more than the " +
            Megabytes(options.max_bytes) +
            " Perfetto can open: narrow it to some ranks (--timeline-ranks 0-15) or a time "
            "window in seconds from the trace's start (--timeline-window 1.5:2.0)");
  }

  FileSink out(path);
  TimelineStats stats;
  out.Write("{\"displayTimeUnit\":\"ns\",\"traceEvents\":[");
  TimelineWriter writer(trace, sel, out);
  writer.Metadata();
  for (uint32_t l = 0; l < trace.location_count(); ++l) {
    if (sel.location[l]) writer.Slices(l, stats);
  }
  writer.Flows(graph, stats);
  writer.Markers(instances, stats);
  out.Write("\n]}\n");
  stats.bytes = out.bytes();
  stats.estimated_bytes = estimate;
  CW_RETURN_IF_ERROR(out.Commit());
  return stats;
}

Result<std::pair<uint32_t, uint32_t>> ParseRankRange(const std::string& text) {
  auto number = [](std::string_view digits) -> std::optional<uint32_t> {
    uint32_t value = 0;
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size()) {
      return std::nullopt;
    }
    return value;
  };
  const size_t dash = text.find('-');
  std::optional<uint32_t> first = number(std::string_view(text).substr(0, dash));
  std::optional<uint32_t> last =
      dash == std::string::npos ? first : number(std::string_view(text).substr(dash + 1));
  if (!first || !last) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "'" + text + "' is not a rank range (write 4 or 0-15)");
  }
  if (*last < *first) {
    return MakeError(ErrorCode::kInvalidArgument, "rank range '" + text + "' runs backwards");
  }
  return std::pair<uint32_t, uint32_t>(*first, *last);
}

Result<std::pair<double, double>> ParseTimeWindow(const std::string& text) {
  double from = 0, to = 0;
  char extra = 0;
  if (std::sscanf(text.c_str(), "%lf:%lf%c", &from, &to, &extra) != 2 || !(from >= 0) ||
      !(to >= from) || !std::isfinite(to)) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "'" + text +
                         "' is not a time window (write FROM:TO in seconds from the trace's "
                         "start, FROM <= TO, e.g. 1.5:2.0)");
  }
  return std::pair<double, double>(from, to);
}

}  // namespace cw::report
