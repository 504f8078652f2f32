#include "analysis/advice/load_balance.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "analysis/advice/hints.h"
#include "analysis/advice/records.h"
#include "analysis/generic/construct_map.h"
#include "base/parallel.h"
#include "trace/event_kind.h"
#include "trace/one_sided_pairing.h"

namespace cw::analysis {
namespace {

using trace::EventKind;
using trace::kNone;

GenericType TypeOf(const GlobalInput& in, uint32_t callpath) {
  return CallpathType(*in.trace, in.region_types, callpath);
}

// The locations whose time the analyses compare: those with events.
std::vector<uint32_t> ActiveLocations(const trace::Trace& trace) {
  std::vector<uint32_t> out;
  for (uint32_t loc = 0; loc < trace.location_count(); ++loc) {
    if (!trace.location(loc).empty()) out.push_back(loc);
  }
  return out;
}

std::vector<ProcessBalance> ProcessLevel(const GlobalInput& in,
                                         const std::vector<uint32_t>& active) {
  std::vector<ProcessBalance> out;
  for (uint32_t loc : active) {
    ProcessBalance b;
    b.location = loc;
    for (const trace::LocationEvents::CallpathTime& t : in.trace->location(loc).profile()) {
      switch (TypeOf(in, t.callpath)) {
        case GenericType::kLocal:
        case GenericType::kWorkSharing:
          b.computation += t.exclusive;
          break;
        case GenericType::kGroupComm:
        case GenericType::kPut:
        case GenericType::kGet:
        case GenericType::kSend:
        case GenericType::kReceive:
        case GenericType::kAtomic:
          b.communication += t.exclusive;
          break;
        case GenericType::kGroupSync:
        case GenericType::kCommSync:
        case GenericType::kLockAcquire:
        case GenericType::kLockRelease:
        case GenericType::kWaitOnValue:
          b.synchronisation += t.exclusive;
          break;
        default:
          b.other += t.exclusive;
          break;
      }
    }
    if (loc < in.severities.size()) {
      double waits = 0;
      for (MetricId m : {MetricId::kMpiLateSender, MetricId::kMpiLateReceiver}) {
        waits += in.severities[loc].Total(m);
      }
      const auto moved = std::min(b.communication, static_cast<uint64_t>(std::max(0.0, waits)));
      b.communication -= moved;
      b.synchronisation += moved;
    }
    out.push_back(b);
  }
  return out;
}

// Per location, its MPI_Init's end, its global synchronisations and its MPI_Finalize's start,
// in time order.
std::vector<std::vector<Boundary>> Boundaries(const GlobalInput& in,
                                              const std::vector<bool>& global) {
  const trace::Trace& trace = *in.trace;
  std::vector<std::vector<Boundary>> out(trace.location_count());
  const match::SyncGraph& g = *in.graph;
  ParallelFor(out.size(), in.threads, [&](size_t loc) {
    const trace::LocationEvents& ev = trace.location(static_cast<uint32_t>(loc));
    // The first termination call, and the first initialisation call before it. The profile
    // counts the termination calls the location entered (never fewer than their Enters: a
    // compacted call counts each repetition), so they are looked for from the back until all
    // were seen, and the initialisation from the front: neither scan reads every event.
    uint64_t terminations = 0;
    bool initialises = false;
    for (const trace::LocationEvents::CallpathTime& t : ev.profile()) {
      const GenericType type = TypeOf(in, t.callpath);
      if (type == GenericType::kTermination) terminations += t.visits;
      initialises = initialises || (type == GenericType::kInitialization && t.visits > 0);
    }
    std::span<const EventKind> kinds = ev.kinds();
    auto entered = [&](uint32_t i, GenericType type) {
      return kinds[i] == EventKind::kEnter && TypeOf(in, ev.ref(i)) == type;
    };
    uint32_t termination = kNone;
    uint64_t seen = 0;
    for (uint32_t i = ev.size(); i-- > 0 && seen < terminations;) {
      if (!entered(i, GenericType::kTermination)) continue;
      termination = i;
      ++seen;
    }
    for (uint32_t i = 0; initialises && i < std::min(termination, ev.size()); ++i) {
      if (!entered(i, GenericType::kInitialization) || ev.pair(i) == kNone) continue;
      const uint64_t left = ev.time(ev.pair(i));
      out[loc].push_back(Boundary{left, left, ev.ref(i)});
      break;
    }
    // Its members of global synchronisations (the graph lists them in event order).
    if (loc < g.by_location.size()) {
      for (uint32_t k : g.by_location[loc].collectives) {
        if (k >= in.member_instance.size() || !global[in.member_instance[k]]) continue;
        const match::CollectiveMember& m = g.members[k];
        if (m.begin_event >= ev.size()) continue;
        const uint32_t call =
            ev.kind(m.begin_event) == EventKind::kEnter ? m.begin_event : ev.pair(m.begin_event);
        if (call == kNone || ev.pair(call) == kNone) continue;
        out[loc].push_back(Boundary{ev.time(call), ev.time(ev.pair(call)), ev.ref(call)});
      }
    }
    if (termination != kNone) {
      out[loc].push_back(Boundary{ev.time(termination), ev.time(termination), ev.ref(termination)});
    }
    // In time order unless the calls and the synchronisations overlap (a broken trace).
    auto by_time = [](const Boundary& a, const Boundary& b) {
      return std::tie(a.enter, a.leave) < std::tie(b.enter, b.leave);
    };
    if (!std::is_sorted(out[loc].begin(), out[loc].end(), by_time))
      std::sort(out[loc].begin(), out[loc].end(), by_time);
  });
  return out;
}

std::vector<BlockBalance> BlockLevel(const LoadBalanceShare& all) {
  std::vector<BlockBalance> blocks;
  std::vector<size_t> members;  // into the share's locations
  size_t count = SIZE_MAX;
  for (size_t i = 0; i < all.processes.size(); ++i) {
    if (all.boundaries[i].empty()) continue;
    members.push_back(i);
    count = std::min(count, all.boundaries[i].size());
  }
  if (members.empty() || count < 2) return blocks;
  for (size_t k = 0; k + 1 < count; ++k) {
    BlockBalance b;
    b.index = static_cast<uint32_t>(k);
    b.begin = UINT64_MAX;
    uint64_t sum = 0;
    for (size_t i : members) {
      const uint32_t loc = all.processes[i].location;
      const Boundary& from = all.boundaries[i][k];
      const Boundary& to = all.boundaries[i][k + 1];
      const uint64_t work = to.enter > from.leave ? to.enter - from.leave : 0;
      sum += work;
      b.begin = std::min(b.begin, from.leave);
      if (b.max_location == kNone || work > b.max) {
        b.max = work;
        b.max_location = loc;
        b.max_begin = from.leave;
        b.closing = to.callpath;
      }
    }
    b.mean = static_cast<double>(sum) / static_cast<double>(members.size());
    blocks.push_back(b);
  }
  return blocks;
}

// Each location's time per call path: exclusive for local operations, else inclusive.
std::vector<std::pair<uint32_t, uint64_t>> CallpathTimes(const GlobalInput& in, uint32_t loc) {
  std::vector<std::pair<uint32_t, uint64_t>> out;
  for (const trace::LocationEvents::CallpathTime& t : in.trace->location(loc).profile()) {
    if (t.callpath >= in.trace->call_tree.size()) continue;
    out.emplace_back(t.callpath,
                     TypeOf(in, t.callpath) == GenericType::kLocal ? t.exclusive : t.inclusive);
  }
  return out;
}

// Each location's role in its process: its type and its place among the process's locations
// (the master thread, the second thread, the first accelerator stream), as an id.
std::vector<uint32_t> LocationRoles(const trace::Definitions& defs) {
  std::map<std::tuple<trace::LocationType, uint32_t>, uint32_t> ids;
  std::map<uint32_t, uint32_t> seen;  // locations so far, by group
  std::vector<uint32_t> roles(defs.locations.size());
  for (size_t l = 0; l < defs.locations.size(); ++l) {
    const trace::Location& loc = defs.locations[l];
    const uint32_t place = seen[loc.group]++;
    roles[l] = ids.try_emplace({loc.type, place}, static_cast<uint32_t>(ids.size())).first->second;
  }
  return roles;
}

// A call path's mean is over the locations that could have done its work: every active
// location in a role (LocationRoles) of one that visited it. A call path of the master threads
// is compared among the master threads (a process that never visits it counts with 0: work
// only some processes do is imbalance), not divided among the worker threads and accelerator
// streams too.
std::vector<CallpathBalance> CallpathLevel(const GlobalInput& in, const LoadBalanceShare& all) {
  const size_t n = in.trace->call_tree.size();
  const size_t active = all.processes.size();
  const std::vector<uint32_t> roles = LocationRoles(in.trace->defs);
  std::map<uint32_t, uint64_t> per_role;  // active locations in each role
  for (const ProcessBalance& p : all.processes) ++per_role[roles[p.location]];
  std::vector<CallpathBalance> out(n);
  std::vector<uint64_t> sum(n, 0);
  std::vector<std::vector<uint32_t>> visited_roles(n);
  for (uint32_t c = 0; c < n; ++c) out[c].callpath = c;
  for (size_t i = 0; i < active; ++i) {
    const uint32_t loc = all.processes[i].location;
    for (const auto& [callpath, v] : all.callpaths[i]) {
      if (callpath >= n) continue;
      CallpathBalance& b = out[callpath];
      sum[callpath] += v;
      ++b.processes;
      std::vector<uint32_t>& r = visited_roles[callpath];
      if (std::find(r.begin(), r.end(), roles[loc]) == r.end()) r.push_back(roles[loc]);
      if (b.max_location == kNone || v > b.max) {
        b.max = v;
        b.max_location = loc;
      }
    }
  }
  for (uint32_t c = 0; c < n; ++c) {
    uint64_t population = 0;
    for (uint32_t role : visited_roles[c]) population += per_role[role];
    out[c].mean =
        population == 0 ? 0 : static_cast<double>(sum[c]) / static_cast<double>(population);
  }
  std::erase_if(out, [](const CallpathBalance& b) { return b.processes == 0; });
  return out;
}

bool Imbalanced(double max, double mean, const GlobalInput& in, const AdviceParameters& p) {
  return mean > 0 && max - mean > p.hotspot_share * static_cast<double>(in.total_time) &&
         max / mean - 1 > p.imbalance;
}

AdviceFinding GlobalFinding(AdvicePattern pattern, uint32_t callpath, GenericType type) {
  AdviceFinding f;
  f.pattern = pattern;
  f.callpath = callpath;
  f.type = type;
  f.filter = DetectionFilter::kNone;
  f.hints = HintsFor(pattern, type);
  return f;
}

}  // namespace

std::vector<uint32_t> MemberInstances(const match::SyncGraph& graph) {
  std::vector<uint32_t> out(graph.members.size(), kNone);
  for (uint32_t c = 0; c < graph.collectives.size(); ++c) {
    const match::CollectiveInstance& inst = graph.collectives[c];
    for (uint32_t k = inst.first_member; k < inst.first_member + inst.member_count; ++k) {
      out[k] = c;
    }
  }
  return out;
}

std::vector<bool> GlobalSynchronisations(const trace::Trace& trace, const match::SyncGraph& graph) {
  using trace::CollectiveOp;
  const uint32_t processes = ProcessCount(trace.defs);
  std::vector<bool> global(graph.collectives.size(), false);
  for (uint32_t c = 0; c < graph.collectives.size(); ++c) {
    const match::CollectiveInstance& inst = graph.collectives[c];
    // A non-blocking collective synchronises nobody where it starts or completes.
    if (inst.non_blocking) continue;
    // Every rank of a communicator of every process (a rank of an MPI analysis job lists only
    // its own members of an instance: the communicator says how many there are).
    if (!inst.complete || inst.comm >= trace.defs.comms.size() ||
        trace.defs.comms[inst.comm].size() < processes) {
      continue;
    }
    if (inst.window != kNone) {
      // OpenSHMEM barriers; an MPI fence completes one-sided transfers, it is not a barrier.
      global[c] = inst.op == CollectiveOp::kBarrier &&
                  trace::WindowParadigm(trace.defs, inst.window) == trace::Paradigm::kShmem;
      continue;
    }
    switch (inst.op) {
      case CollectiveOp::kBarrier:
      case CollectiveOp::kAllgather:
      case CollectiveOp::kAllgatherv:
      case CollectiveOp::kAlltoall:
      case CollectiveOp::kAlltoallv:
      case CollectiveOp::kAlltoallw:
      case CollectiveOp::kAllreduce:
      case CollectiveOp::kReduceScatter:
      case CollectiveOp::kReduceScatterBlock:
        global[c] = true;
        break;
      default:
        break;
    }
  }
  return global;
}

LoadBalanceShare ShareLoadBalance(const GlobalInput& in) {
  LoadBalanceShare share;
  const std::vector<uint32_t> active = ActiveLocations(*in.trace);
  share.processes = ProcessLevel(in, active);
  std::vector<std::vector<Boundary>> boundaries =
      Boundaries(in, GlobalSynchronisations(*in.trace, *in.graph));
  for (uint32_t loc : active) {
    share.boundaries.push_back(std::move(boundaries[loc]));
    share.callpaths.push_back(CallpathTimes(in, loc));
  }
  return share;
}

void MergeLoadBalance(LoadBalanceShare& into, LoadBalanceShare&& share) {
  for (size_t i = 0; i < share.processes.size(); ++i) {
    into.processes.push_back(share.processes[i]);
    into.boundaries.push_back(std::move(share.boundaries[i]));
    into.callpaths.push_back(std::move(share.callpaths[i]));
  }
  // In location order, as one process lists them.
  std::vector<size_t> order(into.processes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&into](size_t a, size_t b) {
    return into.processes[a].location < into.processes[b].location;
  });
  LoadBalanceShare sorted;
  for (size_t i : order) {
    sorted.processes.push_back(into.processes[i]);
    sorted.boundaries.push_back(std::move(into.boundaries[i]));
    sorted.callpaths.push_back(std::move(into.callpaths[i]));
  }
  into = std::move(sorted);
}

LoadBalance AnalyzeLoadBalance(const GlobalInput& in, const AdviceParameters& p,
                               std::vector<AdviceFinding>& findings) {
  return FinishLoadBalance(ShareLoadBalance(in), in, p, findings);
}

LoadBalance FinishLoadBalance(const LoadBalanceShare& all, const GlobalInput& in,
                              const AdviceParameters& p, std::vector<AdviceFinding>& findings) {
  LoadBalance lb;
  lb.processes = all.processes;
  uint64_t max_computation = 0, sum = 0;
  for (const ProcessBalance& b : lb.processes) {
    max_computation = std::max(max_computation, b.computation);
    sum += b.computation;
  }
  if (sum > 0) {
    lb.computation_imbalance = static_cast<double>(max_computation) *
                               static_cast<double>(lb.processes.size()) / static_cast<double>(sum);
  }
  for (const ProcessBalance& b : lb.processes) {
    if (max_computation > 0 && b.computation == max_computation) {
      lb.bottleneck_processes.push_back(b.location);
    }
  }

  // Blocks: imbalanced ones grouped by the synchronisation that ends them.
  std::vector<BlockBalance> blocks = BlockLevel(all);
  lb.block_count = blocks.size();
  std::map<uint32_t, AdviceFinding> by_closing;
  for (const BlockBalance& b : blocks) {
    if (!Imbalanced(static_cast<double>(b.max), b.mean, in, p)) continue;
    auto [it, inserted] = by_closing.try_emplace(
        b.closing,
        GlobalFinding(AdvicePattern::kImbalancedBlock, b.closing, TypeOf(in, b.closing)));
    AdviceFinding& f = it->second;
    ++f.instances;
    ++f.bottleneck_instances;
    f.time += b.max;
    f.bottleneck_time += b.max;
    f.mean += b.mean;
    if (std::find(f.locations.begin(), f.locations.end(), b.max_location) == f.locations.end()) {
      f.locations.push_back(b.max_location);
    }
    f.blocks.push_back(ImbalancedBlock{b.max_location, b.max_begin, b.max_begin + b.max, b.mean});
  }
  for (auto& [closing, f] : by_closing) {
    std::sort(f.locations.begin(), f.locations.end());
    f.expected = f.mean / static_cast<double>(f.instances);  // the mean block, per block
    f.mean = *f.expected;
    ++f.pattern_counts[static_cast<size_t>(AdvicePattern::kImbalancedBlock)];
    findings.push_back(std::move(f));
  }
  auto by_excess = [](const auto& a, const auto& b) {
    return std::make_tuple(-(static_cast<double>(a.max) - a.mean), a.max_location) <
           std::make_tuple(-(static_cast<double>(b.max) - b.mean), b.max_location);
  };
  std::stable_sort(blocks.begin(), blocks.end(), by_excess);
  if (blocks.size() > 20) blocks.resize(20);
  lb.blocks = std::move(blocks);

  // Call paths: the imbalanced local ones are findings.
  std::vector<CallpathBalance> callpaths = CallpathLevel(in, all);
  for (const CallpathBalance& b : callpaths) {
    if (TypeOf(in, b.callpath) != GenericType::kLocal ||
        !Imbalanced(static_cast<double>(b.max), b.mean, in, p)) {
      continue;
    }
    AdviceFinding f =
        GlobalFinding(AdvicePattern::kImbalancedCallpath, b.callpath, GenericType::kLocal);
    f.locations = {b.max_location};
    f.time = b.max;
    f.bottleneck_time = b.max;
    f.instances = f.bottleneck_instances = 1;
    f.mean = b.mean;
    f.expected = b.mean;
    f.max = b.max;
    ++f.pattern_counts[static_cast<size_t>(AdvicePattern::kImbalancedCallpath)];
    findings.push_back(std::move(f));
  }
  std::stable_sort(callpaths.begin(), callpaths.end(), [&](const auto& a, const auto& b) {
    return std::make_tuple(-(static_cast<double>(a.max) - a.mean), a.callpath) <
           std::make_tuple(-(static_cast<double>(b.max) - b.mean), b.callpath);
  });
  if (callpaths.size() > 20) callpaths.resize(20);
  lb.callpaths = std::move(callpaths);
  return lb;
}

}  // namespace cw::analysis
