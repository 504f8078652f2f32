// Reading a trace as one analysis rank of an MPI job: the events of the locations this rank owns
// (trace/partition.h), and everything that must agree between the ranks made identical to what a
// single process reads.
//
// Definitions are read by every rank (they are small). Each rank reads its locations' events;
// then the ranks share what the single-process reader derives from all locations: each
// location's call tree and program name (so call-path and region ids come out the same) and the
// communicators each location used (so thread communicators are moved the same way). A read
// error on any rank is an error on every rank, with the same message: no rank may go on into a
// collective exchange that another will never join.
//
//   trace::Partition part = trace::PartitionLocations(defs, comm.size());
//   CW_ASSIGN_OR_RETURN(trace::Trace t, job_read::ReadOwnedLocations(path, opts, part, comm));
//   // t.location(l) holds events only where part.owner[l] == comm.rank()
#pragma once

#include <string>

#include "base/status.h"
#include "comm/communicator.h"
#include "otf2/trace_reader.h"
#include "trace/partition.h"
#include "trace/trace.h"

namespace cw::job_read {

Result<trace::Trace> ReadOwnedLocations(const std::string& path, const otf2::ReadOptions& options,
                                        const trace::Partition& partition,
                                        comm::Communicator& comm);

// Makes a per-rank outcome collective: if any rank failed, every rank returns the error of the
// lowest failing rank (the others' messages say which rank failed first).
Status AgreeOnStatus(const Status& mine, comm::Communicator& comm);

}  // namespace cw::job_read
