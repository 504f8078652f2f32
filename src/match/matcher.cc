#include "match/matcher.h"

#include "match/internal/collective_matcher.h"
#include "match/internal/p2p_matcher.h"
#include "match/internal/probe_matcher.h"

namespace cw::match {

uint32_t SendCompletion(const trace::Trace& trace, const Message& m) {
  const trace::LocationEvents& ev = trace.location(m.sender);
  if (ev.kind(m.send_event) == trace::EventKind::kMpiSend) return m.send_event;
  return ev.p2p(m.send_event).request_link;
}

SyncGraph MatchTrace(const trace::Trace& trace, unsigned threads) {
  SyncGraph graph;
  graph.by_location.resize(trace.location_count());
  internal::MatchPointToPoint(trace, threads, graph);
  internal::LinkProbes(trace, threads, graph);
  internal::MatchCollectives(trace, threads, graph);
  return graph;
}

SyncGraph MatchOwnedLocations(const trace::Trace& trace, const trace::Partition& partition,
                              comm::Communicator& comm, unsigned threads) {
  SyncGraph graph;
  graph.by_location.resize(trace.location_count());
  internal::MatchPointToPoint(trace, partition, comm, threads, graph);
  internal::LinkProbes(trace, threads, graph);
  internal::MatchCollectives(trace, partition, comm, threads, graph);
  return graph;
}

}  // namespace cw::match
