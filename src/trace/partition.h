// Which analysis process owns which locations, when the analysis runs as an MPI job of K ranks.
//
// The assignment is decided from the definitions alone, before any event is read, so every
// analysis rank computes the same one on its own. It balances the declared event counts (what
// reading and analysing a location costs) and keeps neighbours together: locations are taken in
// system-tree order (node, process, thread) and cut into K contiguous runs. Programs exchange
// most with nearby ranks and the threads of a process synchronise with each other, so contiguous
// runs keep most synchronisation edges inside one analysis rank, which is what the exchange
// between ranks costs. Cuts fall between nodes when that costs little balance (at most 5% on the
// heaviest rank), else between processes; only when K exceeds the process count are the threads
// of one process split, and never in a trace with OpenMP regions (its threads synchronise with
// each other at every barrier and fork: ranks beyond the process count then own nothing).
//
//   trace::Partition p = trace::PartitionLocations(defs, /*ranks=*/4);
//   for (uint32_t loc : p.owned[my_rank]) ...;   // p.owner[loc] == my_rank
#pragma once

#include <cstdint>
#include <vector>

#include "trace/definitions.h"

namespace cw::trace {

struct Partition {
  std::vector<uint32_t> owner;               // per location: the analysis rank that owns it
  std::vector<std::vector<uint32_t>> owned;  // per analysis rank: its locations, ascending
  std::vector<uint64_t> weight;              // per analysis rank: its declared events
  enum class Granularity { kNode, kProcess, kLocation } granularity = Granularity::kNode;
};

// The event count a location is weighed by: as declared, at least 1 (so that locations of a
// writer that declared nothing still spread evenly).
uint64_t LocationWeight(const Location& location);

// `ranks` >= 1. With more ranks than locations the last ranks own nothing.
Partition PartitionLocations(const Definitions& defs, uint32_t ranks);

}  // namespace cw::trace
