// The what-if replay: re-times a trace's events under changed conditions (Sottile et al. 2006).
//
// Each location's events are read in order from its EventSource. Computation keeps its measured
// durations (times a compute scale, plus noise); every MPI call is split into the waiting that
// its partners imposed and the cost of its own, measured as what is left of its duration:
//
//   ready  = max(enter, every dependency's time + its offset)     dependency: a send's start for a
//   cost   = leave - ready (measured)                             receive, the receive's posting
//   leave' = max(enter', every dependency' + offset + delta) + cost'   for a rendezvous send, the
//                                                                  arrivals of a collective
// (non-blocking ones arrive when they start), the posts and completes of an RMA epoch.
//
// The offset is zero unless the measured clocks put a dependency after the call's end, so with no
// change every event keeps its measured time (identity). The network model changes `cost` and
// `delta` (sim/perturbation.h); docs/whatif.md gives every rule with its reason.
//
// Locations advance in turns of a few thousand events; a location that needs a partner's event
// not reached yet waits until it is. Only unpaired messages and open collective instances are
// kept, so memory follows the messages in flight, not the trace length. If every location waits
// (a cycle the measured run resolved by buffering, or a partner the trace lacks), the oldest
// rule that can break it is applied and counted: a rendezvous send completes eagerly, a
// receive without a sender or a collective without all members completes on its own.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "base/status.h"
#include "sim/perturbation.h"
#include "sim/sim_event.h"
#include "trace/definitions.h"

namespace cw::sim {

// Receives every event with its simulated time, location by location in event order (for
// writing the simulated trace).
class ReplayObserver {
 public:
  virtual ~ReplayObserver() = default;
  virtual void OnEvents(uint32_t location, std::span<const SimEvent> events,
                        std::span<const uint64_t> times) = 0;
};

struct ReplayInput {
  const trace::Definitions* defs = nullptr;
  uint32_t locations = 0;
  // Opens the event stream of a location; called once per location and run.
  std::function<std::unique_ptr<EventSource>(uint32_t location)> open;
};

struct ReplayOptions {
  Perturbation perturbation;  // with the traced network's latency and per-byte time resolved
  uint64_t seed = 1;
  bool collect_transfers = false;  // keep TransferSamples (to estimate the traced network)
  ReplayObserver* observer = nullptr;
  uint32_t turn_events = 4096;  // events a location advances before the next one's turn
};

struct LocationOutcome {
  uint64_t events = 0;
  uint64_t first = 0;          // measured time of the first event (ticks)
  uint64_t measured_end = 0;   // last event, measured
  uint64_t predicted_end = 0;  // last event, simulated
};

// How the change moved the events of one call path, summed over its visits (ticks). For MPI
// calls: `absorbed` is delay a call's waiting swallowed (it left less late than it entered),
// `gained` delay it took on (partners or the network made it leave later). For computation:
// `gained` is what scaling and noise added (negative `absorbed` means it ran faster).
struct CallpathShift {
  int64_t absorbed = 0;
  int64_t gained = 0;
  uint64_t visits = 0;
};

// A message whose receive waited for it: from the send's start to the receive's end.
struct TransferSample {
  uint64_t bytes = 0;
  uint64_t ticks = 0;
};

struct ReplayStats {
  uint64_t events = 0;
  uint64_t messages = 0;
  uint64_t collectives = 0;     // member calls
  uint64_t eager_resolved = 0;  // rendezvous sends completed eagerly to break a cycle
  uint64_t unmatched_receives = 0;
  uint64_t unmatched_sends = 0;
  uint64_t incomplete_collectives = 0;  // member calls that completed without all members
  uint64_t cycles_broken = 0;           // waits dropped where no rule applied
  uint64_t undefined_comms = 0;         // records naming an unknown communicator: replayed as local
  uint64_t unclosed_calls = 0;          // MPI calls without a Leave (truncated location)
  uint64_t cancelled_requests = 0;      // sends and receives cancelled: never matched
  uint64_t epoch_syncs = 0;             // PSCW notifications (posts and completes) replayed
  uint64_t unmatched_epoch_syncs = 0;   // PSCW and paired one-sided calls whose partner never
                                        // notified them
  // One-sided calls paired as in the measured run (sim/internal/one_sided_plan.h): OpenSHMEM
  // lock acquisitions and MPI lock epochs that waited for the previous holder's release (the
  // order in which contenders got each lock stays the measured one), and OpenSHMEM waits for a
  // value that waited for their write.
  uint64_t lock_handovers = 0;
  uint64_t value_waits = 0;
  // OpenMP synchronisation replayed as the measured run grouped it (sim/internal/omp_plan.h):
  // workers' team begins after their master's fork, thread arrivals at barriers other threads
  // of the team meet at, and lock acquisitions after another thread's release.
  uint64_t omp_team_starts = 0;
  uint64_t omp_barrier_arrivals = 0;
  uint64_t omp_lock_handovers = 0;
  size_t peak_messages_in_flight = 0;
  size_t peak_buffered_events = 0;  // most events one location held read ahead
};

struct ReplayResult {
  std::vector<LocationOutcome> locations;
  uint64_t measured_begin = 0;  // earliest first event
  uint64_t measured_end = 0;    // latest last event
  uint64_t predicted_end = 0;
  std::vector<CallpathShift> callpaths;  // indexed by call-path id
  std::vector<TransferSample> transfers;
  ReplayStats stats;
  std::vector<std::string> source_errors;  // locations whose stream broke off
  Diagnostics diagnostics;                 // what the readers repaired, in location order
};

Result<ReplayResult> RunReplay(const ReplayInput& input, const ReplayOptions& options);

}  // namespace cw::sim
