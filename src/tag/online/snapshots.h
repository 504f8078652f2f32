// Periodic snapshots of a run recorded online (`causeway trace --tag --tag-interval 10s`): the
// process that launched the run copies each rank's live segment (segment_snapshot.h: never
// making the rank wait) into DIR/tag/snapshots/<k>/rank-<r>.seg, with the seconds since the
// run began in DIR/tag/snapshots/<k>/time. `causeway tag DIR --window A:B` then shows what
// happened between two of them.
//
//   SnapshotSummary s = TakeSnapshot("run/tag", 3, 30.0);
#pragma once

#include <string>

namespace cw::tag {

struct SnapshotSummary {
  int copied = 0;
  int busy = 0;     // a rank updated its graph through every attempt: no copy this time
  int invalid = 0;  // a file that is not a segment
};

// Copies every rank segment of `tag_dir` into snapshot `number`. Ranks that have not started
// yet have no segment and are absent from it; if no rank has, no snapshot is made (copied 0)
// and the number stays free.
SnapshotSummary TakeSnapshot(const std::string& tag_dir, int number, double seconds);

}  // namespace cw::tag
