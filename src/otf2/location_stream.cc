#include "otf2/location_stream.h"

#include <algorithm>
#include <filesystem>

#include <otf2/otf2.h>

#include "otf2/internal/calling_context_frames.h"
#include "otf2/internal/event_callbacks.h"
#include "otf2/internal/reader_support.h"
#include "otf2/library_errors.h"

namespace cw::otf2 {

struct LocationStream::Library {
  ~Library() {
    if (!reader) return;
    if (events != nullptr) OTF2_Reader_CloseEvtReader(reader.get(), events);
    if (event_files_open) OTF2_Reader_CloseEvtFiles(reader.get());
    if (def_files_open) OTF2_Reader_CloseDefFiles(reader.get());
  }

  internal::ReaderPtr reader;
  internal::CallbacksPtr callbacks;
  OTF2_EvtReader* events = nullptr;
  bool event_files_open = false;
  bool def_files_open = false;
};

LocationStream::LocationStream(const trace::Definitions& defs, ReaderRegions regions,
                               uint32_t location)
    : library_(std::make_unique<Library>()),
      defs_(defs),
      regions_(regions),
      location_(location),
      defined_regions_(internal::DefinedRegionMask(defs)),
      frames_(std::make_unique<internal::CallingContextFrames>()) {}

LocationStream::~LocationStream() = default;

Result<std::unique_ptr<LocationStream>> LocationStream::Open(const std::string& anchor,
                                                             const trace::Definitions& defs,
                                                             ReaderRegions regions,
                                                             uint32_t location) {
  if (location >= defs.locations.size()) {
    return MakeError(ErrorCode::kInvalidArgument,
                     "location " + std::to_string(location) + " is not defined");
  }
  PrepareLibrary();
  std::unique_ptr<LocationStream> stream(new LocationStream(defs, regions, location));
  Library& lib = *stream->library_;
  lib.reader.reset(OTF2_Reader_Open(anchor.c_str()));
  if (!lib.reader) {
    return MakeError(ErrorCode::kCorrupt,
                     "cannot open " + anchor + ": " + TakeLastLibraryMessage());
  }
  OTF2_Reader* reader = lib.reader.get();
  const trace::Location& def = defs.locations[location];
  OTF2_Reader_SetSerialCollectiveCallbacks(reader);
  OTF2_Reader_SelectLocation(reader, def.otf2_id);
  lib.def_files_open = OTF2_Reader_OpenDefFiles(reader) == OTF2_SUCCESS;
  TakeLastLibraryMessage();
  OTF2_ErrorCode rc = OTF2_Reader_OpenEvtFiles(reader);
  if (rc != OTF2_SUCCESS) {
    return tl::unexpected(
        LibraryError(ErrorCode::kCorrupt, "cannot open the event files of " + anchor, rc));
  }
  lib.event_files_open = true;
  // Local definitions only remap ids; a failure to read them shows in the events' ids, which
  // the callbacks check, so their diagnostic is not kept here.
  Diagnostics ignored;
  if (lib.def_files_open) internal::ReadLocalDefinitions(reader, def.otf2_id, ignored);
  internal::CheckLocalDefinitionFile(
      anchor, defs, location,
      lib.def_files_open && internal::ArchiveHasLocalDefinitions(anchor, defs),
      stream->diagnostics_);
  stream->bound_ = internal::EventRecordBound(anchor, defs, location);
  lib.events = OTF2_Reader_GetEvtReader(reader, def.otf2_id);
  if (lib.events == nullptr) {
    stream->error_ =
        Error(ErrorCode::kCorrupt, internal::LocationLabel(defs, location) +
                                       ": cannot open its event file: " + TakeLastLibraryMessage());
    stream->done_ = true;
    return stream;
  }
  lib.callbacks.reset(internal::NewEventCallbacks());
  return stream;
}

LocationStream::Segment LocationStream::Next(uint32_t max_records) {
  Segment segment;
  if (done_) return segment;
  internal::EventContext ctx(max_records, regions_.gap, regions_.program);
  ctx.defs = &defs_;
  ctx.defined_regions = &defined_regions_;
  ctx.undefined_region = regions_.undefined;
  ctx.calls_attribute = internal::CallsAttribute(defs_);
  ctx.frames = frames_.get();
  ctx.call_site_attribute = internal::CallSiteAttribute(defs_);
  const internal::TimeRange range = internal::ValidTimeRange(defs_.clock);
  ctx.earliest = range.earliest;
  ctx.latest = range.latest;
  ctx.builder.Resume(continuation_);
  segment.resumed = static_cast<uint32_t>(continuation_.open.size());

  OTF2_Reader* reader = library_->reader.get();
  OTF2_Reader_RegisterEvtCallbacks(reader, library_->events, library_->callbacks.get(), &ctx);
  // Never past the bound: a damaged file can make the library replay records forever.
  const uint64_t allowed = std::min<uint64_t>(max_records, bound_.records - recorded_);
  uint64_t read = 0;
  OTF2_ErrorCode rc = allowed == 0
                          ? OTF2_SUCCESS
                          : OTF2_Reader_ReadLocalEvents(reader, library_->events, allowed, &read);
  recorded_ += ctx.builder.recorded_events();
  bound_.AllowBufferFlushes(ctx.buffer_flushes);
  if (program_name_ == trace::kNone) program_name_ = ctx.builder.program_name();

  const std::string where = internal::LocationLabel(defs_, location_);
  if (ctx.out_of_range) {
    error_ = internal::OutOfRangeError(defs_, location_, recorded_, *ctx.out_of_range);
    done_ = true;
  } else if (rc != OTF2_SUCCESS) {
    error_ = LibraryError(ErrorCode::kCorrupt, where + ": reading events", rc);
    done_ = true;
  } else if (recorded_ >= bound_.records) {
    done_ = true;
    if (internal::HasRecordBeyondBound(reader, library_->events)) {
      error_ = internal::RecordsBeyondBoundError(defs_, location_, bound_);
    }
  } else if (read < allowed) {
    done_ = true;
    error_ = internal::ShortFileError(defs_, location_, recorded_);
  }
  if (done_) frames_->LeaveAll(ctx);
  segment.events = done_ ? ctx.builder.Finish() : ctx.builder.FinishSegment(continuation_);
  segment.local_tree = ctx.builder.local_tree();
  diagnostics_.MergeFrom(ctx.diagnostics, where);
  diagnostics_.MergeFrom(ctx.builder.diagnostics(), where);
  return segment;
}

}  // namespace cw::otf2
