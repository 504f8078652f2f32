#include "analysis/advice/records.h"

#include <algorithm>

#include "trace/event_kind.h"

namespace cw::analysis {

uint32_t TransferTarget(const trace::Definitions& defs, const trace::LocationEvents& ev, uint32_t i,
                        uint32_t location) {
  uint32_t comm = trace::kNone;
  uint32_t rank = trace::kNone;
  if (trace::PayloadFamilyOf(ev.kind(i)) == trace::PayloadFamily::kP2p) {
    comm = ev.p2p(i).comm;
    rank = ev.p2p(i).peer;
  } else if (trace::PayloadFamilyOf(ev.kind(i)) == trace::PayloadFamily::kRma) {
    const trace::RmaPayload& r = ev.rma(i);
    if (r.window >= defs.windows.size() || !defs.windows[r.window].defined) return trace::kNone;
    comm = defs.windows[r.window].comm;
    rank = r.remote;
  }
  return RankLocation(defs, comm, rank, location);
}

uint32_t ProcessCount(const trace::Definitions& defs) {
  uint32_t processes = 0;
  for (const trace::LocationGroup& g : defs.location_groups) {
    if (g.defined && g.rank != trace::kNone) ++processes;
  }
  return std::max<uint32_t>(processes, 1);
}

}  // namespace cw::analysis
