#include "sim/simulated_trace.h"

#include <algorithm>

#include "sim/internal/record_writer.h"

namespace cw::sim {

SimulatedTraceWriter::SimulatedTraceWriter(const StreamedTrace& traced,
                                           std::unique_ptr<otf2_writer::ArchiveWriter> archive)
    : traced_(traced), archive_(std::move(archive)) {}

SimulatedTraceWriter::~SimulatedTraceWriter() = default;

Result<std::unique_ptr<SimulatedTraceWriter>> SimulatedTraceWriter::Create(
    const StreamedTrace& traced, const std::string& directory) {
  // The copy's groups are the traced trace's: the largest decides the definition chunk.
  uint64_t largest_group = traced.defs().locations.size();
  for (const trace::Group& g : traced.defs().groups)
    largest_group = std::max<uint64_t>(largest_group, g.members.size());
  otf2_writer::ArchiveWriter::Buffering buffering;
  buffering.definition_chunk_bytes =
      otf2_writer::ArchiveWriter::DefinitionChunkBytes(largest_group);
  CW_ASSIGN_OR_RETURN(
      std::unique_ptr<otf2_writer::ArchiveWriter> archive,
      otf2_writer::ArchiveWriter::Create(directory, "traces", "causeway whatif", buffering));
  internal::CopyDefinitions(traced.defs(), *archive);
  std::unique_ptr<SimulatedTraceWriter> writer(
      new SimulatedTraceWriter(traced, std::move(archive)));
  const size_t n = traced.defs().locations.size();
  writer->cursors_.resize(n);
  for (uint32_t l = 0; l < n; ++l) {
    CW_ASSIGN_OR_RETURN(
        writer->cursors_[l].stream,
        otf2::LocationStream::Open(traced.anchor(), traced.defs(), traced.regions(), l));
  }
  return writer;
}

bool SimulatedTraceWriter::Advance(Cursor& c) {
  if (c.next < c.segment.events.size()) return true;
  if (!c.stream || c.stream->done()) return false;
  c.segment = c.stream->Next(traced_.segment_records);
  c.next = c.segment.resumed;  // re-opened regions were written with an earlier segment
  c.next_synthetic = 0;
  return c.next < c.segment.events.size();
}

void SimulatedTraceWriter::OnEvents(uint32_t location, std::span<const SimEvent>,
                                    std::span<const uint64_t> times) {
  if (error_) return;
  if (location >= cursors_.size()) {
    error_ =
        Error(ErrorCode::kInternal, "simulated trace: no location " + std::to_string(location));
    return;
  }
  Cursor& c = cursors_[location];
  otf2_writer::EventWriter& out = archive_->Events(location);
  for (uint64_t time : times) {
    if (!Advance(c)) {
      error_ = Error(ErrorCode::kInternal, "simulated trace: location " + std::to_string(location) +
                                               " replayed more events than its file holds");
      return;
    }
    const trace::LocationEvents& ev = c.segment.events;
    uint32_t i = c.next++;
    std::span<const uint32_t> synthetic = ev.synthetic();
    while (c.next_synthetic < synthetic.size() && synthetic[c.next_synthetic] < i) {
      ++c.next_synthetic;
    }
    if (c.next_synthetic < synthetic.size() && synthetic[c.next_synthetic] == i) continue;
    trace::EventKind kind = ev.kind(i);
    uint32_t region = kind == trace::EventKind::kEnter || kind == trace::EventKind::kLeave
                          ? c.segment.local_tree.region(ev.ref(i))
                          : trace::kNone;
    // The replay keeps each location's times in order; the guard only protects the archive.
    time = std::max(time, out.last_time());
    if (internal::WriteRecord(traced_.defs(), ev, i, time, region, *archive_, out)) {
      ++written_;
    } else {
      ++left_out_;
    }
  }
}

Status SimulatedTraceWriter::Close() {
  if (error_) return tl::unexpected(*error_);
  const trace::ClockProperties& clock = traced_.defs().clock;
  return archive_->Close(clock.resolution, clock.global_offset);
}

}  // namespace cw::sim
