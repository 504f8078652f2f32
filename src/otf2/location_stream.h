// Reads one location's events in segments of a bounded number of records, so that a consumer
// that handles events in order (the what-if replay) never holds a whole location in memory.
//
// Each segment is built by a LocationBuilder that resumes the regions the previous segment left
// open, so nesting repairs, measurement gaps and the program region come out as when ReadTrace
// reads the location whole. Each stream has its own OTF2 reader; the library reads its event
// file chunk by chunk.
//
//   CW_ASSIGN_OR_RETURN(auto stream, otf2::LocationStream::Open(anchor, defs, regions, loc));
//   for (;;) {
//     otf2::LocationStream::Segment s = stream->Next(65536);
//     if (s.events.empty()) break;                 // end, or stream->error() says why
//     for (uint32_t i = s.resumed; i < s.events.size(); ++i) ...
//   }
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/diagnostics.h"
#include "base/status.h"
#include "otf2/internal/record_bound.h"
#include "otf2/reader_regions.h"
#include "trace/call_tree.h"
#include "trace/definitions.h"
#include "trace/location_builder.h"
#include "trace/location_events.h"

namespace cw::otf2 {

namespace internal {
class CallingContextFrames;
}

class LocationStream {
 public:
  struct Segment {
    trace::LocationEvents events;  // Enter/Leave refs are ids in local_tree
    trace::CallTree local_tree;
    // Events 0..resumed-1 are synthetic Enters re-opening the regions earlier segments left
    // open; the segment's own events follow.
    uint32_t resumed = 0;
  };

  // Opens location `location` (dense index) of the archive `anchor` (resolved anchor file).
  // `defs` are its global definitions with `regions` added; both must outlive the stream.
  static Result<std::unique_ptr<LocationStream>> Open(const std::string& anchor,
                                                      const trace::Definitions& defs,
                                                      ReaderRegions regions, uint32_t location);
  ~LocationStream();
  LocationStream(const LocationStream&) = delete;
  LocationStream& operator=(const LocationStream&) = delete;

  // Reads up to `max_records` further records. At the end of the file the regions still open
  // are closed (as ReadTrace does) and later calls return empty segments. A read failure ends
  // the stream: error() says why, and the segment holds what was read before it.
  Segment Next(uint32_t max_records);

  bool done() const { return done_; }
  const std::optional<Error>& error() const { return error_; }
  // The string id of the name its ProgramBegin gave, once read (kNone before or without one).
  uint32_t program_name() const { return program_name_; }
  // What the segments read so far repaired or found wrong (examples name the location).
  const Diagnostics& diagnostics() const { return diagnostics_; }

 private:
  LocationStream(const trace::Definitions& defs, ReaderRegions regions, uint32_t location);

  struct Library;  // the OTF2 reader objects
  std::unique_ptr<Library> library_;
  const trace::Definitions& defs_;
  ReaderRegions regions_;
  uint32_t location_;
  std::vector<uint8_t> defined_regions_;
  trace::LocationBuilder::Continuation continuation_;
  // The frames Score-P's calling-context records keep open, across segments.
  std::unique_ptr<internal::CallingContextFrames> frames_;
  uint64_t recorded_ = 0;
  uint32_t program_name_ = trace::kNone;
  bool done_ = false;
  std::optional<Error> error_;
  Diagnostics diagnostics_;
  internal::RecordBound bound_;
};

}  // namespace cw::otf2
