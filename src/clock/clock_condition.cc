#include "clock/clock_condition.h"

#include <algorithm>

namespace cw::clock {
namespace {

using trace::CollectiveOp;
using trace::EventKind;
using trace::kNone;

class Builder {
 public:
  Builder(const trace::Trace& trace, const match::SyncGraph& graph) : trace_(trace), graph_(graph) {
    cc_.by_location.resize(trace.location_count());
  }

  ClockCondition Run() {
    Messages();
    Collectives();
    InitFinalize();
    for (std::vector<Dependency>& deps : cc_.by_location) {
      std::stable_sort(deps.begin(), deps.end(),
                       [](const Dependency& a, const Dependency& b) { return a.event < b.event; });
    }
    return std::move(cc_);
  }

 private:
  uint32_t AddSources(std::initializer_list<EventRef> refs) {
    uint32_t first = static_cast<uint32_t>(cc_.sources.size());
    cc_.sources.insert(cc_.sources.end(), refs.begin(), refs.end());
    return first;
  }

  void Messages() {
    std::vector<uint32_t> probe_of(graph_.messages.size(), kNone);
    for (const match::ProbeLink& p : graph_.probes) probe_of[p.message] = p.probe;
    for (uint32_t id = 0; id < graph_.messages.size(); ++id) {
      const match::Message& m = graph_.messages[id];
      uint32_t first = AddSources({EventRef{m.sender, m.send_event}});
      if (probe_of[id] != kNone) {
        // The probe found the message when it returned; the probed receive follows the probe.
        uint32_t leave = trace_.location(m.receiver).pair(probe_of[id]);
        cc_.by_location[m.receiver].push_back(
            Dependency{leave, first, 1, LogicalMessageKind::kProbe});
      } else {
        cc_.by_location[m.receiver].push_back(
            Dependency{m.recv_event, first, 1, LogicalMessageKind::kPointToPoint});
      }
    }
  }

  void Collectives() {
    for (const match::CollectiveInstance& c : graph_.collectives) {
      // A non-blocking collective's completions depend on other members' starts, which the
      // correction does not model yet: left out.
      if (!c.complete || c.member_count < 2 || c.non_blocking) continue;
      const match::CollectiveMember* m = &graph_.members[c.first_member];
      const uint32_t n = c.member_count;
      auto begin_of = [&](uint32_t k) { return EventRef{m[k].location, m[k].begin_event}; };
      auto all_begins = [&] {
        uint32_t first = static_cast<uint32_t>(cc_.sources.size());
        for (uint32_t k = 0; k < n; ++k) cc_.sources.push_back(begin_of(k));
        return first;
      };
      auto depend = [&](uint32_t k, uint32_t first, uint32_t count) {
        cc_.by_location[m[k].location].push_back(
            Dependency{m[k].end_event, first, count, LogicalMessageKind::kCollective});
      };
      uint32_t root = kNone;
      for (uint32_t k = 0; k < n; ++k) root = m[k].location == c.root ? k : root;
      switch (c.op) {
        case CollectiveOp::kBarrier:
        case CollectiveOp::kAllgather:
        case CollectiveOp::kAllgatherv:
        case CollectiveOp::kAlltoall:
        case CollectiveOp::kAllreduce:
        case CollectiveOp::kReduceScatter:
        case CollectiveOp::kReduceScatterBlock: {
          uint32_t first = all_begins();
          for (uint32_t k = 0; k < n; ++k) depend(k, first, n);
          break;
        }
        case CollectiveOp::kBcast:
        case CollectiveOp::kScatter:
        case CollectiveOp::kScatterv: {
          if (root == kNone) break;
          uint32_t first = AddSources({begin_of(root)});
          for (uint32_t k = 0; k < n; ++k) {
            if (k != root) depend(k, first, 1);
          }
          break;
        }
        case CollectiveOp::kReduce:
        case CollectiveOp::kGather:
        case CollectiveOp::kGatherv:
          if (root != kNone) depend(root, all_begins(), n);
          break;
        case CollectiveOp::kScan:
        case CollectiveOp::kExscan:
          // Members are in communicator rank order: member k waits for members 0..k.
          for (uint32_t k = 1; k < n; ++k) {
            uint32_t first = static_cast<uint32_t>(cc_.sources.size());
            for (uint32_t j = 0; j <= k; ++j) cc_.sources.push_back(begin_of(j));
            depend(k, first, k + 1);
          }
          break;
        default:
          break;
      }
    }
  }

  // The first MPI_Init(_thread) and MPI_Finalize call of every location: left after every
  // location that has one entered it.
  void InitFinalize() {
    const uint32_t n = trace_.location_count();
    std::vector<EventRef> init, fin;
    for (uint32_t l = 0; l < n; ++l) {
      const trace::LocationEvents& ev = trace_.location(l);
      bool seen_init = false, seen_fin = false;
      for (uint32_t i = 0; i < ev.size() && !(seen_init && seen_fin); ++i) {
        if (ev.kind(i) != EventKind::kEnter) continue;
        uint32_t region = trace_.CallpathRegion(ev.ref(i));
        if (region >= trace_.defs.regions.size()) continue;
        const trace::MpiFunction& mpi = trace_.defs.regions[region].mpi;
        if (!seen_init && mpi.has(trace::kMpiInit)) {
          init.push_back(EventRef{l, i});
          seen_init = true;
        } else if (!seen_fin && mpi.has(trace::kMpiFinalize)) {
          fin.push_back(EventRef{l, i});
          seen_fin = true;
        }
      }
    }
    for (const std::vector<EventRef>* calls : {&init, &fin}) {
      if (calls->size() < 2) continue;
      uint32_t first = static_cast<uint32_t>(cc_.sources.size());
      cc_.sources.insert(cc_.sources.end(), calls->begin(), calls->end());
      for (const EventRef& c : *calls) {
        uint32_t leave = trace_.location(c.location).pair(c.event);
        if (leave == kNone) continue;
        cc_.by_location[c.location].push_back(Dependency{
            leave, first, static_cast<uint32_t>(calls->size()), LogicalMessageKind::kCollective});
      }
    }
  }

  const trace::Trace& trace_;
  const match::SyncGraph& graph_;
  ClockCondition cc_;
};

}  // namespace

ClockCondition BuildClockCondition(const trace::Trace& trace, const match::SyncGraph& graph) {
  return Builder(trace, graph).Run();
}

ClockViolationCounts CountViolations(const trace::Trace& trace, const ClockCondition& condition,
                                     int64_t latency) {
  ClockViolationCounts counts;
  for (uint32_t l = 0; l < condition.by_location.size(); ++l) {
    const trace::LocationEvents& ev = trace.location(l);
    for (const Dependency& d : condition.by_location[l]) {
      int64_t t = static_cast<int64_t>(ev.time(d.event));
      bool violated = false;
      for (uint32_t k = d.first; k < d.first + d.count && !violated; ++k) {
        const EventRef& s = condition.sources[k];
        if (s.location == l && s.event == d.event) continue;
        violated = t < static_cast<int64_t>(trace.location(s.location).time(s.event)) + latency;
      }
      if (!violated) continue;
      switch (d.kind) {
        case LogicalMessageKind::kPointToPoint:
          ++counts.p2p;
          break;
        case LogicalMessageKind::kProbe:
          ++counts.probe;
          break;
        case LogicalMessageKind::kCollective:
          ++counts.collective;
          break;
      }
    }
  }
  return counts;
}

}  // namespace cw::clock
