// The what-if replay stepped over a trace's synchronisation points instead of its events: the
// predicted savings of the bottleneck analysis replay the same trace once per fix, and a replay
// of every event costs about two fifths of the analysis it follows.
//
// It computes what the event replay (sim/replay.h) computes, for the traces and changes it
// models, with the event replay's rules (docs/whatif.md). With the network unchanged, a call
// whose partners were ready keeps its measured duration and a computation phase its scaled
// one, so a location's simulated clock only departs from its measured clock at:
//
//   - the calls that wait for a partner (a receive, a rendezvous send's completion, a
//     collective, MPI_Finalize): the points, built once per trace from the matched messages and
//     collectives (match::SyncGraph). A point publishes what its partners wait for (a
//     collective arrival, a rendezvous receive's posting); a send, which waits for nothing
//     unless it is a rendezvous, publishes at its call's enter without being a point;
//   - the computation a change scales, and the calls a change caps or removes: the phases,
//     read from the events of the locations the change touches, once per change.
//
// A point keeps its measured enter and leave; in the replay its simulated enter is the previous
// point's simulated leave plus the measured time between them plus the phases' change, and
//
//   ready' = max(enter', each partner's publication' + offset)   leave' = ready' + min(cost, cap)
//
// with `cost = leave - ready` and the offsets of the event replay. Every other event moves with
// the point before it. What the event replay does at a stall (a rendezvous completed eagerly, a
// collective left without members) is not modelled: Run returns nothing and the caller replays
// the events. tests/sim/sync_replay_test.cc holds both replays to the same ends, tick for tick.
//
//   std::string why;
//   std::unique_ptr<SyncReplay> fast = SyncReplay::Build(trace, graph, why);
//   if (fast && fast->Models(p)) if (auto r = fast->Run(p)) span = PredictedSpan(*r, locations);
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "match/sync_graph.h"
#include "sim/perturbation.h"
#include "sim/replay.h"
#include "trace/trace.h"

namespace cw::sim {

class SyncReplay {
 public:
  // The points of `trace`, whose messages and collectives `graph` matched, built on up to
  // `threads` threads. Null, with `why`, if the trace holds what only the event replay models:
  // OpenMP threads or threads without a rank of their own, one-sided communication, OpenSHMEM,
  // non-blocking collectives, scans, probes, cancelled requests, unmatched messages or
  // incomplete collectives, MPI records outside a call, calls inside calls or without their end.
  static std::unique_ptr<SyncReplay> Build(const trace::Trace& trace, const match::SyncGraph& graph,
                                           std::string& why, unsigned threads = 1);

  // Whether Run models `p`: computation scaled by call path (not by region or for all
  // computation), compute windows and call changes, with the network and noise unchanged. (A
  // removed call that sends or receives, whose messages would pair with other calls, makes
  // Run return nothing.)
  bool Models(const Perturbation& p) const;

  // The replay of `p` (which Models): per location its events, first and last measured time and
  // last simulated time, as the event replay gives them. Nothing if the replay stalls (every
  // location waits for a partner that never comes): the event replay decides such cases.
  //
  // Which publications a point waits for does not depend on the times, only on which calls a
  // change removes; so once a replay that removes nothing went through every point, none
  // stalls, and the unchanged replay is the measured run itself: every publication at its
  // measured time makes every point ready when it was measured ready and leave when it left
  // (by induction over the points). An unchanged replay after such a run is answered so. Safe
  // to call from several threads.
  std::optional<ReplayResult> Run(const Perturbation& p) const;

  // The parts of the replay, public for the two files that build and run it. A location's
  // points take its received messages, collective members and extras in order, so a point
  // only counts them. Sends publish at their call's enter and wait for nothing (unless they
  // are rendezvous, an extra): they are no points but publications before the next point.
  struct Point {
    int64_t enter = 0;  // measured, relative to the trace's clock offset
    int64_t leave = 0;
    uint32_t callpath = trace::kNone;
    uint32_t enter_event = 0;  // index of the call's Enter on its location
    uint16_t sends = 0;        // sends published since the previous point (its own among them)
    uint16_t receives = 0;     // the next `receives` of the location's received messages
    uint16_t extras = 0;       // the next `extras` of Lane::extras
    uint8_t flags = 0;         // kCollective, kFinalize
  };
  static constexpr uint8_t kCollective = 1;  // takes the next of the location's members
  static constexpr uint8_t kFinalize = 2;    // MPI_Finalize: waits for every process's arrival
  // A rendezvous message's posting (published by the receiver) or completion (the sender waits
  // for the posting): the message's index among the rendezvous messages, | kPosting.
  static constexpr uint32_t kPosting = 1u << 31;
  struct Lane {
    std::vector<Point> points;
    // Per message of SyncGraph::by_location[l].sent: the measured enter of its call.
    std::vector<int64_t> sends;
    std::vector<uint32_t> extras;
    uint32_t events = 0;
    int64_t first = 0;  // measured times of the first and last event, relative
    int64_t last = 0;
    uint32_t rank = trace::kNone;
  };
  struct Instance {
    uint32_t size = 0;
    uint32_t root_member = trace::kNone;  // index into SyncGraph::members, or none
    uint8_t family = 0;                   // internal::CollectiveFamily
    int64_t latest = 0;                   // the latest measured arrival
    int64_t root_enter = 0;
  };
  // A message that may wait for its receive's posting (synchronous, or above the eager limit).
  struct Rendezvous {
    int64_t posted_enter = 0;  // the posting call's measured enter
    bool synchronous = false;
  };

 private:
  friend class SyncReplayBuilder;
  friend class SyncReplayRun;

  SyncReplay(const trace::Trace& trace, const match::SyncGraph& graph)
      : trace_(trace), graph_(graph) {}

  const trace::Trace& trace_;
  const match::SyncGraph& graph_;
  std::vector<Lane> lanes_;
  std::vector<Instance> instances_;           // by SyncGraph collective index
  std::vector<uint32_t> instance_of_member_;  // by SyncGraph member index
  std::vector<int64_t> member_enter_;         // measured enter of each member's call
  std::vector<uint32_t> rendezvous_of_;       // per message: its index in rendezvous_, or none
  std::vector<uint8_t> p2p_callpath_;         // per call path: its calls send or receive
  std::vector<Rendezvous> rendezvous_;
  int64_t finalize_latest_ = 0;
  uint32_t processes_ = 0;
  // Set by a Run that removed no call and went through every point (see Run).
  mutable std::atomic<bool> never_stalls_{false};
  int64_t base_ = 0;  // the clock offset the relative times are taken from
};

}  // namespace cw::sim
