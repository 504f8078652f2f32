// Whether a run had more processes and threads than CPUs, or shared its CPUs with other
// processes: ranks then wait for the scheduler, which a trace shows as wait states, slow
// operations and a low transfer efficiency that no change to the program or the network would
// remove. From the tracer's notes of where each rank ran (Definitions::rank_schedules: the
// kernel's account of the main thread's time on a CPU and runnable without one, and of the
// node's time a hypervisor stole) and the trace's threads of each rank.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "trace/definitions.h"

namespace cw::trace {

struct HostLoad {
  std::string host;
  uint32_t processes = 0;
  uint32_t threads = 0;    // the processes' CPU threads (locations)
  int cpus = 0;            // the node's online CPUs
  uint64_t waited_ns = 0;  // its ranks' main threads, runnable but waiting for a CPU (known ones)
  bool oversubscribed() const { return cpus > 0 && threads > static_cast<uint32_t>(cpus); }
};

// Per host, in order of first appearance; empty for traces without the tracer's notes.
std::vector<HostLoad> HostLoads(const Definitions& defs);

// Whether any host ran more threads than it has CPUs.
bool Oversubscribed(const Definitions& defs);

// "host vm: 4 processes with 4 threads on 2 CPUs" for the oversubscribed hosts.
std::string OversubscriptionText(const Definitions& defs);

// A rank whose main thread, of the time it could run (on a CPU or runnable), waited this share
// or more for a CPU, was slowed by the scheduler as much as a program's typical wait states
// slow it.
inline constexpr double kContendedShare = 0.10;

// The share of the time it could run that a rank's main thread waited for a CPU; -1 unknown.
double WaitedShare(const Definitions::RankSchedule& r);

// The share of its node's CPU time that a hypervisor stole while a rank recorded; -1 unknown.
double StolenShare(const Definitions::RankSchedule& r);

// Whether a rank waited kContendedShare or more for a CPU on a node that was not oversubscribed
// by the run itself (other processes took the CPUs), or a hypervisor stole kContendedShare or
// more of a rank's node's CPU time (other virtual machines took them; the run's own load does
// not make steal time).
bool ContendedForCpus(const Definitions& defs);

// The share of its computation that a rank's threads were runnable without a CPU, as far as
// spans between two samples measured it; -1 unknown (no samples, or none spanned computation).
double DescheduledShare(const Definitions::RankSchedule& r);

// The rank whose computation was descheduled the largest share, nullptr if none is known.
const Definitions::RankSchedule* MostDescheduled(const Definitions& defs);

// "the ranks' computation was descheduled 24 % of the 3.10 s their samples measured (rank 2
// the most: 31 % of 0.84 s)"; "" where no rank measured it.
std::string DescheduledText(const Definitions& defs);

// "rank 1 waited 0.52 s for a CPU (34 % of the time it could run)" for the rank that waited the
// largest share among the contended ones, and how many were; "the hypervisor took 12 % of host
// vm's CPU time (steal) while rank 0 recorded" for the rank whose node lost the largest share;
// "" if neither.
std::string CpuContentionText(const Definitions& defs);

}  // namespace cw::trace
