// Writes the replay's simulated execution as an OTF2 archive (`causeway whatif --write-trace`),
// so that `causeway analyze` shows the wait states the changed conditions would create.
//
// The archive holds the traced records with the replay's times: a ReplayObserver that receives
// the simulated times location by location in event order, and re-reads each location's records
// from the traced archive in segments alongside (the replay's events carry only what its rules
// need). Events the reader added to repair the trace are not written (reading the simulated
// trace repairs it the same way again); metric, I/O, parameter and calling-context records are
// left out and counted (their definitions are not copied, and the replay does not model them).
//
//   CW_ASSIGN_OR_RETURN(auto writer, sim::SimulatedTraceWriter::Create(*streamed, dir));
//   options.observer = writer.get();
//   ... RunReplay(streamed->Input(), options) ...
//   CW_RETURN_IF_ERROR(writer->Close());
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "otf2/location_stream.h"
#include "otf2_writer/archive_writer.h"
#include "sim/otf2_source.h"
#include "sim/replay.h"

namespace cw::sim {

class SimulatedTraceWriter final : public ReplayObserver {
 public:
  // Creates `directory`/traces.otf2 for the replay of `traced` (which must outlive the writer).
  static Result<std::unique_ptr<SimulatedTraceWriter>> Create(const StreamedTrace& traced,
                                                              const std::string& directory);
  ~SimulatedTraceWriter() override;

  void OnEvents(uint32_t location, std::span<const SimEvent> events,
                std::span<const uint64_t> times) override;

  // Writes the definitions and closes the archive; reports the first failure of the writing.
  Status Close();

  const std::string& anchor() const { return archive_->anchor_path(); }
  uint64_t records_written() const { return written_; }
  uint64_t records_left_out() const { return left_out_; }

 private:
  // One location's traced records, re-read in step with the replay.
  struct Cursor {
    std::unique_ptr<otf2::LocationStream> stream;
    otf2::LocationStream::Segment segment;
    uint32_t next = 0;
    size_t next_synthetic = 0;  // into segment.events.synthetic()
  };

  SimulatedTraceWriter(const StreamedTrace& traced, std::unique_ptr<otf2_writer::ArchiveWriter> a);
  // The cursor's next event, reading the next segment when needed; false at the end.
  bool Advance(Cursor& cursor);

  const StreamedTrace& traced_;
  std::unique_ptr<otf2_writer::ArchiveWriter> archive_;
  std::vector<Cursor> cursors_;
  std::optional<Error> error_;
  uint64_t written_ = 0;
  uint64_t left_out_ = 0;
};

}  // namespace cw::sim
