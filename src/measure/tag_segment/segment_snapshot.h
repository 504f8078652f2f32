// Copies a consistent snapshot of a live task activity graph segment without ever making its
// writer wait (Sikora et al. 2016 §3.6's "optimistic sampling"): read the sequence counter, copy,
// read it again; an odd value or a change means the writer was busy, so the copy is thrown away and
// tried again. The copy is compacted (each array as long as its used part) and is itself a
// segment with the same layout, valid wherever it is stored (no pointers).
//
//   std::string copy;
//   SnapshotOutcome o = CopySnapshot(mapping, mapped_bytes, copy);
//   if (o == SnapshotOutcome::kCopied) WriteFile("snapshots/3/rank-0.seg", copy);
#pragma once

#include <cstdint>
#include <string>

#include "measure/tag_segment/layout.h"

namespace cw::measure::tag_segment {

enum class SnapshotOutcome : uint8_t {
  kCopied,
  kBusy,     // every attempt overlapped an update (the writer changes it faster than we copy)
  kInvalid,  // not a segment, or its header names arrays outside the mapping
  // The writer is gone (its process died) in the middle of an update: the copy is what it
  // left, and its last activity may be partly recorded.
  kInterrupted,
};

// `live`: the mapping of a segment, `bytes` long. `attempts` bounds the retries (each one a
// copy of the used part of the arrays; after the first few, each after a pause that doubles
// from 1 us to 1 ms: a reader that kept retrying at once would keep reading the lines the writer
// writes, and slow it). `writer_gone`: the process that wrote the segment has
// ended, so an odd counter will never become even; the copy is taken as it is.
SnapshotOutcome CopySnapshot(const void* live, uint64_t bytes, std::string& out,
                             bool writer_gone = false, int attempts = 2000);

// True if `header` is a segment header whose arrays, counts and capacities fit in `bytes`.
bool HeaderFits(const Header& header, uint64_t bytes);

}  // namespace cw::measure::tag_segment
