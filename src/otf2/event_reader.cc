#include "otf2/event_reader.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include <otf2/otf2.h>

#include "otf2/internal/calling_context_frames.h"
#include "otf2/internal/event_callbacks.h"
#include "otf2/internal/reader_support.h"
#include "otf2/library_errors.h"

namespace cw::otf2 {
namespace {

using internal::ReadLocalDefinitions;

LocationReadResult ReadLocation(OTF2_Reader* reader, const EventReadJob& job, uint32_t location,
                                const OTF2_EvtReaderCallbacks* callbacks, bool have_def_files,
                                bool local_definitions_expected,
                                const std::vector<uint8_t>& defined_regions) {
  const trace::Location& def = job.defs->locations[location];
  LocationReadResult result;
  internal::EventContext ctx(def.event_count, job.gap_region, job.program_region);
  ctx.defs = job.defs;
  ctx.defined_regions = &defined_regions;
  ctx.undefined_region = job.undefined_region;
  ctx.calls_attribute = internal::CallsAttribute(*job.defs);
  internal::CallingContextFrames frames;
  ctx.frames = &frames;
  ctx.call_site_attribute = internal::CallSiteAttribute(*job.defs);
  ctx.progress = job.progress;
  const internal::TimeRange range = internal::ValidTimeRange(job.defs->clock);
  ctx.earliest = range.earliest;
  ctx.latest = range.latest;

  const std::string where = internal::LocationLabel(*job.defs, location);
  if (have_def_files) ReadLocalDefinitions(reader, def.otf2_id, result.diagnostics);
  internal::CheckLocalDefinitionFile(job.anchor, *job.defs, location, local_definitions_expected,
                                     result.diagnostics);
  const std::string event_file =
      internal::ArchiveDirectory(job.anchor) + "/" + std::to_string(def.otf2_id) + ".evt";
  OTF2_EvtReader* evt_reader = OTF2_Reader_GetEvtReader(reader, def.otf2_id);
  if (::access(event_file.c_str(), R_OK) != 0) {
    result.error = Error(ErrorCode::kCorrupt, where + ": cannot read its event file " + event_file +
                                                  ": " + std::strerror(errno));
    if (evt_reader != nullptr) OTF2_Reader_CloseEvtReader(reader, evt_reader);
  } else if (evt_reader == nullptr) {
    result.error = Error(ErrorCode::kCorrupt,
                         where + ": cannot open its event file: " + TakeLastLibraryMessage());
  } else {
    OTF2_Reader_RegisterEvtCallbacks(reader, evt_reader, callbacks, &ctx);
    internal::RecordBound bound = internal::EventRecordBound(job.anchor, *job.defs, location);
    // Up to the declared count, then once more for each BUFFER_FLUSH record met on the way
    // (they are not in the count), until a round meets none.
    uint64_t read = 0, total = 0, flushes_counted = 0;
    OTF2_ErrorCode rc = OTF2_SUCCESS;
    for (uint64_t allowed = bound.records; allowed > 0;) {
      rc = OTF2_Reader_ReadLocalEvents(reader, evt_reader, allowed, &read);
      total += read;
      if (rc != OTF2_SUCCESS || ctx.out_of_range || read < allowed) break;
      const uint64_t before = bound.records;
      bound.AllowBufferFlushes(ctx.buffer_flushes - flushes_counted);
      flushes_counted = ctx.buffer_flushes;
      allowed = bound.records - before;
    }
    read = total;
    if (ctx.out_of_range) {
      result.error = internal::OutOfRangeError(*job.defs, location, ctx.builder.recorded_events(),
                                               *ctx.out_of_range);
    } else if (rc != OTF2_SUCCESS) {
      result.error = LibraryError(ErrorCode::kCorrupt, where + ": reading events", rc);
    } else if (read >= bound.records && internal::HasRecordBeyondBound(reader, evt_reader)) {
      result.error = internal::RecordsBeyondBoundError(*job.defs, location, bound);
    }
    OTF2_Reader_CloseEvtReader(reader, evt_reader);
  }
  if (ctx.progress != nullptr) ctx.progress->fetch_add(ctx.unreported_progress);

  result.recorded = ctx.builder.recorded_events();
  result.program_name = ctx.builder.program_name();
  if (!result.error) result.error = internal::ShortFileError(*job.defs, location, result.recorded);
  // Frames found by unwinding have no Leave records: they end with the location. Then Finish:
  // closing what is still open is itself a repair the diagnostics must show.
  frames.LeaveAll(ctx);
  result.events = ctx.builder.Finish();
  result.local_tree = ctx.builder.local_tree();
  result.diagnostics.MergeFrom(ctx.diagnostics, where);
  result.diagnostics.MergeFrom(ctx.builder.diagnostics(), where);
  return result;
}

}  // namespace

Result<std::vector<LocationReadResult>> RunEventReadJob(const EventReadJob& job) {
  PrepareLibrary();
  internal::ReaderPtr reader(OTF2_Reader_Open(job.anchor.c_str()));
  if (!reader) {
    return MakeError(ErrorCode::kCorrupt,
                     "cannot open " + job.anchor + ": " + TakeLastLibraryMessage());
  }
  OTF2_Reader_SetSerialCollectiveCallbacks(reader.get());
  for (uint32_t loc : job.locations) {
    OTF2_Reader_SelectLocation(reader.get(), job.defs->locations[loc].otf2_id);
  }
  bool have_def_files = OTF2_Reader_OpenDefFiles(reader.get()) == OTF2_SUCCESS;
  TakeLastLibraryMessage();
  OTF2_ErrorCode rc = OTF2_Reader_OpenEvtFiles(reader.get());
  if (rc != OTF2_SUCCESS) {
    return tl::unexpected(
        LibraryError(ErrorCode::kCorrupt, "cannot open the event files of " + job.anchor, rc));
  }
  internal::CallbacksPtr callbacks(internal::NewEventCallbacks());
  const bool local_definitions_expected =
      have_def_files && internal::ArchiveHasLocalDefinitions(job.anchor, *job.defs);
  const std::vector<uint8_t> defined_regions = internal::DefinedRegionMask(*job.defs);
  std::vector<LocationReadResult> results;
  results.reserve(job.locations.size());
  for (uint32_t loc : job.locations) {
    results.push_back(ReadLocation(reader.get(), job, loc, callbacks.get(), have_def_files,
                                   local_definitions_expected, defined_regions));
  }
  OTF2_Reader_CloseEvtFiles(reader.get());
  if (have_def_files) OTF2_Reader_CloseDefFiles(reader.get());
  return results;
}

}  // namespace cw::otf2
