#include "match/internal/probe_matcher.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <string>

#include "base/flat_hash_map.h"
#include "base/parallel.h"
#include "match/matcher.h"
#include "trace/probe_attributes.h"

namespace cw::match::internal {
namespace {

using trace::EventKind;
using trace::LocationEvents;

// The attribute ids of the probe attributes (kNone where the trace does not define one).
struct ProbeAttributes {
  uint32_t comm = kNone;
  uint32_t source = kNone;
  uint32_t tag = kNone;
  uint32_t handle = kNone;
  // The trace was written by a tracer that records what probes found.
  bool recorded() const { return comm != kNone && source != kNone && tag != kNone; }
};

ProbeAttributes FindProbeAttributes(const trace::Definitions& defs) {
  ProbeAttributes ids;
  for (uint32_t a = 0; a < defs.attributes.size(); ++a) {
    if (!defs.attributes[a].defined) continue;
    std::string_view name = defs.str(defs.attributes[a].name);
    if (name == trace::kProbeCommAttribute) ids.comm = a;
    if (name == trace::kProbeSourceAttribute) ids.source = a;
    if (name == trace::kProbeTagAttribute) ids.tag = a;
    if (name == trace::kMessageHandleAttribute) ids.handle = a;
  }
  return ids;
}

// The value of attribute `id` on event `event`, if present.
bool ReadAttribute(const LocationEvents& ev, uint32_t event, uint32_t id, uint64_t& value) {
  if (id == kNone) return false;
  for (const trace::EventAttribute& a : ev.AttributesOf(event)) {
    if (a.attribute == id) {
      value = a.value;
      return true;
    }
  }
  return false;
}

struct Envelope {
  uint64_t comm, source, tag, handle;
  bool operator==(const Envelope& o) const {
    return comm == o.comm && source == o.source && tag == o.tag && handle == o.handle;
  }
};
struct EnvelopeHash {
  size_t operator()(const Envelope& e) const {
    return static_cast<size_t>(MixHash(e.comm * 0x9E3779B97F4A7C15ull ^ (e.source << 32) ^
                                       e.tag * 0xC2B2AE3D27D4EB4Full ^ e.handle));
  }
};

struct ProbeCall {
  uint32_t enter;
  uint32_t leave;
  trace::MpiFunction mpi;
};

struct LocationProbes {
  std::vector<ProbeLink> links;  // in probe order
  uint64_t repeated = 0;
  uint64_t unlinked = 0;
  uint64_t unresolved = 0;
  Diagnostics diagnostics;
};

class LocationLinker {
 public:
  LocationLinker(const trace::Trace& trace, const SyncGraph& graph, const ProbeAttributes& ids,
                 const std::vector<trace::MpiFunction>& callpath_mpi, uint32_t location)
      : graph_(graph),
        ids_(ids),
        callpath_mpi_(callpath_mpi),
        loc_(location),
        ev_(trace.location(location)) {}

  LocationProbes Run() {
    std::vector<ProbeCall> probes = FindProbes();
    if (probes.empty()) return std::move(out_);
    // Visit probes (at their Leave, when they found the message) and receives (at their
    // completion) in event order.
    const LocationSync& sync = graph_.by_location[loc_];
    uint32_t m = sync.first_received;
    const uint32_t end = sync.first_received + sync.received_count;
    for (const ProbeCall& p : probes) {
      for (; m < end && graph_.messages[m].recv_event < p.leave; ++m) Receive(m);
      if (ids_.recorded()) {
        RecordedProbe(p);
      } else {
        InferredProbe(p);
      }
    }
    for (; m < end; ++m) Receive(m);
    out_.unlinked += pending_.size() + inferred_matched_.size() + (inferred_plain_ ? 1 : 0);
    std::sort(out_.links.begin(), out_.links.end(),
              [](const ProbeLink& a, const ProbeLink& b) { return a.probe < b.probe; });
    return std::move(out_);
  }

 private:
  trace::MpiFunction MpiOfCall(uint32_t enter) const {
    uint32_t cp = ev_.ref(enter);
    return cp < callpath_mpi_.size() ? callpath_mpi_[cp] : trace::MpiFunction{};
  }

  std::vector<ProbeCall> FindProbes() const {
    std::vector<ProbeCall> probes;
    std::span<const EventKind> kinds = ev_.kinds();
    for (uint32_t i = 0; i < kinds.size(); ++i) {
      if (kinds[i] != EventKind::kEnter) continue;
      trace::MpiFunction mpi = MpiOfCall(i);
      if (!mpi.has(trace::kMpiProbe)) continue;
      uint32_t leave = ev_.pair(i);
      if (leave == kNone || leave >= ev_.size()) continue;
      probes.push_back(ProbeCall{i, leave, mpi});
    }
    return probes;
  }

  // Recorded probes: the probe says which envelope it found; the next receive of that envelope
  // (and message handle) takes the message.
  void RecordedProbe(const ProbeCall& p) {
    Envelope key{};
    if (!ReadAttribute(ev_, p.leave, ids_.comm, key.comm) ||
        !ReadAttribute(ev_, p.leave, ids_.source, key.source) ||
        !ReadAttribute(ev_, p.leave, ids_.tag, key.tag)) {
      return;  // an unsuccessful MPI_Iprobe/MPI_Improbe
    }
    ReadAttribute(ev_, p.leave, ids_.handle, key.handle);
    if (pending_.Find(key) != nullptr) {
      ++out_.repeated;  // the same message as an earlier probe: it synchronises nothing
      return;
    }
    pending_.Insert(key, p.enter);
  }

  // Inferred probes (Score-P records only the Enter/Leave of a probe): a blocking probe found
  // the message of the next receive of its kind on the location. Non-blocking probes may have
  // found nothing, so they are left out.
  void InferredProbe(const ProbeCall& p) {
    if (p.mpi.has(trace::kMpiTest)) {
      ++out_.unresolved;
      return;
    }
    if (p.mpi.has(trace::kMpiMatched)) {
      inferred_matched_.push_back(p);  // each MPI_Mprobe takes its own message
      return;
    }
    if (inferred_plain_) {
      ++out_.repeated;  // MPI_Probe twice before a receive: assume the same message
      return;
    }
    inferred_plain_ = p;
  }

  void Receive(uint32_t id) {
    const Message& msg = graph_.messages[id];
    uint32_t posting = msg.recv_posting;
    uint32_t call = ev_.pair(posting);
    bool matched_receive = call != kNone && MpiOfCall(call).has(trace::kMpiMatched);
    if (ids_.recorded()) {
      if (pending_.empty()) return;
      const trace::P2pPayload& p = ev_.p2p(msg.recv_event);
      Envelope key{p.comm, p.peer, p.tag, 0};
      if (matched_receive) ReadAttribute(ev_, posting, ids_.handle, key.handle);
      if (uint32_t* probe = pending_.Find(key)) {
        out_.links.push_back(ProbeLink{*probe, id, false});
        pending_.Erase(key);
      }
      return;
    }
    if (matched_receive) {
      if (inferred_matched_.empty()) return;
      out_.links.push_back(ProbeLink{inferred_matched_.front().enter, id, true});
      inferred_matched_.pop_front();
      return;
    }
    // A receive posted before the probe cannot take the message the probe found.
    if (inferred_plain_ && posting > inferred_plain_->leave) {
      out_.links.push_back(ProbeLink{inferred_plain_->enter, id, true});
      inferred_plain_.reset();
    }
  }

  const SyncGraph& graph_;
  const ProbeAttributes& ids_;
  const std::vector<trace::MpiFunction>& callpath_mpi_;
  uint32_t loc_;
  const LocationEvents& ev_;
  LocationProbes out_;
  FlatHashMap<Envelope, uint32_t, EnvelopeHash> pending_;  // envelope -> probe Enter
  std::deque<ProbeCall> inferred_matched_;
  std::optional<ProbeCall> inferred_plain_;
};

}  // namespace

void LinkProbes(const trace::Trace& trace, unsigned threads, SyncGraph& graph) {
  const std::vector<trace::MpiFunction> callpath_mpi = trace::CallpathMpiFunctions(trace);
  if (std::none_of(callpath_mpi.begin(), callpath_mpi.end(),
                   [](const trace::MpiFunction& f) { return f.has(trace::kMpiProbe); })) {
    return;  // most traces: nothing to scan
  }
  const ProbeAttributes ids = FindProbeAttributes(trace.defs);
  const uint32_t n = trace.location_count();
  std::vector<LocationProbes> found(n);
  ParallelFor(n, threads, [&](size_t l) {
    found[l] = LocationLinker(trace, graph, ids, callpath_mpi, static_cast<uint32_t>(l)).Run();
  });
  MatchStats& stats = graph.stats;
  for (uint32_t l = 0; l < n; ++l) {
    LocationProbes& p = found[l];
    graph.by_location[l].first_probe = static_cast<uint32_t>(graph.probes.size());
    graph.by_location[l].probe_count = static_cast<uint32_t>(p.links.size());
    uint64_t inferred = 0;
    for (const ProbeLink& link : p.links) inferred += link.inferred ? 1 : 0;
    if (inferred > 0) {
      graph.diagnostics.Report(kProbeInferred, trace::EventPlace(l, p.links.front().probe),
                               inferred);
    }
    if (p.unlinked > 0) {
      graph.diagnostics.Report(kProbeUnlinked, "location " + std::to_string(l), p.unlinked);
    }
    if (p.unresolved > 0) {
      graph.diagnostics.Report(kNonBlockingProbeUnresolved, "location " + std::to_string(l),
                               p.unresolved);
    }
    graph.probes.insert(graph.probes.end(), p.links.begin(), p.links.end());
    stats.probes_linked += p.links.size();
    stats.probes_inferred += inferred;
    stats.probes_repeated += p.repeated;
    stats.probes_unlinked += p.unlinked;
    stats.probes_unresolved += p.unresolved;
  }
}

}  // namespace cw::match::internal
