// `causeway tag` as one rank of an MPI job (`mpirun -np K causeway tag TRACE`), as `causeway
// analyze` runs (driver/job_analysis.h): every rank reads the definitions and its share of
// the locations (trace/partition.h), matches them with the other ranks, and builds its
// locations' graphs; what the graphs need of other ranks' locations (the nodes of the sends
// its locations received, the members its collectives link to or list) is asked of their
// owners in two exchanges; the first rank gathers every graph, the same graphs, edge for edge,
// as one process builds.
//
// Every rank must call it, with the same options; errors are the same on every rank.
//
//   CW_ASSIGN_OR_RETURN(std::optional<TraceGraphs> g, BuildGraphsAsJobRank(path, read, options,
//   comm)); if (g) { ... write the report ... }   // the first rank only
#pragma once

#include <optional>
#include <string>

#include "base/status.h"
#include "comm/communicator.h"
#include "otf2/trace_reader.h"
#include "tag/build/trace_graphs.h"

namespace cw::tag {

struct JobGraphs {
  TraceGraphs graphs;
  std::string source;  // the trace's path as read
};

Result<std::optional<JobGraphs>> BuildGraphsAsJobRank(const std::string& path,
                                                      const otf2::ReadOptions& read,
                                                      const GraphBuildOptions& options,
                                                      comm::Communicator& comm);

}  // namespace cw::tag
