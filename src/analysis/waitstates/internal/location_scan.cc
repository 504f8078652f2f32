#include "analysis/waitstates/internal/location_scan.h"

namespace cw::analysis::internal {

using trace::EventKind;
using trace::kNone;

CallpathFlags ComputeCallpathFlags(const trace::Trace& trace) {
  CallpathFlags result;
  result.flags.assign(trace.call_tree.size(), 0);
  for (uint32_t cp = 0; cp < trace.call_tree.size(); ++cp) {
    uint32_t region = trace.call_tree.region(cp);
    if (region >= trace.defs.regions.size()) continue;
    const trace::MpiFunction& mpi = trace.defs.regions[region].mpi;
    if (mpi.has(trace::kMpiInit)) result.flags[cp] |= CallpathFlags::kInitCall;
    if (mpi.has(trace::kMpiFinalize)) result.flags[cp] |= CallpathFlags::kFinalizeCall;
  }
  return result;
}

void ScanLocation(const Context& ctx, const CallpathFlags& callpaths, uint32_t location,
                  LocationOutput& out, InitFinalize::Call& init, InitFinalize::Call& finalize) {
  const trace::LocationEvents& ev = ctx.trace.location(location);
  std::span<const EventKind> kinds = ev.kinds();
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    switch (kinds[i]) {
      case EventKind::kEnter: {
        uint8_t flags = callpaths.flags[ev.ref(i)];
        if (flags == 0) break;
        InitFinalize::Call& call = (flags & CallpathFlags::kInitCall) ? init : finalize;
        if (call.enter == kNone) {
          call = InitFinalize::Call{i, static_cast<int64_t>(ev.time(i)),
                                    static_cast<int64_t>(ev.time(ev.pair(i)))};
        }
        break;
      }
      case EventKind::kMpiSend:
      case EventKind::kMpiIsend:
        // Every send record counts, matched or not (as in Scalasca): the data left the process.
        if (uint32_t cp = ev.callpath(i); cp != kNone) out.traffic.Send(cp, ev.p2p(i).bytes);
        break;
      case EventKind::kMpiCollectiveEnd:
      case EventKind::kNonBlockingCollectiveComplete:
        if (uint32_t cp = ev.callpath(i); cp != kNone) {
          const trace::CollectivePayload& p = ev.collective(i);
          out.traffic.Collective(cp, p.sent, p.received);
        }
        break;
      case EventKind::kRmaPut:
      case EventKind::kRmaGet: {
        uint32_t cp = ev.callpath(i);
        const trace::RmaPayload& p = ev.rma(i);
        if (cp == kNone ||
            !(IsMpiWindow(ctx.trace.defs, p.window) || IsShmemWindow(ctx.trace.defs, p.window))) {
          break;
        }
        bool put = kinds[i] == EventKind::kRmaPut;
        out.traffic.Rma(cp, put, put ? p.sent : p.received);
        break;
      }
      default:
        break;
    }
  }
}

}  // namespace cw::analysis::internal
