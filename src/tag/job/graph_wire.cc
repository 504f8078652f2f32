#include "tag/job/graph_wire.h"

namespace cw::tag::internal {

// Stats, the histogram and the flags travel as they are in memory: the same binary reads them.
void PutGraph(comm::ByteWriter& out, const ProcessGraph& g) {
  out.Put(g.rank);
  out.Put(g.location);
  out.PutString(g.location_name);
  out.Put(g.ticks_per_second);
  out.Put(static_cast<uint64_t>(g.nodes.size()));
  for (const Node& n : g.nodes) {
    out.Put(n.kind);
    out.PutString(n.name);
    out.PutString(n.callpath);
    out.PutString(n.callsite);
    out.Put(n.time);
    out.Put(n.iterations);
  }
  out.Put(static_cast<uint64_t>(g.edges.size()));
  for (const Edge& e : g.edges) {
    out.Put(e.kind);
    out.Put(e.from);
    out.Put(e.to);
    out.Put(e.peer);
    out.Put(e.peer_location);
    out.Put(e.via);
    out.Put(e.time);
    out.Put(e.bytes);
    out.Put(e.size_histogram);
    out.Put(e.delta_t);
    out.Put(e.late_senders);
    out.Put(e.late_sender_ticks);
    out.Put(e.late_receivers);
    out.Put(e.late_receiver_ticks);
    out.Put(e.back);
  }
  out.Put(static_cast<uint64_t>(g.paths.size()));
  for (const CausalPath& p : g.paths) {
    out.Put(p.loop);
    out.PutVector(p.steps);
    out.Put(p.truncated);
    out.Put(p.time);
  }
}

ProcessGraph GetGraph(comm::ByteReader& in) {
  ProcessGraph g;
  g.rank = in.Get<uint32_t>();
  g.location = in.Get<uint32_t>();
  g.location_name = in.GetString();
  g.ticks_per_second = in.Get<double>();
  g.nodes.resize(in.Get<uint64_t>());
  for (Node& n : g.nodes) {
    n.kind = in.Get<NodeKind>();
    n.name = in.GetString();
    n.callpath = in.GetString();
    n.callsite = in.GetString();
    n.time = in.Get<Stats>();
    n.iterations = in.Get<uint64_t>();
  }
  g.edges.resize(in.Get<uint64_t>());
  for (Edge& e : g.edges) {
    e.kind = in.Get<EdgeKind>();
    e.from = in.Get<uint32_t>();
    e.to = in.Get<uint32_t>();
    e.peer = in.Get<uint32_t>();
    e.peer_location = in.Get<uint32_t>();
    e.via = in.Get<MessageVia>();
    e.time = in.Get<Stats>();
    e.bytes = in.Get<uint64_t>();
    e.size_histogram = in.Get<decltype(e.size_histogram)>();
    e.delta_t = in.Get<Stats>();
    e.late_senders = in.Get<uint64_t>();
    e.late_sender_ticks = in.Get<double>();
    e.late_receivers = in.Get<uint64_t>();
    e.late_receiver_ticks = in.Get<double>();
    e.back = in.Get<bool>();
  }
  g.paths.resize(in.Get<uint64_t>());
  for (CausalPath& p : g.paths) {
    p.loop = in.Get<uint32_t>();
    p.steps = in.GetVector<PathStep>();
    p.truncated = in.Get<bool>();
    p.time = in.Get<Stats>();
  }
  return g;
}

}  // namespace cw::tag::internal
