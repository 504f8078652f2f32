// Behavioural clustering of processes (Sikora et al. 2016 §5.2): processes whose TAGs are the same
// graph with the same counts and nearly the same times form one class, so that the application's
// graph grows with the number of behaviours, not of processes.
//
// Two TAGs are equivalent when
//   - structure: the same nodes (kind and call path), the same flow and completion edges, and
//     message edges that pair up one to one with the same kind, node, collective form and
//     sender call path, and a partner that is the same relative rank (both exchange with their
//     left neighbour, -1) or the same absolute rank (both report to a master, rank 0): relative
//     ranks alone would split the workers of a master, as the seed's XFire and WaveSend classes
//     show;
//   - counts: every node and edge ran equally often;
//   - times: Eq. 2's distance, the square root of the summed squared differences of the
//     nodes' and flow edges' total times, is at most the larger of two allowances:
//       - `tolerance` times the larger process's total time (Sikora et al. 2016 leaves "2%"
//         undefined; this is its reading);
//       - `noise_sigmas` times the distance that the two processes' own visit-to-visit
//         variation would give by chance: each node and flow edge visited at least
//         kNoiseMinVisits times in both adds n·s² of each process (its visits' count times their
//         sample variance, the variance of a sum of n visits that scatter independently as these
//         did). A visit stretched by descheduling, a page fault or a slow iteration widens the
//         allowance by about as much as it moves the totals; a process that is slower on every
//         visit is still told apart, as its difference grows with n and the allowance with √n.
//         Fewer visits say too little about the scatter (two visits of a loop's first and later
//         iterations differ by design), and count nothing.
//     Message and completion edges are left out of the sum: their times restate a node's or
//     overlap a flow edge's, and the nodes and flow edges alone partition the process's time.
//     So are MPI_Init's and MPI_Finalize's times: the launcher's skew and the library's
//     teardown, not the program's behaviour (their counts and places in the graph are compared
//     as any node's).
// A process joins the first class whose representative (its lowest rank) it is equivalent to.
//
//   std::vector<Cluster> classes = ClusterProcesses(graphs, {.tolerance = 0.02});
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tag/graph/sections.h"
#include "tag/model/activity_graph.h"

namespace cw::tag {

struct ClusterOptions {
  double tolerance = 0.02;  // share of the larger process's time
  double noise_sigmas = 3;  // 0: the share alone
};

// Below this many visits in either process, a node's or flow edge's scatter is not counted.
inline constexpr uint64_t kNoiseMinVisits = 8;

struct Cluster {
  std::vector<uint32_t> members;  // indices into the graphs, ascending
  uint32_t representative = 0;    // the first member
  double min_ticks = 0;           // the members' total times
  double mean_ticks = 0;
  double max_ticks = 0;
};

// Two processes' time distance and its allowances (ticks); the allowed distance is the larger.
struct TimeDistance {
  double ticks = 0;
  double share_allowance = 0;  // tolerance × the larger process's time
  double noise_allowance = 0;  // noise_sigmas × the chance distance of their scatter
  double allowed() const {
    return share_allowance > noise_allowance ? share_allowance : noise_allowance;
  }
};

// Why two graphs are not equivalent, or kEquivalent; `distance` is set when the structure and
// counts agree.
enum class Difference : uint8_t { kEquivalent, kStructure, kCounts, kTimes };
// "equivalent", "structure", "counts", "times" (tag.json's clusters[].differs_from.in).
const char* DifferenceName(Difference difference);
Difference Compare(const std::vector<ProcessGraph>& graphs, uint32_t a, uint32_t b,
                   const ClusterOptions& options, TimeDistance* distance = nullptr);

std::vector<Cluster> ClusterProcesses(const std::vector<ProcessGraph>& graphs,
                                      const ClusterOptions& options);

// Section-level clustering (Sikora et al. 2016 §5.2): for each section key, the classes of the
// processes that have that section, compared on its nodes and the edges inside it only (the
// tolerance is then a share of the section's time). Cluster::*_ticks are the members' section
// times.
struct SectionClasses {
  std::string key;
  SectionKind kind = SectionKind::kSequence;
  std::string label;
  std::vector<Cluster> classes;
};
std::vector<SectionClasses> ClusterSections(const std::vector<ProcessGraph>& graphs,
                                            const std::vector<std::vector<Section>>& sections,
                                            const ClusterOptions& options);

}  // namespace cw::tag
