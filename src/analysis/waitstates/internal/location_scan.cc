#include "analysis/waitstates/internal/location_scan.h"

#include <vector>

#include "trace/file_io.h"

namespace cw::analysis::internal {

using trace::EventKind;
using trace::kNone;

CallpathFlags ComputeCallpathFlags(const trace::Trace& trace) {
  CallpathFlags result;
  result.flags.assign(trace.call_tree.size(), 0);
  result.file_operations.assign(trace.call_tree.size(), FileOperation::kNone);
  std::vector<FileOperation> by_region(trace.defs.regions.size(), FileOperation::kNone);
  for (uint32_t r = 0; r < trace.defs.regions.size(); ++r) {
    if (trace.defs.regions[r].paradigm == trace::Paradigm::kMpi) {
      by_region[r] = FileOperationOf(trace.defs.RegionName(r));
    }
  }
  for (uint32_t cp = 0; cp < trace.call_tree.size(); ++cp) {
    uint32_t region = trace.call_tree.region(cp);
    if (region >= trace.defs.regions.size()) continue;
    result.file_operations[cp] = by_region[region];
    if (by_region[region] != FileOperation::kNone) result.flags[cp] |= CallpathFlags::kFileCall;
    const trace::MpiFunction& mpi = trace.defs.regions[region].mpi;
    if (mpi.has(trace::kMpiInit)) result.flags[cp] |= CallpathFlags::kInitCall;
    if (mpi.has(trace::kMpiFinalize)) result.flags[cp] |= CallpathFlags::kFinalizeCall;
  }
  return result;
}

namespace {

// The bytes of MPI-IO operations: a completion carries them, its begin the call path, mode and
// flags they are counted under. (The operation counts are Scalasca's: visits of the file calls,
// counted at their Enter.)
class FileBytes {
 public:
  explicit FileBytes(const trace::Definitions& defs) : defs_(defs) {}

  void Begin(const trace::GenericPayload& p, uint32_t callpath) {
    if (callpath == kNone || !defs_.IsMpiIoHandle(p.c)) return;
    pairing_.Begin(p, Begun{callpath, static_cast<uint8_t>(trace::IoOperationMode(p)),
                            trace::IoOperationCollective(p)});
  }
  void Complete(const trace::GenericPayload& p, TrafficCounts& traffic) {
    if (const Begun* b = pairing_.Complete(p)) {
      traffic.FileBytes(b->callpath, b->mode, b->collective, p.a);
    }
  }

 private:
  struct Begun {
    uint32_t callpath = kNone;
    uint8_t mode = 0;
    bool collective = false;
  };
  const trace::Definitions& defs_;
  trace::IoOperationPairing<Begun> pairing_;
};

}  // namespace

void ScanLocation(const Context& ctx, const CallpathFlags& callpaths, uint32_t location,
                  LocationOutput& out, InitFinalize::Call& init, InitFinalize::Call& finalize) {
  const trace::LocationEvents& ev = ctx.trace.location(location);
  std::span<const EventKind> kinds = ev.kinds();
  FileBytes files(ctx.trace.defs);
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    switch (kinds[i]) {
      case EventKind::kEnter: {
        uint8_t flags = callpaths.flags[ev.ref(i)];
        if (flags == 0) break;
        if (flags & CallpathFlags::kFileCall) {
          out.traffic.FileOperationVisit(ev.ref(i), callpaths.file_operations[ev.ref(i)]);
          if (flags == CallpathFlags::kFileCall) break;
        }
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
      case EventKind::kIoOperationBegin:
        files.Begin(ev.generic(i), ev.callpath(i));
        break;
      case EventKind::kIoOperationComplete:
        files.Complete(ev.generic(i), out.traffic);
        break;
      default:
        break;
    }
  }
}

}  // namespace cw::analysis::internal
