#include "tag/build/trace_graphs.h"

#include "tag/build/graph_builder.h"

namespace cw::tag {

TraceGraphs BuildTraceGraphs(const trace::Trace& trace, const match::SyncGraph& sync,
                             const GraphBuildOptions& options) {
  TraceGraphBuilder builder(trace, sync, options);
  builder.Walk();
  builder.AddIncoming();
  return builder.Take();
}

}  // namespace cw::tag
