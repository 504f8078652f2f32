#include "report/event_views.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <tuple>

namespace cw::report {
namespace {

using trace::kNone;

constexpr uint32_t kMatrixSide = 64;  // ranks are binned beyond this
constexpr size_t kTimelines = 5;
constexpr size_t kSlicesPerTrack = 400;
constexpr size_t kArrowsPerTimeline = 200;

// The matrix's shape, which depends on the definitions alone.
CommunicationMatrix EmptyMatrix(const trace::Trace& trace) {
  const trace::Definitions& defs = trace.defs;
  CommunicationMatrix matrix;
  uint32_t count = 0;
  for (uint32_t l = 0; l < trace.location_count(); ++l) {
    uint32_t rank = defs.RankOfLocation(l);
    if (rank == kNone) matrix.by_rank = false;
    count = std::max(count, (rank == kNone ? l : rank) + 1);
  }
  if (!matrix.by_rank) count = trace.location_count();
  matrix.bin = std::max<uint32_t>(1, (count + kMatrixSide - 1) / kMatrixSide);
  matrix.side = (count + matrix.bin - 1) / matrix.bin;
  matrix.bytes.assign(size_t{matrix.side} * matrix.side, 0.0);
  matrix.messages.assign(size_t{matrix.side} * matrix.side, 0);
  return matrix;
}

void AddMessage(const trace::Trace& trace, const match::Message& m, CommunicationMatrix& matrix) {
  auto row = [&](uint32_t location) {
    return (matrix.by_rank ? trace.defs.RankOfLocation(location) : location) / matrix.bin;
  };
  const uint32_t s = row(m.sender), d = row(m.receiver);
  if (s < matrix.side && d < matrix.side) {
    matrix.bytes[size_t{s} * matrix.side + d] += static_cast<double>(m.bytes);
    ++matrix.messages[size_t{s} * matrix.side + d];
  }
  ++matrix.sizes[m.bytes == 0 ? -1 : static_cast<int>(std::log2(static_cast<double>(m.bytes)))];
}

// Depth of every Enter of a location (0 for the outermost regions).
std::vector<uint8_t> Depths(const trace::LocationEvents& ev) {
  std::vector<uint8_t> depth(ev.size(), 0);
  uint32_t level = 0;
  for (uint32_t i = 0; i < ev.size(); ++i) {
    if (ev.kind(i) == trace::EventKind::kEnter) {
      depth[i] = static_cast<uint8_t>(std::min<uint32_t>(level, 255));
      ++level;
    } else if (ev.kind(i) == trace::EventKind::kLeave && level > 0) {
      --level;
    }
  }
  return depth;
}

TimelineTrack Track(const trace::Trace& trace, uint32_t location, double from, double to) {
  const double resolution = static_cast<double>(std::max<uint64_t>(trace.defs.clock.resolution, 1));
  const double offset = static_cast<double>(trace.defs.clock.global_offset);
  auto seconds = [&](uint64_t ticks) { return (static_cast<double>(ticks) - offset) / resolution; };
  const trace::LocationEvents& ev = trace.location(location);
  std::vector<uint8_t> depth = Depths(ev);
  TimelineTrack track{location, {}};
  for (uint32_t i = 0; i < ev.size(); ++i) {
    if (ev.kind(i) != trace::EventKind::kEnter || ev.pair(i) == kNone) continue;
    double a = seconds(ev.time(i)), b = seconds(ev.time(ev.pair(i)));
    if (b < from || a > to) continue;
    track.slices.push_back({depth[i], std::max(a, from), std::min(b, to), ev.ref(i)});
  }
  std::stable_sort(
      track.slices.begin(), track.slices.end(),
      [](const TimelineSlice& x, const TimelineSlice& y) { return x.depth < y.depth; });
  if (track.slices.size() > kSlicesPerTrack) track.slices.resize(kSlicesPerTrack);
  return track;
}

void SortAndCapArrows(std::vector<TimelineArrow>& arrows) {
  std::sort(arrows.begin(), arrows.end(), [](const TimelineArrow& a, const TimelineArrow& b) {
    return std::tie(a.receiver, a.recv_event) < std::tie(b.receiver, b.recv_event);
  });
  if (arrows.size() > kArrowsPerTimeline) arrows.resize(kArrowsPerTimeline);
}

}  // namespace

std::vector<uint32_t> AllLocations(const trace::Trace& trace) {
  std::vector<uint32_t> all(trace.location_count());
  std::iota(all.begin(), all.end(), 0u);
  return all;
}

EventViews EventViewsOf(const Report& report, const trace::Trace& trace,
                        const match::SyncGraph& graph, std::span<const uint32_t> locations) {
  const uint32_t n = trace.location_count();
  std::vector<bool> here(n, false);
  for (uint32_t l : locations) here[l] = true;
  auto received_here = [&](const match::Message& m) {
    return m.sender < n && m.receiver < n && here[m.receiver];
  };

  EventViews views;
  views.communication = EmptyMatrix(trace);
  for (const match::Message& m : graph.messages) {
    if (received_here(m)) AddMessage(trace, m, views.communication);
  }

  // The worst instances, most severe first (ties in report order).
  std::vector<size_t> worst(report.instances.size());
  std::iota(worst.begin(), worst.end(), size_t{0});
  std::stable_sort(worst.begin(), worst.end(), [&](size_t a, size_t b) {
    return report.instances[a].value > report.instances[b].value;
  });
  if (worst.size() > kTimelines) worst.resize(kTimelines);
  const double resolution = static_cast<double>(std::max<uint64_t>(trace.defs.clock.resolution, 1));
  const double offset = static_cast<double>(trace.defs.clock.global_offset);
  auto seconds = [&](uint64_t ticks) { return (static_cast<double>(ticks) - offset) / resolution; };
  for (size_t index : worst) {
    const Instance& in = report.instances[index];
    const double pad = std::max(in.value, 1e-6);
    InstanceTimeline timeline{index, in.time - pad, in.time + in.value + pad, {in.location}, {},
                              {}};
    if (in.partner && *in.partner != in.location && *in.partner < n) {
      timeline.locations.push_back(*in.partner);
    }
    for (uint32_t l : timeline.locations) {
      if (l < n && here[l]) timeline.tracks.push_back(Track(trace, l, timeline.from, timeline.to));
    }
    const std::vector<uint32_t>& tracks = timeline.locations;
    for (const match::Message& m : graph.messages) {
      if (!received_here(m) || m.recv_event == kNone) continue;
      auto s = std::find(tracks.begin(), tracks.end(), m.sender);
      auto d = std::find(tracks.begin(), tracks.end(), m.receiver);
      if (s == tracks.end() || d == tracks.end()) continue;
      double sent = seconds(m.send_time);
      double received = seconds(trace.location(m.receiver).time(m.recv_event));
      if (sent < timeline.from || received > timeline.to) continue;
      timeline.arrows.push_back({m.receiver, m.recv_event,
                                 static_cast<uint32_t>(s - tracks.begin()),
                                 static_cast<uint32_t>(d - tracks.begin()), sent, received});
    }
    SortAndCapArrows(timeline.arrows);
    views.timelines.push_back(std::move(timeline));
  }
  return views;
}

void MergeEventViews(EventViews& into, const EventViews& part) {
  CommunicationMatrix& m = into.communication;
  for (size_t i = 0; i < m.bytes.size() && i < part.communication.bytes.size(); ++i) {
    m.bytes[i] += part.communication.bytes[i];
    m.messages[i] += part.communication.messages[i];
  }
  for (const auto& [bucket, count] : part.communication.sizes) m.sizes[bucket] += count;
  for (size_t t = 0; t < into.timelines.size() && t < part.timelines.size(); ++t) {
    InstanceTimeline& timeline = into.timelines[t];
    const InstanceTimeline& other = part.timelines[t];
    timeline.tracks.insert(timeline.tracks.end(), other.tracks.begin(), other.tracks.end());
    // The waiting location's track first, as one process lists them.
    std::stable_sort(timeline.tracks.begin(), timeline.tracks.end(),
                     [&](const TimelineTrack& a, const TimelineTrack& b) {
                       auto rank = [&](uint32_t l) {
                         return std::find(timeline.locations.begin(), timeline.locations.end(), l) -
                                timeline.locations.begin();
                       };
                       return rank(a.location) < rank(b.location);
                     });
    timeline.arrows.insert(timeline.arrows.end(), other.arrows.begin(), other.arrows.end());
    SortAndCapArrows(timeline.arrows);
  }
}

}  // namespace cw::report
