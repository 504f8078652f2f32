#include "tests/replay/random_program.h"

#include <algorithm>
#include <random>

namespace cw::replay::testing {

Program MakeProgram(uint32_t seed, uint32_t locations, uint32_t steps, bool contradictions) {
  std::mt19937 rng(seed);
  auto next = [&] { return static_cast<uint32_t>(rng()); };
  Program p;
  p.locations = locations;
  std::vector<std::vector<uint32_t>> open(locations);
  std::vector<std::pair<uint32_t, uint32_t>> future;  // (edge, producer location), unassigned
  for (uint32_t i = 0; i < steps; ++i) {
    Program::Step s;
    s.location = next() % locations;
    s.inputs = std::move(open[s.location]);
    open[s.location].clear();
    // Late-produced edges whose producer is this location: produce them now.
    for (auto it = future.begin(); it != future.end();) {
      if (it->second == s.location && next() % 4 == 0) {
        s.outputs.push_back(it->first);
        it = future.erase(it);
      } else {
        ++it;
      }
    }
    if (contradictions && next() % 50 == 0) {
      uint32_t producer = next() % locations;
      if (producer != s.location) {
        s.inputs.push_back(p.edges);
        p.consumer.push_back(s.location);
        // One in three is never produced at all.
        if (next() % 3 != 0) future.emplace_back(p.edges, producer);
        ++p.edges;
      }
    }
    for (uint32_t k = next() % 3; k > 0; --k) {
      uint32_t to = next() % locations;
      if (to == s.location) continue;
      s.outputs.push_back(p.edges);
      p.consumer.push_back(to);
      open[to].push_back(p.edges++);
    }
    p.steps.push_back(std::move(s));
  }
  return p;
}

namespace {
uint32_t LocalEdge(const Program& p, uint32_t rank, uint32_t edge) {
  return (edge + rank * 13) % std::max(1u, p.edges);
}
}  // namespace

RankOutcome RunShare(const Program& p, comm::Communicator* comm, const std::vector<uint32_t>& owner,
                     unsigned threads) {
  const uint32_t me = comm != nullptr ? comm->rank() : 0;
  std::vector<uint32_t> producer(p.edges, kNoLocation);
  for (const Program::Step& s : p.steps) {
    for (uint32_t e : s.outputs) producer[e] = s.location;
  }
  std::vector<uint32_t> to_program(p.edges);
  for (uint32_t e = 0; e < p.edges; ++e) to_program[LocalEdge(p, me, e)] = e;
  Schedule s(p.locations, p.edges);
  std::vector<std::vector<const Program::Step*>> by_location(p.locations);
  std::vector<uint32_t> local_inputs;
  for (const Program::Step& step : p.steps) {
    if (owner[step.location] != me) continue;
    local_inputs.clear();
    for (uint32_t e : step.inputs) local_inputs.push_back(LocalEdge(p, me, e));
    s.AddStep(step.location, local_inputs);
    by_location[step.location].push_back(&step);
  }
  // Edges are named by their number in the program: the ranks number them differently.
  const std::vector<uint64_t> names(to_program.begin(), to_program.end());
  Pass pass(s, comm);
  pass.SetEdgeNames(names);
  for (uint32_t e = 0; e < p.edges; ++e) {
    if (producer[e] == kNoLocation || owner[producer[e]] != me) continue;
    uint32_t consumer_rank = owner[p.consumer[e]];
    if (consumer_rank != me) pass.SetRemoteConsumer(LocalEdge(p, me, e), consumer_rank);
  }
  Mailbox<uint64_t> mail(pass);
  std::vector<uint64_t> hash(p.locations, 1469598103934665603ull);
  RankOutcome out;
  out.stats = pass.Run(threads, [&](uint32_t loc, uint32_t step) {
    const Program::Step& st = *by_location[loc][step];
    for (uint32_t e : st.inputs) {
      const uint64_t* v = mail.Receive(LocalEdge(p, me, e));
      hash[loc] = (hash[loc] ^ (v != nullptr ? *v : 0xB40CE11ull + e)) * 1099511628211ull;
    }
    for (uint32_t e : st.outputs) mail.Send(LocalEdge(p, me, e), hash[loc] + e);
  });
  out.hash.assign(p.locations, 0);
  for (uint32_t loc = 0; loc < p.locations; ++loc) {
    if (owner[loc] == me) out.hash[loc] = hash[loc];
  }
  for (uint32_t e : out.stats.broken_edges) out.broken.push_back(to_program[e]);
  return out;
}

std::vector<uint32_t> Blocks(uint32_t locations, uint32_t ranks) {
  std::vector<uint32_t> owner(locations);
  for (uint32_t l = 0; l < locations; ++l) owner[l] = l * ranks / locations;
  return owner;
}

std::vector<uint32_t> RoundRobin(uint32_t locations, uint32_t ranks) {
  std::vector<uint32_t> owner(locations);
  for (uint32_t l = 0; l < locations; ++l) owner[l] = l % ranks;
  return owner;
}

}  // namespace cw::replay::testing
