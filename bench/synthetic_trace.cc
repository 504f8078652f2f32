#include "bench/synthetic_trace.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "otf2_writer/archive_writer.h"

namespace cw::bench {
namespace {

using otf2_writer::ArchiveWriter;
using otf2_writer::EventWriter;

// Durations in nanoseconds (the trace clock runs at 1 GHz).
constexpr uint64_t kResolution = 1'000'000'000;
constexpr uint64_t kComputeBase = 200'000;
constexpr uint64_t kIrecvCost = 300, kIsendCost = 800, kGap = 100;
constexpr uint64_t kLatency = 2'000;
constexpr double kBytesPerNs = 10.0;  // 10 GB/s
constexpr uint64_t kEventsPerIteration = 40;
constexpr uint64_t kEventsOutsideIterations = 6;  // main, MPI_Init, MPI_Finalize

struct Regions {
  uint32_t main, init, finalize, compute, irecv, isend, waitall, allreduce;
};

// A periodic px x py grid; direction d in {0,1,2,3} = left, right, down, up.
struct Grid {
  uint32_t px, py;
  explicit Grid(uint32_t ranks) : px(1), py(ranks) {
    for (uint32_t x = 1; x * x <= ranks; ++x) {
      if (ranks % x == 0) px = x;
    }
    py = ranks / px;
  }
  uint32_t Neighbor(uint32_t rank, uint32_t d) const {
    uint32_t x = rank % px, y = rank / px;
    switch (d) {
      case 0:
        x = (x + px - 1) % px;
        break;
      case 1:
        x = (x + 1) % px;
        break;
      case 2:
        y = (y + py - 1) % py;
        break;
      default:
        y = (y + 1) % py;
        break;
    }
    return y * px + x;
  }
  static uint32_t Opposite(uint32_t d) { return d ^ 1u; }
};

struct RankState {
  uint64_t now = 0;
  uint64_t next_request = 1;
  uint64_t requests[8] = {};
  uint64_t isend_enter[4] = {};
  uint64_t irecv_enter[4] = {};
  uint64_t waitall_enter = 0;
};

Regions DefineRegions(ArchiveWriter& w) {
  auto mpi = [&](const char* name, OTF2_RegionRole role) {
    return w.DefineRegion(name, role, OTF2_PARADIGM_MPI, "MPI");
  };
  Regions r;
  r.main = w.DefineRegion("main", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER);
  r.compute = w.DefineRegion("compute_forces", OTF2_REGION_ROLE_FUNCTION, OTF2_PARADIGM_USER);
  r.init = mpi("MPI_Init", OTF2_REGION_ROLE_FUNCTION);
  r.finalize = mpi("MPI_Finalize", OTF2_REGION_ROLE_FUNCTION);
  r.irecv = mpi("MPI_Irecv", OTF2_REGION_ROLE_POINT2POINT);
  r.isend = mpi("MPI_Isend", OTF2_REGION_ROLE_POINT2POINT);
  r.waitall = mpi("MPI_Waitall", OTF2_REGION_ROLE_FUNCTION);
  r.allreduce = mpi("MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL);
  return r;
}

class Simulation {
 public:
  Simulation(const SyntheticTraceOptions& o, ArchiveWriter& w, std::vector<uint64_t> locations)
      : o_(o),
        grid_(o.ranks),
        writer_(w),
        locations_(std::move(locations)),
        state_(o.ranks),
        rng_(o.seed) {
    regions_ = DefineRegions(w);
    world_ = w.DefineMpiWorld(locations_);
    transfer_ =
        kLatency + static_cast<uint64_t>(static_cast<double>(o.message_bytes) / kBytesPerNs);
    uint64_t log2 = 1;
    while ((1ull << log2) < o.ranks) ++log2;
    allreduce_cost_ = 2'000 * log2;
  }

  SyntheticTraceFacts Run(uint64_t iterations);

 private:
  EventWriter& Ev(uint32_t rank) { return writer_.Events(locations_[rank]); }
  uint64_t ComputeTime(uint32_t rank, uint64_t iteration);
  void PostAndCompute(uint32_t rank, uint64_t iteration);
  void Complete(uint32_t rank);
  void Allreduce();

  const SyntheticTraceOptions& o_;
  Grid grid_;
  ArchiveWriter& writer_;
  std::vector<uint64_t> locations_;
  std::vector<RankState> state_;
  std::mt19937_64 rng_;
  Regions regions_{};
  uint32_t world_ = 0;
  uint64_t transfer_ = 0;
  uint64_t allreduce_cost_ = 0;
  SyntheticTraceFacts facts_;
  int64_t late_sender_ = 0, late_receiver_ = 0, wait_nxn_ = 0, nxn_completion_ = 0;
};

uint64_t Simulation::ComputeTime(uint32_t rank, uint64_t iteration) {
  // Static imbalance on the last quarter of the ranks, a hot spot that moves every iteration,
  // and +-5 % noise.
  double factor = 1.0;
  if (rank >= o_.ranks - std::max(1u, o_.ranks / 4)) factor += o_.imbalance;
  if (rank == iteration % o_.ranks) factor += o_.imbalance / 2;
  std::uniform_real_distribution<double> noise(-0.05, 0.05);
  factor += noise(rng_);
  return static_cast<uint64_t>(static_cast<double>(kComputeBase) * factor);
}

void Simulation::PostAndCompute(uint32_t rank, uint64_t iteration) {
  RankState& s = state_[rank];
  EventWriter& ev = Ev(rank);
  // Post the four receives first, as stencil codes do: from the neighbour in the opposite
  // direction, with the direction of travel as tag.
  for (uint32_t d = 0; d < 4; ++d) {
    s.requests[d] = s.next_request++;
    s.irecv_enter[d] = s.now;
    ev.Enter(s.now, regions_.irecv);
    ev.MpiIrecvRequest(s.now + 50, s.requests[d]);
    ev.Leave(s.now + kIrecvCost, regions_.irecv);
    s.now += kIrecvCost + kGap;
  }
  ev.Enter(s.now, regions_.compute);
  s.now += ComputeTime(rank, iteration);
  ev.Leave(s.now, regions_.compute);
  s.now += kGap;
  for (uint32_t d = 0; d < 4; ++d) {
    s.requests[4 + d] = s.next_request++;
    s.isend_enter[d] = s.now;
    ev.Enter(s.now, regions_.isend);
    ev.MpiIsend(s.now, grid_.Neighbor(rank, d), world_, d, o_.message_bytes, s.requests[4 + d]);
    ev.Leave(s.now + kIsendCost, regions_.isend);
    s.now += kIsendCost + kGap;
  }
  s.waitall_enter = s.now;
}

void Simulation::Complete(uint32_t rank) {
  RankState& s = state_[rank];
  // The message travelling in direction d comes from the neighbour in the opposite direction.
  uint64_t arrival = 0;
  int64_t late_sender = 0;
  uint64_t leave = s.waitall_enter + 500;
  for (uint32_t d = 0; d < 4; ++d) {
    uint32_t source = grid_.Neighbor(rank, Grid::Opposite(d));
    arrival = std::max(arrival, state_[source].isend_enter[d] + transfer_);
  }
  leave = std::max(leave, arrival + 200);
  for (uint32_t d = 0; d < 4; ++d) {
    uint32_t source = grid_.Neighbor(rank, Grid::Opposite(d));
    int64_t idle = static_cast<int64_t>(std::min(state_[source].isend_enter[d], leave)) -
                   static_cast<int64_t>(s.waitall_enter);
    late_sender = std::max(late_sender, idle);
  }
  late_sender_ += late_sender;
  EventWriter& ev = Ev(rank);
  ev.Enter(s.waitall_enter, regions_.waitall);
  for (uint32_t d = 0; d < 4; ++d) {
    uint32_t source = grid_.Neighbor(rank, Grid::Opposite(d));
    ev.MpiIrecv(leave - 100, source, world_, d, o_.message_bytes, s.requests[d]);
  }
  for (uint32_t d = 0; d < 4; ++d) ev.MpiIsendComplete(leave - 100, s.requests[4 + d]);
  ev.Leave(leave, regions_.waitall);
  s.now = leave + kGap;
  facts_.messages += 4;
  // A Waitall without a late sender may wait for a late receiver: the destination posts the
  // receive for direction d with its d-th Irecv of the iteration.
  if (late_sender <= 0) {
    int64_t worst = 0;
    for (uint32_t d = 0; d < 4; ++d) {
      uint64_t posted = state_[grid_.Neighbor(rank, d)].irecv_enter[d];
      if (leave <= posted) continue;
      worst = std::max(worst, static_cast<int64_t>(posted) - static_cast<int64_t>(s.waitall_enter));
    }
    late_receiver_ += worst;
  }
}

void Simulation::Allreduce() {
  uint64_t latest = 0;
  for (const RankState& s : state_) latest = std::max(latest, s.now);
  uint64_t earliest_end = UINT64_MAX;
  std::vector<uint64_t> end(o_.ranks);
  for (uint32_t r = 0; r < o_.ranks; ++r) {
    end[r] = latest + allreduce_cost_ + 30 * (r % 7);
    earliest_end = std::min(earliest_end, end[r]);
  }
  for (uint32_t r = 0; r < o_.ranks; ++r) {
    RankState& s = state_[r];
    EventWriter& ev = Ev(r);
    ev.Enter(s.now, regions_.allreduce);
    ev.MpiCollectiveBegin(s.now);
    ev.MpiCollectiveEnd(end[r], OTF2_COLLECTIVE_OP_ALLREDUCE, world_, OTF2_UNDEFINED_UINT32, 8, 8);
    ev.Leave(end[r] + 50, regions_.allreduce);
    wait_nxn_ += static_cast<int64_t>(latest - s.now);
    nxn_completion_ += static_cast<int64_t>(end[r] - std::max(earliest_end, latest));
    s.now = end[r] + 50 + kGap;
  }
  ++facts_.allreduces;
}

SyntheticTraceFacts Simulation::Run(uint64_t iterations) {
  for (uint32_t r = 0; r < o_.ranks; ++r) {
    RankState& s = state_[r];
    s.now = 1000 + 37 * r;
    Ev(r).Enter(s.now, regions_.main);
    Ev(r).Enter(s.now + 10, regions_.init);
    s.now = 5'000'000;
    Ev(r).Leave(s.now, regions_.init);
  }
  for (uint64_t i = 0; i < iterations; ++i) {
    for (uint32_t r = 0; r < o_.ranks; ++r) PostAndCompute(r, i);
    for (uint32_t r = 0; r < o_.ranks; ++r) Complete(r);
    Allreduce();
  }
  uint64_t end = 0;
  for (const RankState& s : state_) end = std::max(end, s.now);
  for (uint32_t r = 0; r < o_.ranks; ++r) {
    Ev(r).Enter(state_[r].now, regions_.finalize);
    Ev(r).Leave(end + 1000, regions_.finalize);
    Ev(r).Leave(end + 2000, regions_.main);
  }
  for (uint32_t r = 0; r < o_.ranks; ++r) facts_.events += Ev(r).events_written();
  facts_.iterations = iterations;
  auto seconds = [](int64_t ticks) { return static_cast<double>(ticks) / kResolution; };
  facts_.late_sender = seconds(late_sender_);
  facts_.late_receiver = seconds(late_receiver_);
  facts_.wait_nxn = seconds(wait_nxn_);
  facts_.nxn_completion = seconds(nxn_completion_);
  return facts_;
}

}  // namespace

Result<SyntheticTraceFacts> WriteSyntheticTrace(const std::string& directory,
                                                const SyntheticTraceOptions& options) {
  if (options.ranks < 1) return MakeError(ErrorCode::kInvalidArgument, "at least one rank");
  uint64_t iterations = options.iterations;
  if (options.target_events > 0) {
    uint64_t per_rank = options.target_events / options.ranks;
    iterations =
        per_rank > kEventsOutsideIterations
            ? (per_rank - kEventsOutsideIterations + kEventsPerIteration - 1) / kEventsPerIteration
            : 1;
  }
  CW_ASSIGN_OR_RETURN(std::unique_ptr<ArchiveWriter> writer,
                      ArchiveWriter::Create(directory, "traces", "causeway-gen"));
  uint32_t machine = writer->DefineSystemTreeNode("synthetic", "machine", OTF2_UNDEFINED_UINT32);
  std::vector<uint64_t> locations;
  const uint32_t ranks_per_node = 16;
  uint32_t node = OTF2_UNDEFINED_UINT32;
  for (uint32_t r = 0; r < options.ranks; ++r) {
    if (r % ranks_per_node == 0) {
      node = writer->DefineSystemTreeNode("node" + std::to_string(r / ranks_per_node), "node",
                                          machine);
    }
    uint32_t group = writer->DefineLocationGroup("MPI Rank " + std::to_string(r), node);
    locations.push_back(writer->DefineLocation("Master thread", group));
  }
  Simulation simulation(options, *writer, locations);
  SyntheticTraceFacts facts = simulation.Run(iterations);
  CW_RETURN_IF_ERROR(writer->Close(kResolution));
  facts.anchor = writer->anchor_path();
  return facts;
}

}  // namespace cw::bench
