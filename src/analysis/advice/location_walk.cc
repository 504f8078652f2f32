#include "analysis/advice/location_walk.h"

#include "analysis/advice/records.h"
#include "analysis/generic/construct_map.h"
#include "base/parallel.h"
#include "trace/event_kind.h"

namespace cw::analysis {
namespace {

using trace::EventKind;
using trace::kNone;

// What a record directly inside a call is to the runs of transfers.
enum RecordRole : uint8_t {
  kSilent,              // neither a transfer nor communication (a metric, a parameter)
  kTransfer,            // a non-blocking send, a put, get or atomic
  kBlockingTransfer,    // a blocking send
  kBlockingCompletion,  // a one-sided transfer the call completed itself
  kOtherCommunication,  // a receive, a request's completion, a collective, a synchronisation
};

struct RecordRoles {
  RecordRole of[256] = {};
  constexpr RecordRoles() {
    for (unsigned k = 0; k < 256; ++k) {
      const auto kind = static_cast<EventKind>(k);
      switch (kind) {
        case EventKind::kEnter:
        case EventKind::kLeave:
          continue;
        case EventKind::kMpiSend:
          of[k] = kBlockingTransfer;
          continue;
        case EventKind::kMpiIsend:
        case EventKind::kRmaPut:
        case EventKind::kRmaGet:
        case EventKind::kRmaAtomic:
          of[k] = kTransfer;
          continue;
        case EventKind::kRmaOpCompleteBlocking:
          of[k] = kBlockingCompletion;
          continue;
        case EventKind::kMpiCollectiveBegin:
        case EventKind::kRmaCollectiveBegin:
          of[k] = kOtherCommunication;
          continue;
        default:
          break;
      }
      switch (trace::PayloadFamilyOf(kind)) {
        case trace::PayloadFamily::kP2p:
        case trace::PayloadFamily::kRequest:
        case trace::PayloadFamily::kCollective:
        case trace::PayloadFamily::kRma:
          of[k] = kOtherCommunication;
          break;
        default:
          break;
      }
    }
  }
};

// Built at compile time: the walk asks it per record.
constexpr RecordRoles kRecordRoles;

RecordRole RoleOf(EventKind kind) { return kRecordRoles.of[static_cast<uint8_t>(kind)]; }

// One location's statistics, by call path in the order of their first instance, and its runs.
struct LocationShare {
  std::vector<uint32_t> callpaths;
  std::vector<InstanceStats> stats;
  std::vector<FrequencyShare::Runs> runs;
  std::vector<uint32_t> candidate_instances;  // their Enter events
};

// A region entered and not yet left: what its instance statistics and, if it communicates, the
// runs of transfers need of it.
struct OpenRegion {
  uint32_t callpath;
  uint64_t entered;  // its Enter's time
  uint64_t children = 0;
  uint64_t overhead = 0;
  uint64_t bytes = 0;  // of its direct records
  uint32_t transfers = 0;
  uint32_t target = kNone;
  bool blocking = false;
  bool other = false;
};

// `types` by call path.
LocationShare WalkLocation(const trace::Trace& trace, std::span<const GenericType> types,
                           std::span<const uint8_t> candidates, const AdviceParameters& p,
                           uint32_t location) {
  const trace::LocationEvents& ev = trace.location(location);
  LocationShare share;
  TransferRunFinder runs(trace, types, p);
  // By call path, its place in the share: one table per location, of 4 bytes per call path, and
  // one lookup per instance.
  std::vector<uint32_t> slot(types.size(), kNone);
  std::vector<OpenRegion> open;
  std::span<const EventKind> kinds = ev.kinds();
  for (uint32_t i = 0; i < kinds.size(); ++i) {
    switch (kinds[i]) {
      case EventKind::kEnter: {
        const uint32_t callpath = ev.ref(i);
        if (callpath < candidates.size() && candidates[callpath] != 0) {
          share.candidate_instances.push_back(i);
        }
        open.push_back(OpenRegion{callpath, ev.time(i)});
        break;
      }
      case EventKind::kLeave: {
        if (open.empty()) break;
        const OpenRegion o = open.back();
        open.pop_back();
        const uint64_t left = ev.time(i);
        const uint64_t inclusive = left - o.entered;
        const uint32_t callpath = o.callpath;
        const GenericType type = callpath < types.size() ? types[callpath] : GenericType::kLocal;
        if (callpath < types.size()) {
          if (slot[callpath] == kNone) {
            slot[callpath] = static_cast<uint32_t>(share.callpaths.size());
            share.callpaths.push_back(callpath);
            share.stats.emplace_back();
          }
          InstanceStats& s = share.stats[slot[callpath]];
          s.Add(InstanceMeasure(type, inclusive, o.children, o.overhead));
          s.bytes += o.bytes;
        }
        if (o.transfers != 0 || o.other) {
          runs.Add(CommunicationCall{callpath, o.entered, left, o.transfers, o.target, o.bytes,
                                     o.blocking, o.other});
        }
        if (!open.empty()) {
          open.back().children += inclusive;
          open.back().overhead += OverheadOf(type, inclusive, o.overhead);
        }
        break;
      }
      default: {
        if (open.empty()) break;
        OpenRegion& o = open.back();
        const RecordRole role = RoleOf(kinds[i]);
        if (role == kSilent) break;
        o.bytes += RecordBytes(ev, i);
        switch (role) {
          case kTransfer:
          case kBlockingTransfer:
            ++o.transfers;
            o.target = TransferTarget(trace.defs, ev, i, location);
            o.blocking = o.blocking || role == kBlockingTransfer;
            break;
          case kBlockingCompletion:
            o.blocking = true;
            break;
          default:
            o.other = true;
            break;
        }
        break;
      }
    }
  }
  share.runs = runs.Finish(location);
  return share;
}

}  // namespace

WalkedLocations WalkLocations(const trace::Trace& trace, std::span<const GenericType> region_types,
                              std::span<const uint8_t> candidates, const AdviceParameters& p,
                              unsigned threads) {
  const uint32_t n = trace.location_count();
  const std::vector<GenericType> types = ClassifyCallpaths(trace, region_types);
  std::vector<LocationShare> per_location(n);
  ParallelFor(n, threads, [&](size_t loc) {
    per_location[loc] = WalkLocation(trace, types, candidates, p, static_cast<uint32_t>(loc));
  });
  WalkedLocations out;
  out.stats.resize(trace.call_tree.size());
  out.candidate_instances.reserve(n);
  for (LocationShare& share : per_location) {
    out.candidate_instances.push_back(std::move(share.candidate_instances));
    for (size_t k = 0; k < share.callpaths.size(); ++k) {
      out.stats[share.callpaths[k]].Merge(WithinLocation(share.stats[k]));
    }
    out.runs.insert(out.runs.end(), std::make_move_iterator(share.runs.begin()),
                    std::make_move_iterator(share.runs.end()));
  }
  return out;
}

}  // namespace cw::analysis
