#include "match/internal/collective_matcher.h"

#include <algorithm>
#include <map>
#include <string>

#include "base/parallel.h"
#include "match/matcher.h"

namespace cw::match::internal {
namespace {

using trace::EventKind;

struct CollectiveCall {
  uint32_t begin;
  uint32_t end;
};

// Per location: its collective calls grouped by communicator (or, for RMA collectives, by
// window), each list in event order.
using CallsByComm = std::map<uint32_t, std::vector<CollectiveCall>>;
struct LocationCalls {
  CallsByComm by_comm;
  CallsByComm by_window;
};

LocationCalls ScanLocation(const trace::LocationEvents& ev) {
  LocationCalls calls;
  uint32_t last_begin = kNone;
  for (uint32_t i = 0; i < ev.size(); ++i) {
    EventKind kind = ev.kind(i);
    if (kind == EventKind::kMpiCollectiveBegin || kind == EventKind::kRmaCollectiveBegin) {
      last_begin = i;
    } else if (kind == EventKind::kMpiCollectiveEnd || kind == EventKind::kRmaCollectiveEnd) {
      // The begin record belongs to this call if both sit in the same region instance;
      // otherwise the Enter of the call stands in for it.
      uint32_t begin =
          last_begin != kNone && ev.pair(last_begin) == ev.pair(i) ? last_begin : ev.pair(i);
      if (begin == kNone) begin = i;
      CallsByComm& calls_of_kind =
          kind == EventKind::kRmaCollectiveEnd ? calls.by_window : calls.by_comm;
      calls_of_kind[ev.collective(i).comm_or_window].push_back(CollectiveCall{begin, i});
      last_begin = kNone;
    }
  }
  return calls;
}

std::string Where(uint32_t location, uint32_t event) {
  return "location " + std::to_string(location) + ", event " + std::to_string(event);
}

// Instances of one communicator (or of window `window` over it); `rank_locations[r]` is the
// location of rank r.
void BuildInstances(const trace::Trace& trace, uint32_t comm_id, uint32_t window,
                    const std::vector<uint32_t>& rank_locations,
                    const std::vector<LocationCalls>& calls, SyncGraph& graph) {
  size_t rounds = 0;
  std::vector<const std::vector<CollectiveCall>*> lists(rank_locations.size(), nullptr);
  for (size_t r = 0; r < rank_locations.size(); ++r) {
    uint32_t loc = rank_locations[r];
    if (loc == kNone) continue;
    const CallsByComm& of_loc = window == kNone ? calls[loc].by_comm : calls[loc].by_window;
    auto it = of_loc.find(window == kNone ? comm_id : window);
    if (it == of_loc.end()) continue;
    lists[r] = &it->second;
    rounds = std::max(rounds, it->second.size());
  }
  const trace::Comm& comm = trace.defs.comms[comm_id];
  for (size_t k = 0; k < rounds; ++k) {
    CollectiveInstance instance;
    instance.comm = comm_id;
    instance.window = window;
    instance.first_member = static_cast<uint32_t>(graph.members.size());
    bool first = true;
    bool mismatch = false;
    uint32_t root_rank = kNone;
    for (size_t r = 0; r < lists.size(); ++r) {
      if (lists[r] == nullptr || k >= lists[r]->size()) continue;
      const CollectiveCall& call = (*lists[r])[k];
      uint32_t loc = rank_locations[r];
      const trace::CollectivePayload& p = trace.location(loc).collective(call.end);
      if (first) {
        instance.op = p.op;
        root_rank = p.root;
        first = false;
      } else if (p.op != instance.op || p.root != root_rank) {
        mismatch = true;
      }
      graph.members.push_back(
          CollectiveMember{loc, call.begin, call.end, static_cast<uint32_t>(r)});
    }
    instance.member_count = static_cast<uint32_t>(graph.members.size()) - instance.first_member;
    instance.complete = instance.member_count == rank_locations.size();
    instance.root = root_rank == kNone ? kNone : comm.LocationOfRank(root_rank, rank_locations[0]);
    const CollectiveMember& head = graph.members[instance.first_member];
    if (mismatch)
      graph.diagnostics.Report(kCollectiveMismatch, Where(head.location, head.end_event));
    if (!instance.complete) {
      ++graph.stats.incomplete_collectives;
      graph.diagnostics.Report(kIncompleteCollective, Where(head.location, head.end_event));
    }
    graph.collectives.push_back(instance);
  }
}

}  // namespace

void MatchCollectives(const trace::Trace& trace, unsigned threads, SyncGraph& graph) {
  const uint32_t n = trace.location_count();
  std::vector<LocationCalls> calls(n);
  ParallelFor(n, threads, [&](size_t loc) {
    calls[loc] = ScanLocation(trace.location(static_cast<uint32_t>(loc)));
  });

  const std::vector<trace::Comm>& comms = trace.defs.comms;
  // Communicator ids used anywhere, in ascending order, so instance ids are deterministic.
  std::map<uint32_t, std::vector<uint32_t>> self_users;  // self-like comm -> locations using it
  std::vector<bool> used(comms.size(), false);
  for (uint32_t loc = 0; loc < n; ++loc) {
    for (const auto& [comm, list] : calls[loc].by_comm) {
      bool known = comm < comms.size() && comms[comm].defined &&
                   (comms[comm].is_self || !comms[comm].rank_to_location.empty());
      if (!known) {
        graph.diagnostics.Report(kCollectiveUnknownComm, Where(loc, list.front().end), list.size());
        continue;
      }
      const trace::Comm& c = comms[comm];
      if (c.is_self) {
        self_users[comm].push_back(loc);
      } else if (std::find(c.rank_to_location.begin(), c.rank_to_location.end(), loc) ==
                 c.rank_to_location.end()) {
        graph.diagnostics.Report(kCollectiveUnknownComm, Where(loc, list.front().end), list.size());
      } else {
        used[comm] = true;
      }
    }
  }
  for (uint32_t comm = 0; comm < comms.size(); ++comm) {
    if (used[comm]) BuildInstances(trace, comm, kNone, comms[comm].rank_to_location, calls, graph);
    auto self = self_users.find(comm);
    if (self == self_users.end()) continue;
    // A self-like communicator is a separate one-member communicator on every location.
    for (uint32_t loc : self->second) BuildInstances(trace, comm, kNone, {loc}, calls, graph);
  }

  // RMA collectives, window by window, over the ranks of the window's communicator.
  const std::vector<trace::RmaWindow>& windows = trace.defs.windows;
  std::vector<bool> window_used(windows.size(), false);
  for (uint32_t loc = 0; loc < n; ++loc) {
    for (const auto& [window, list] : calls[loc].by_window) {
      const uint32_t comm = window < windows.size() && windows[window].defined
                                ? windows[window].comm
                                : kNone;
      bool known = comm < comms.size() && comms[comm].defined && !comms[comm].is_self &&
                   std::find(comms[comm].rank_to_location.begin(),
                             comms[comm].rank_to_location.end(),
                             loc) != comms[comm].rank_to_location.end();
      if (!known) {
        graph.diagnostics.Report(kCollectiveUnknownWindow, Where(loc, list.front().end),
                                 list.size());
        continue;
      }
      window_used[window] = true;
    }
  }
  for (uint32_t window = 0; window < windows.size(); ++window) {
    if (!window_used[window]) continue;
    const uint32_t comm = windows[window].comm;
    BuildInstances(trace, comm, window, comms[comm].rank_to_location, calls, graph);
  }
  graph.stats.collective_instances = graph.collectives.size();

  for (uint32_t m = 0; m < graph.members.size(); ++m) {
    graph.by_location[graph.members[m].location].collectives.push_back(m);
  }
  ParallelFor(n, threads, [&](size_t loc) {
    std::vector<uint32_t>& list = graph.by_location[loc].collectives;
    std::sort(list.begin(), list.end(), [&](uint32_t a, uint32_t b) {
      return graph.members[a].end_event < graph.members[b].end_event;
    });
  });
}

}  // namespace cw::match::internal
