#include "tag/online/segment_image.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "measure/tag_segment/segment_snapshot.h"

namespace cw::tag {
namespace {

Result<SegmentImage> Damaged(const std::string& path, const std::string& what) {
  return MakeError(ErrorCode::kCorrupt, path + ": not a usable task activity graph: " + what);
}

// Reverses Welford's merge: the statistics of the values `later` has beyond `earlier`'s. The
// extremes cannot be taken apart: they stay those of the whole series.
void SubtractStats(seg::Stats& later, const seg::Stats& earlier) {
  if (earlier.count == 0) return;
  const uint64_t n = later.count >= earlier.count ? later.count - earlier.count : 0;
  if (n == 0) {
    later.count = 0;
    later.total = later.m2 = 0;
    return;
  }
  const double total = later.total - earlier.total;
  const double mean_new = total / static_cast<double>(n);
  const double mean_old = earlier.total / static_cast<double>(earlier.count);
  const double delta = mean_new - mean_old;
  double m2 = later.m2 - earlier.m2 -
              delta * delta * static_cast<double>(earlier.count) * static_cast<double>(n) /
                  static_cast<double>(later.count);
  later.count = n;
  later.total = total;
  later.m2 = m2 > 0 ? m2 : 0;
}

}  // namespace

std::string_view SegmentImage::Name(uint32_t offset) const {
  const seg::Header& h = header();
  if (offset >= h.name_bytes) return {};
  return std::string_view(bytes_.data() + h.names_offset + offset);
}

double SegmentImage::ticks_per_second() const {
  const seg::Header& h = header();
  if (h.calibration_ns[1] > h.calibration_ns[0] + 100000 &&
      h.calibration_ticks[1] > h.calibration_ticks[0]) {
    return static_cast<double>(h.calibration_ticks[1] - h.calibration_ticks[0]) * 1e9 /
           static_cast<double>(h.calibration_ns[1] - h.calibration_ns[0]);
  }
  return 1e9;  // one point only: the timer counts nanoseconds (CLOCK_MONOTONIC) or is unknown
}

Result<SegmentImage> ParseSegment(std::string bytes, const std::string& path, bool interrupted) {
  if (bytes.size() < seg::kHeaderBytes) return Damaged(path, "shorter than its header");
  seg::Header h;
  std::memcpy(static_cast<void*>(&h), bytes.data(), sizeof h);
  if (!seg::HeaderFits(h, bytes.size())) {
    return Damaged(path, "its header names arrays outside the file, or is not a segment header");
  }
  for (uint64_t offset : {h.nodes_offset, h.edges_offset, h.messages_offset, h.frames_offset,
                          h.paths_offset, h.steps_offset}) {
    if (offset % 8 != 0) return Damaged(path, "an array is misaligned");
  }
  if (h.name_bytes > 0 && bytes[h.names_offset + h.name_bytes - 1] != '\0') {
    return Damaged(path, "its name pool does not end a name");
  }
  SegmentImage image;
  image.bytes_ = std::move(bytes);
  image.path_ = path;
  image.interrupted_ = interrupted;
  const uint32_t nodes = h.node_count;
  const auto named = [&h](uint32_t offset) { return offset < h.name_bytes; };
  uint32_t id = 0;
  for (const seg::Node& n : image.nodes()) {
    if (static_cast<uint8_t>(n.kind) > static_cast<uint8_t>(seg::NodeKind::kLoopExit) ||
        !named(n.name) || uint64_t{n.first_frame} + n.frame_count > h.frame_count) {
      return Damaged(path, "node " + std::to_string(id) + " is malformed");
    }
    for (const seg::Frame& f : image.FramesOf(n)) {
      if ((f.address & seg::kRegionFrame) != 0 && !named(static_cast<uint32_t>(f.address))) {
        return Damaged(path, "node " + std::to_string(id) + " names a region outside the pool");
      }
    }
    ++id;
  }
  id = 0;
  for (const seg::Edge& e : image.edges()) {
    const bool message =
        e.kind == seg::EdgeKind::kMessageIn || e.kind == seg::EdgeKind::kMessageOut;
    bool ok = static_cast<uint8_t>(e.kind) <= static_cast<uint8_t>(seg::EdgeKind::kMessageIn) &&
              static_cast<uint8_t>(e.via) <= static_cast<uint8_t>(seg::Via::kRootList);
    if (ok && message) ok = e.message < h.message_count;
    // A message_in edge's `from` is a node of the sender's graph: checked against it later.
    if (ok && e.kind != seg::EdgeKind::kMessageIn) ok = e.from < nodes;
    if (ok && (e.kind == seg::EdgeKind::kFlow || e.kind == seg::EdgeKind::kCompletion ||
               e.kind == seg::EdgeKind::kMessageIn)) {
      ok = e.to < nodes;
    }
    if (!ok) return Damaged(path, "edge " + std::to_string(id) + " is malformed");
    ++id;
  }
  id = 0;
  for (const seg::Path& p : image.paths()) {
    bool ok = p.loop < nodes && uint64_t{p.first_step} + p.step_count <= h.step_count;
    if (ok) {
      for (const seg::PathStep& step : image.StepsOf(p)) ok &= step.node < nodes;
    }
    if (!ok) return Damaged(path, "causal path " + std::to_string(id) + " is malformed");
    ++id;
  }
  if (h.recent != seg::kNone && h.recent >= nodes)
    return Damaged(path, "its latest activity is unknown");
  return image;
}

Result<SegmentImage> ReadSegmentFile(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return MakeError(ErrorCode::kNotFound, "cannot open " + path);
  struct stat st;
  if (::fstat(fd, &st) != 0 || st.st_size < static_cast<off_t>(seg::kHeaderBytes)) {
    ::close(fd);
    return Damaged(path, "shorter than its header");
  }
  const uint64_t size = static_cast<uint64_t>(st.st_size);
  void* mapped = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  ::close(fd);
  if (mapped == MAP_FAILED) return MakeError(ErrorCode::kIo, "cannot map " + path);
  std::string copy;
  seg::SnapshotOutcome outcome = seg::CopySnapshot(mapped, size, copy, false, 20);
  if (outcome == seg::SnapshotOutcome::kBusy) {
    // The counter stayed odd through every attempt: the writer died in an update (or is
    // stopped in one). What it left is taken, and said to be partial.
    outcome = seg::CopySnapshot(mapped, size, copy, true);
  }
  ::munmap(mapped, size);
  if (outcome == seg::SnapshotOutcome::kInvalid || outcome == seg::SnapshotOutcome::kBusy) {
    return Damaged(path, "its header is not a segment header or does not fit the file");
  }
  return ParseSegment(std::move(copy), path, outcome == seg::SnapshotOutcome::kInterrupted);
}

Status SegmentImage::Subtract(const SegmentImage& earlier) {
  const seg::Header& a = earlier.header();
  seg::Header& b = *reinterpret_cast<seg::Header*>(bytes_.data());
  if (a.rank != b.rank || a.node_count > b.node_count || a.edge_count > b.edge_count ||
      a.message_count > b.message_count || a.start_ticks != b.start_ticks) {
    return MakeError(ErrorCode::kInvalidArgument,
                     path_ + " and " + earlier.path_ + " are not snapshots of one run, in order");
  }
  auto* nodes = reinterpret_cast<seg::Node*>(bytes_.data() + b.nodes_offset);
  auto* edges = reinterpret_cast<seg::Edge*>(bytes_.data() + b.edges_offset);
  auto* messages = reinterpret_cast<seg::Message*>(bytes_.data() + b.messages_offset);
  auto* paths = reinterpret_cast<seg::Path*>(bytes_.data() + b.paths_offset);
  auto out_of_order = [&] {
    return MakeError(ErrorCode::kInvalidArgument,
                     path_ + " and " + earlier.path_ + " are not snapshots of one run, in order");
  };
  for (uint32_t v = 0; v < a.node_count; ++v) {
    const seg::Node& old = earlier.nodes()[v];
    if (old.key != nodes[v].key || old.time.count > nodes[v].time.count) return out_of_order();
  }
  for (uint32_t e = 0; e < a.edge_count; ++e) {
    if (earlier.edges()[e].time.count > edges[e].time.count) return out_of_order();
  }
  if (a.path_count > b.path_count) return out_of_order();
  for (uint32_t v = 0; v < a.node_count; ++v) {
    const seg::Node& old = earlier.nodes()[v];
    SubtractStats(nodes[v].time, old.time);
    nodes[v].iterations -= std::min(nodes[v].iterations, old.iterations);
  }
  for (uint32_t e = 0; e < a.edge_count; ++e) {
    SubtractStats(edges[e].time, earlier.edges()[e].time);
  }
  for (uint32_t p = 0; p < a.path_count; ++p) {
    SubtractStats(paths[p].time, earlier.paths()[p].time);
  }
  for (uint32_t m = 0; m < a.message_count; ++m) {
    const seg::Message& old = earlier.messages()[m];
    seg::Message& now = messages[m];
    now.bytes -= std::min(now.bytes, old.bytes);
    SubtractStats(now.delta_t, old.delta_t);
    now.late_senders -= std::min(now.late_senders, old.late_senders);
    now.late_receivers -= std::min(now.late_receivers, old.late_receivers);
    now.late_sender_ticks -= old.late_sender_ticks;
    now.late_receiver_ticks -= old.late_receiver_ticks;
    for (int k = 0; k < seg::kSizeBuckets; ++k) {
      now.size_histogram[k] -= std::min(now.size_histogram[k], old.size_histogram[k]);
    }
  }
  return OkStatus();
}

}  // namespace cw::tag
