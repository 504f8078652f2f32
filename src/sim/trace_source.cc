#include "sim/trace_source.h"

#include <algorithm>

#include "sim/internal/translate.h"

namespace cw::sim {

TraceSource::TraceSource(const trace::Trace& trace, uint32_t location)
    : trace_(trace), location_(location) {}

size_t TraceSource::Read(std::vector<SimEvent>& out, size_t max) {
  const trace::LocationEvents& ev = trace_.location(location_);
  uint32_t end = static_cast<uint32_t>(std::min<uint64_t>(ev.size(), uint64_t{next_} + max));
  size_t count = end - next_;
  for (; next_ < end; ++next_) {
    SimEvent e = internal::TranslateEvent(trace_.defs, ev, next_, location_);
    if (e.callpath != kNone) e.region = trace_.CallpathRegion(e.callpath);
    out.push_back(e);
  }
  return count;
}

std::unique_ptr<EventSource> MakeTraceSource(const trace::Trace& trace, uint32_t location) {
  return std::make_unique<TraceSource>(trace, location);
}

ReplayInput TraceInput(const trace::Trace& trace) {
  ReplayInput input;
  input.defs = &trace.defs;
  input.locations = trace.location_count();
  input.open = [&trace](uint32_t l) { return MakeTraceSource(trace, l); };
  return input;
}

}  // namespace cw::sim
