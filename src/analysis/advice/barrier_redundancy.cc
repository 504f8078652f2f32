#include "analysis/advice/barrier_redundancy.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "analysis/advice/hints.h"
#include "base/parallel.h"
#include "trace/event_kind.h"
#include "trace/one_sided_pairing.h"

namespace cw::analysis {
namespace {

using trace::EventKind;
using trace::kNone;

bool IsTransfer(EventKind k) {
  switch (k) {
    case EventKind::kMpiSend:
    case EventKind::kMpiIsend:
    case EventKind::kMpiRecv:
    case EventKind::kMpiIrecv:
    case EventKind::kRmaPut:
    case EventKind::kRmaGet:
    case EventKind::kRmaAtomic:
      return true;
    default:
      return false;
  }
}

bool IsFileIo(EventKind k) {
  return k == EventKind::kIoOperationBegin || k == EventKind::kIoOperationIssued ||
         k == EventKind::kIoCreateHandle || k == EventKind::kIoDeleteFile;
}

// Regions that do file I/O: MPI-IO's calls (the reader's classification of MPI regions: file
// management, individual and collective reads and writes) and the regions the trace gives a
// file-I/O role.
std::vector<bool> FileIoRegions(const trace::Definitions& defs) {
  std::vector<bool> out(defs.regions.size(), false);
  for (size_t r = 0; r < defs.regions.size(); ++r) {
    const trace::Region& region = defs.regions[r];
    const trace::MpiCategory mpi = region.mpi.category;
    out[r] = region.role == trace::RegionRole::kFileIo ||
             region.role == trace::RegionRole::kFileIoMetadata ||
             mpi == trace::MpiCategory::kFileMgmt || mpi == trace::MpiCategory::kIoIndividual ||
             mpi == trace::MpiCategory::kIoCollective;
  }
  return out;
}

// One location's transfer and file I/O times, and the (Enter, Leave) of its collective calls,
// in order.
struct LocationActivity {
  std::vector<uint64_t> transfers;
  std::vector<uint64_t> file_io;
  std::vector<std::pair<uint64_t, uint64_t>> syncs;
  uint64_t start = 0;  // the end of MPI_Init, else the first event
};

}  // namespace

std::vector<BarrierMember> ShareBarrierMembers(const GlobalInput& in) {
  const trace::Trace& trace = *in.trace;
  const match::SyncGraph& g = *in.graph;
  const uint32_t n = trace.location_count();
  // The barriers this analysis judges: on communicators, and OpenSHMEM's on its teams' windows.
  auto judged = [&](const match::CollectiveInstance& c) {
    if (c.op != trace::CollectiveOp::kBarrier || c.member_count == 0) return false;
    return c.window == kNone ||
           trace::WindowParadigm(trace.defs, c.window) == trace::Paradigm::kShmem;
  };
  // Without any, what the locations did between their synchronisations is not needed (a pass
  // over every event).
  if (std::none_of(g.collectives.begin(), g.collectives.end(), judged)) return {};
  std::vector<LocationActivity> activity(n);
  const std::vector<bool> file_io_regions = FileIoRegions(trace.defs);
  ParallelFor(n, in.threads, [&](size_t loc) {
    const trace::LocationEvents& ev = trace.location(static_cast<uint32_t>(loc));
    LocationActivity& a = activity[loc];
    a.start = ev.first_time();
    bool init = false;
    std::span<const EventKind> kinds = ev.kinds();
    for (uint32_t i = 0; i < kinds.size(); ++i) {
      if (IsTransfer(kinds[i])) {
        a.transfers.push_back(ev.time(i));
      } else if (IsFileIo(kinds[i])) {
        a.file_io.push_back(ev.time(i));
      } else if (kinds[i] == EventKind::kEnter) {
        const uint32_t region = trace.CallpathRegion(ev.ref(i));
        if (region < file_io_regions.size() && file_io_regions[region]) {
          a.file_io.push_back(ev.time(i));
        }
        if (!init && ev.pair(i) != kNone && region < in.region_types.size() &&
            in.region_types[region] == GenericType::kInitialization) {
          a.start = ev.time(ev.pair(i));
          init = true;
        }
      }
    }
  });
  // Every collective member's call, per location (their order is their Enters').
  auto call_of = [&](const match::CollectiveMember& m) -> uint32_t {
    if (m.location >= n) return kNone;
    const trace::LocationEvents& ev = trace.location(m.location);
    if (m.begin_event >= ev.size()) return kNone;
    const uint32_t call =
        ev.kind(m.begin_event) == EventKind::kEnter ? m.begin_event : ev.pair(m.begin_event);
    return call != kNone && ev.pair(call) != kNone ? call : kNone;
  };
  const size_t held = std::min<size_t>(n, g.by_location.size());
  ParallelFor(held, in.threads, [&](size_t loc) {
    const trace::LocationEvents& ev = trace.location(static_cast<uint32_t>(loc));
    LocationActivity& a = activity[loc];
    for (uint32_t k : g.by_location[loc].collectives) {
      if (k >= g.members.size()) continue;
      // A non-blocking collective's start synchronises nobody.
      if (k < in.member_instance.size() && in.member_instance[k] != kNone &&
          g.collectives[in.member_instance[k]].non_blocking) {
        continue;
      }
      const uint32_t call = call_of(g.members[k]);
      if (call != kNone) a.syncs.emplace_back(ev.time(call), ev.time(ev.pair(call)));
    }
    std::sort(a.syncs.begin(), a.syncs.end());
  });

  // The members of barriers on the locations this rank holds.
  std::vector<BarrierMember> out;
  for (uint32_t loc = 0; loc < held; ++loc) {
    if (trace.location(loc).empty()) continue;
    for (uint32_t k : g.by_location[loc].collectives) {
      if (k >= in.member_instance.size() || in.member_instance[k] == kNone) continue;
      const match::CollectiveInstance& c = g.collectives[in.member_instance[k]];
      if (!judged(c)) continue;
      BarrierMember b;
      b.instance = c.origin;
      b.position = g.members[k].rank;
      b.location = loc;
      const uint32_t call = call_of(g.members[k]);
      if (call != kNone) {
        const trace::LocationEvents& ev = trace.location(loc);
        const uint64_t entered = ev.time(call);
        b.callpath = ev.ref(call);
        b.time = ev.time(ev.pair(call)) - entered;
        const LocationActivity& a = activity[loc];
        // The previous synchronisation: the latest collective call entered before this one.
        auto it =
            std::lower_bound(a.syncs.begin(), a.syncs.end(), std::make_pair(entered, uint64_t{0}));
        const uint64_t since = it == a.syncs.begin() ? a.start : std::prev(it)->second;
        auto t = std::upper_bound(a.transfers.begin(), a.transfers.end(), since);
        b.communicated = t != a.transfers.end() && *t < entered;
        // At `entered` too: causeway's tracer marks the writes before a barrier right before
        // its Enter (measure/runtime/write_calls.h), which may share its timestamp.
        auto io = std::upper_bound(a.file_io.begin(), a.file_io.end(), since);
        b.file_io = io != a.file_io.end() && *io <= entered;
      }
      out.push_back(b);
    }
  }
  return out;
}

std::vector<RedundantBarrier> FinishRedundantBarriers(std::vector<BarrierMember> members,
                                                      const GlobalInput& in,
                                                      const AdviceParameters& p,
                                                      std::vector<AdviceFinding>& findings) {
  const trace::Trace& trace = *in.trace;
  // Each instance's members together, in their order.
  std::sort(members.begin(), members.end(), [](const BarrierMember& a, const BarrierMember& b) {
    return std::tie(a.instance, a.position) < std::tie(b.instance, b.position);
  });
  struct Tally {
    uint64_t instances = 0, redundant = 0, time = 0;
    std::vector<uint32_t> locations;
    uint8_t unseen = 0;
  };
  // Memory whose accesses the trace cannot show, anywhere in the program.
  uint8_t program_unseen = 0;
  if (trace::HasWindowOf(trace.defs, trace::Paradigm::kShmem)) {
    program_unseen |= kUnseenSymmetricMemory;
  }
  if (trace::HasWindowOf(trace.defs, trace::Paradigm::kMpi)) program_unseen |= kUnseenWindowMemory;
  std::map<uint32_t, Tally> by_callpath;
  for (size_t i = 0; i < members.size();) {
    size_t end = i;
    while (end < members.size() && members[end].instance == members[i].instance) ++end;
    uint32_t callpath = kNone;
    bool redundant = true;
    uint8_t unseen = program_unseen;
    uint64_t time = 0;
    std::vector<uint32_t> locations;
    for (size_t k = i; k < end; ++k) {
      const BarrierMember& m = members[k];
      if (m.callpath == kNone) {
        redundant = false;  // a member whose call is not whole: nothing to say
        continue;
      }
      if (callpath == kNone) callpath = m.callpath;
      time += m.time;
      locations.push_back(m.location);
      if (m.communicated) redundant = false;
      if (m.file_io) unseen |= kUnseenFileIo;
    }
    i = end;
    if (callpath == kNone) continue;
    Tally& tally = by_callpath[callpath];
    ++tally.instances;
    if (!redundant) continue;
    ++tally.redundant;
    tally.unseen |= unseen;
    tally.time += time;
    for (uint32_t loc : locations) tally.locations.push_back(loc);
  }
  std::vector<RedundantBarrier> out;
  for (auto& [callpath, tally] : by_callpath) {
    if (tally.redundant == 0 || tally.redundant < tally.instances) continue;
    out.push_back(RedundantBarrier{callpath, tally.instances, tally.time, tally.unseen});
    // Listed in redundant_barriers whatever their time; a finding above the hotspot share.
    if (static_cast<double>(tally.time) <= p.hotspot_share * static_cast<double>(in.total_time))
      continue;
    std::sort(tally.locations.begin(), tally.locations.end());
    tally.locations.erase(std::unique(tally.locations.begin(), tally.locations.end()),
                          tally.locations.end());
    AdviceFinding f;
    f.pattern = tally.unseen == 0 ? AdvicePattern::kRedundantBarrier
                                  : AdvicePattern::kPossiblyRedundantBarrier;
    f.unseen = tally.unseen;
    f.callpath = callpath;
    const uint32_t region = trace.CallpathRegion(callpath);
    f.type = region < in.region_types.size() ? in.region_types[region] : GenericType::kGroupSync;
    f.filter = DetectionFilter::kNone;
    f.locations = std::move(tally.locations);
    f.time = f.bottleneck_time = tally.time;
    f.instances = f.bottleneck_instances = tally.instances;
    f.expected = 0;  // removed, it takes no time
    f.pattern_counts[static_cast<size_t>(f.pattern)] = tally.instances;
    f.hints =
        tally.unseen == 0 ? HintsFor(f.pattern, f.type) : PossiblyRedundantHints(tally.unseen);
    findings.push_back(std::move(f));
  }
  return out;
}

}  // namespace cw::analysis
