#include "match/matcher.h"

#include "match/internal/collective_matcher.h"
#include "match/internal/p2p_matcher.h"

namespace cw::match {

SyncGraph MatchTrace(const trace::Trace& trace, unsigned threads) {
  SyncGraph graph;
  graph.by_location.resize(trace.location_count());
  internal::MatchPointToPoint(trace, threads, graph);
  internal::MatchCollectives(trace, threads, graph);
  return graph;
}

}  // namespace cw::match
