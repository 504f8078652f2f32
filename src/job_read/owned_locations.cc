#include "job_read/owned_locations.h"

#include "comm/wire.h"

namespace cw::job_read {

Status AgreeOnStatus(const Status& mine, comm::Communicator& comm) {
  comm::ByteWriter out;
  out.Put(static_cast<uint8_t>(mine ? 0 : 1));
  if (!mine) {
    out.Put(static_cast<uint32_t>(mine.error().code()));
    const std::string& message = mine.error().message();
    out.PutVector(std::vector<char>(message.begin(), message.end()));
  }
  std::vector<comm::Bytes> all = comm.AllGather(out.Take());
  for (uint32_t rank = 0; rank < all.size(); ++rank) {
    comm::ByteReader in(all[rank]);
    if (in.Get<uint8_t>() == 0) continue;
    auto code = static_cast<ErrorCode>(in.Get<uint32_t>());
    std::vector<char> message = in.GetVector<char>();
    std::string text(message.begin(), message.end());
    if (comm.size() > 1) text = "analysis rank " + std::to_string(rank) + ": " + text;
    return MakeError(code, text);
  }
  return OkStatus();
}

namespace {

// Every location's call tree and program name, from the ranks that read them.
void ShareCallTrees(const std::vector<uint32_t>& owned, otf2::LocationReads& reads,
                    comm::Communicator& comm) {
  comm::ByteWriter out;
  for (uint32_t loc : owned) {
    const trace::CallTree& tree = reads.local_trees[loc];
    std::vector<uint32_t> parents(tree.size()), regions(tree.size());
    for (uint32_t id = 0; id < tree.size(); ++id) {
      parents[id] = tree.parent(id);
      regions[id] = tree.region(id);
    }
    out.Put(loc);
    out.Put(reads.program_names[loc]);
    out.PutVector(parents);
    out.PutVector(regions);
  }
  for (const comm::Bytes& bytes : comm.AllGather(out.Take())) {
    comm::ByteReader in(bytes);
    while (!in.done()) {
      const uint32_t loc = in.Get<uint32_t>();
      reads.program_names[loc] = in.Get<uint32_t>();
      std::vector<uint32_t> parents = in.GetVector<uint32_t>();
      std::vector<uint32_t> regions = in.GetVector<uint32_t>();
      if (reads.local_trees[loc].size() == 0) {
        // Interning in id order rebuilds the same ids: a parent precedes its children.
        trace::CallTree& tree = reads.local_trees[loc];
        for (size_t id = 0; id < parents.size(); ++id) tree.Intern(parents[id], regions[id]);
      }
    }
  }
}

std::vector<std::pair<uint32_t, uint32_t>> ShareCommunicatorUsers(
    const std::vector<uint32_t>& owned, const trace::Trace& trace, comm::Communicator& comm) {
  comm::ByteWriter out;
  for (auto [c, loc] : trace::CommunicatorUsers(trace, owned)) {
    out.Put(c);
    out.Put(loc);
  }
  std::vector<std::pair<uint32_t, uint32_t>> all;
  for (const comm::Bytes& bytes : comm.AllGather(out.Take())) {
    comm::ByteReader in(bytes);
    while (!in.done()) {
      uint32_t c = in.Get<uint32_t>();
      all.emplace_back(c, in.Get<uint32_t>());
    }
  }
  return all;
}

}  // namespace

Result<trace::Trace> ReadOwnedLocations(const std::string& path, const otf2::ReadOptions& options,
                                        const trace::Partition& partition,
                                        comm::Communicator& comm) {
  if (partition.owned.size() != comm.size()) {
    return MakeError(ErrorCode::kInternal,
                     "the partition was made for " + std::to_string(partition.owned.size()) +
                         " ranks, the job has " + std::to_string(comm.size()));
  }
  const std::vector<uint32_t>& owned = partition.owned[comm.rank()];
  otf2::ReadOptions own = options;
  own.definition_diagnostics = comm.rank() == 0;  // the job counts them once
  Result<otf2::LocationReads> reads = otf2::ReadLocations(path, own, &owned);
  CW_RETURN_IF_ERROR(
      AgreeOnStatus(reads ? OkStatus() : Status(tl::unexpected(reads.error())), comm));
  if (reads->trace.defs.locations.size() != partition.owner.size()) {
    return MakeError(ErrorCode::kInternal, "the partition was made for other definitions");
  }
  ShareCallTrees(owned, *reads, comm);
  const std::vector<std::pair<uint32_t, uint32_t>> users =
      ShareCommunicatorUsers(owned, reads->trace, comm);
  return otf2::FinishTrace(std::move(*reads), options.threads, &users);
}

}  // namespace cw::job_read
