// A task activity graph segment as `causeway tag` reads it (measure/tag_segment/layout.h): a
// consistent, compacted copy of a rank's segment file (or of a snapshot of it), checked from
// end to end before anything trusts it, since the file may be damaged or hostile: every array
// inside the copy, every index inside its array, every name inside the name pool.
//
//   CW_ASSIGN_OR_RETURN(SegmentImage image, ReadSegmentFile("run/tag/rank-0.seg"));
//   for (const tag_segment::Node& n : image.nodes()) ... image.Name(n.name) ...
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "base/status.h"
#include "measure/tag_segment/layout.h"

namespace cw::tag {

namespace seg = measure::tag_segment;

class SegmentImage {
 public:
  const seg::Header& header() const { return *reinterpret_cast<const seg::Header*>(bytes_.data()); }
  std::span<const seg::Node> nodes() const {
    return Array<seg::Node>(header().nodes_offset, header().node_count);
  }
  std::span<const seg::Edge> edges() const {
    return Array<seg::Edge>(header().edges_offset, header().edge_count);
  }
  std::span<const seg::Message> messages() const {
    return Array<seg::Message>(header().messages_offset, header().message_count);
  }
  std::span<const seg::Frame> frames() const {
    return Array<seg::Frame>(header().frames_offset, header().frame_count);
  }
  std::span<const seg::Frame> FramesOf(const seg::Node& n) const {
    return frames().subspan(n.first_frame, n.frame_count);
  }
  std::span<const seg::Path> paths() const {
    return Array<seg::Path>(header().paths_offset, header().path_count);
  }
  std::span<const seg::PathStep> steps() const {
    return Array<seg::PathStep>(header().steps_offset, header().step_count);
  }
  std::span<const seg::PathStep> StepsOf(const seg::Path& p) const {
    return steps().subspan(p.first_step, p.step_count);
  }
  // A name of the pool (checked: every offset a node or frame names ends inside the pool).
  std::string_view Name(uint32_t offset) const;

  const std::string& path() const { return path_; }
  // The process died in the middle of an update: its last activity may be partly recorded.
  bool interrupted() const { return interrupted_; }
  seg::RunState state() const { return static_cast<seg::RunState>(header().state.load()); }
  // Ticks per second of the writer's timer, from its calibration points.
  double ticks_per_second() const;

  // The copy's bytes (a segment file of its own: a snapshot is written as they are).
  const std::string& bytes() const { return bytes_; }
  // Subtracts what `earlier` (a snapshot of the same segment) had: what happened between the
  // two (see tag/online/online_graphs.h, windows).
  Status Subtract(const SegmentImage& earlier);

 private:
  friend Result<SegmentImage> ParseSegment(std::string bytes, const std::string& path,
                                           bool interrupted);
  template <typename T>
  std::span<const T> Array(uint64_t offset, uint32_t count) const {
    return {reinterpret_cast<const T*>(bytes_.data() + offset), count};
  }
  std::string bytes_;
  std::string path_;
  bool interrupted_ = false;
};

// Copies the segment in `path` (a rank's live or final segment file) consistently, whether its
// process runs, ended or died, and checks it.
Result<SegmentImage> ReadSegmentFile(const std::string& path);

// Checks a compacted copy (a snapshot file's bytes, or CopySnapshot's output).
Result<SegmentImage> ParseSegment(std::string bytes, const std::string& path,
                                  bool interrupted = false);

}  // namespace cw::tag
