// An EventSource over one location of an in-memory trace (tests, and `causeway analyze`, which
// replays the trace it has already read under an ideal network).
#pragma once

#include <memory>

#include "sim/replay.h"
#include "sim/sim_event.h"
#include "trace/trace.h"

namespace cw::sim {

class TraceSource final : public EventSource {
 public:
  TraceSource(const trace::Trace& trace, uint32_t location);
  size_t Read(std::vector<SimEvent>& out, size_t max) override;

 private:
  const trace::Trace& trace_;
  uint32_t location_;
  uint32_t next_ = 0;
};

// A factory the replay calls once per run and location.
std::unique_ptr<EventSource> MakeTraceSource(const trace::Trace& trace, uint32_t location);

// The replay input reading every location of `trace` (which must outlive the replays).
ReplayInput TraceInput(const trace::Trace& trace);

}  // namespace cw::sim
