// A process graph as bytes, for the gather of an MPI job's graphs on its first rank (private
// to tag/job).
#pragma once

#include "comm/wire.h"
#include "tag/model/activity_graph.h"

namespace cw::tag::internal {

void PutGraph(comm::ByteWriter& out, const ProcessGraph& g);
ProcessGraph GetGraph(comm::ByteReader& in);

}  // namespace cw::tag::internal
