#include "analysis/advice/location_walk.h"

#include "analysis/advice/records.h"
#include "analysis/advice/transfer_runs.h"
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
// runs of transfers need of it. The call is what the runs are fed as it is (its `leave` set when
// the region closes): a copy per communication call cost 4 % of the walk.
struct OpenRegion {
  CommunicationCall call;  // the call path, the Enter's time, the records' bytes and transfers
  uint64_t children = 0;
  uint64_t overhead = 0;
};

// One location's walk: its share, and the regions entered and not yet left.
class LocationWalk {
 public:
  // `types` by call path.
  LocationWalk(const trace::Trace& trace, std::span<const GenericType> types,
               std::span<const uint8_t> candidates, const AdviceParameters& p, uint32_t location)
      : trace_(trace),
        ev_(trace.location(location)),
        types_(types),
        candidates_(candidates),
        location_(location),
        runs_(trace, types, p),
        slot_(types.size(), kNone) {}

  LocationShare Run() {
    const std::span<const EventKind> kinds = ev_.kinds();
    const uint32_t n = static_cast<uint32_t>(kinds.size());
    for (uint32_t i = 0; i < n; ++i) {
      switch (kinds[i]) {
        case EventKind::kEnter:
          i = Enter(kinds, i);
          break;
        case EventKind::kLeave:
          if (open_.empty()) break;
          Close(open_.back(), ev_.time(i), open_.size() > 1 ? &open_[open_.size() - 2] : nullptr);
          open_.pop_back();
          break;
        default:
          if (!open_.empty()) AddRecord(open_.back(), kinds[i], i);
          break;
      }
    }
    share_.runs = runs_.Finish(location_);
    return std::move(share_);
  }

 private:
  // Enters the region of Enter `i` and takes the records directly after it. Most regions
  // (an MPI call, a leaf function) hold no other region: one whose Leave comes before any Enter
  // is closed here, without being stacked. Returns the last event taken.
  uint32_t Enter(std::span<const EventKind> kinds, uint32_t i) {
    const uint32_t callpath = ev_.ref(i);
    if (callpath < candidates_.size() && candidates_[callpath] != 0) {
      share_.candidate_instances.push_back(i);
    }
    OpenRegion o;
    o.call.callpath = callpath;
    o.call.enter = ev_.time(i);
    uint32_t k = i + 1;
    for (; k < kinds.size(); ++k) {
      const EventKind kind = kinds[k];
      if (kind == EventKind::kLeave) {
        Close(o, ev_.time(k), open_.empty() ? nullptr : &open_.back());
        return k;
      }
      if (kind == EventKind::kEnter) break;
      AddRecord(o, kind, k);
    }
    open_.push_back(o);
    return k - 1;
  }

  // Adds record `i` directly inside region `o` to it. Inlined, as Close is: the walk calls both
  // for every record and region, and the calls cost more than what they do.
  [[gnu::always_inline]] void AddRecord(OpenRegion& region, EventKind kind, uint32_t i) {
    CommunicationCall& o = region.call;
    const RecordRole role = RoleOf(kind);
    if (role == kSilent) return;
    switch (role) {
      case kTransfer:
      case kBlockingTransfer:
        ++o.transfers;
        o.blocking = o.blocking || role == kBlockingTransfer;
        if (trace::PayloadFamilyOf(kind) == trace::PayloadFamily::kP2p) {
          // A send: its payload read once for its bytes and its target.
          const trace::P2pPayload& m = ev_.p2p(i);
          o.bytes += m.bytes;
          o.target = RankLocation(trace_.defs, m.comm, m.peer, location_);
          return;
        }
        o.target = TransferTarget(trace_.defs, ev_, i, location_);
        break;
      case kBlockingCompletion:
        o.blocking = true;
        break;
      default:
        o.other = true;
        break;
    }
    o.bytes += RecordBytes(ev_, i);
  }

  // Closes region `o`, left at `left`, inside `parent` (none: at the top).
  [[gnu::always_inline]] void Close(OpenRegion& o, uint64_t left, OpenRegion* parent) {
    const uint64_t inclusive = left - o.call.enter;
    const uint32_t callpath = o.call.callpath;
    const GenericType type = callpath < types_.size() ? types_[callpath] : GenericType::kLocal;
    if (callpath < types_.size()) {
      if (slot_[callpath] == kNone) {
        slot_[callpath] = static_cast<uint32_t>(share_.callpaths.size());
        share_.callpaths.push_back(callpath);
        share_.stats.emplace_back();
      }
      InstanceStats& s = share_.stats[slot_[callpath]];
      s.Add(InstanceMeasure(type, inclusive, o.children, o.overhead));
      s.bytes += o.call.bytes;
    }
    if (o.call.transfers != 0 || o.call.other) {
      o.call.leave = left;
      runs_.Add(o.call);
    }
    if (parent != nullptr) {
      parent->children += inclusive;
      parent->overhead += OverheadOf(type, inclusive, o.overhead);
    }
  }

  const trace::Trace& trace_;
  const trace::LocationEvents& ev_;
  std::span<const GenericType> types_;
  std::span<const uint8_t> candidates_;
  const uint32_t location_;
  TransferRunFinder runs_;
  // By call path, its place in the share: one table per location, of 4 bytes per call path, and
  // one lookup per instance.
  std::vector<uint32_t> slot_;
  std::vector<OpenRegion> open_;
  LocationShare share_;
};

}  // namespace

WalkedLocations WalkLocations(const trace::Trace& trace, std::span<const GenericType> region_types,
                              std::span<const uint8_t> candidates, const AdviceParameters& p,
                              unsigned threads) {
  const uint32_t n = trace.location_count();
  const std::vector<GenericType> types = ClassifyCallpaths(trace, region_types);
  std::vector<LocationShare> per_location(n);
  ParallelFor(n, threads, [&](size_t loc) {
    per_location[loc] = LocationWalk(trace, types, candidates, p, static_cast<uint32_t>(loc)).Run();
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
