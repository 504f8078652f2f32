// The synchronisation points of a trace as the root-cause analyses walk them.
//
// The wait-state analysis says who waited for whom (SyncEdges). The delay and critical-path
// analyses need, per location and in time order, the calls at which it synchronised and its
// part in each (it waited, it made someone wait, it took part in a barrier-like operation), the
// previous synchronisation of every pair (where a synchronisation interval starts), and the
// location's time per call path between those calls (the TimeMap). This component builds all of
// that once, for every participating location.
//
// Participants are the locations that stand for a process: the first CPU thread of every
// location group, and in a trace with OpenMP every CPU thread of a process (OpenMP's barriers and
// team starts synchronise them: kOmpTeamGroupKey). Edges between other locations (GPU streams,
// threads that call MPI outside OpenMP) are not followed; their waits count as wait states, not
// as synchronisations.
//
// The analysis window is where all processes run the parallel program: from the last process's
// arrival at MPI_Init (its first event if it has none) to the last process's arrival at
// MPI_Finalize (its last event if none). Before it, processes wait for the launch of the others
// (outside what a trace can explain); after it, they shut down. The critical path spans exactly
// the window, and the time maps count only time inside it.
//
// Synchronisation intervals (Böhme 2013 §4.2.3): the interval of a wait between waiter p and
// delayer q starts at the previous synchronisation of the pair: the latest earlier call at which
// p and q had an edge in either direction, or took part in the same group (a barrier, an N x N
// operation, MPI_Init). It begins when the first of the two left that call: each side's time
// includes the rest of its own call after that moment (its completion, as Scalasca counts it),
// so that time both spent transferring the same message cancels out, while a side that left
// later shows the difference. The interval ends at the Enter of the call of the current wait.
// Measured that way, the wait is at most the delayer's excess time plus its own waits in the
// interval, so the delay costs of a wait always add up to the wait. (Under Scalasca's semantics
// a side's part of a barrier, an N x N operation, MPI_Init or a broadcast counts from its
// completion as Scalasca measures it instead: LocationSyncPoints::call_completion.)
//
// Distributed (one rank of an MPI analysis job, RankShare): a rank builds the synchronisation
// points of its own locations. Its edges are those with an end on its locations, numbered in
// the order of their ids in the whole trace (SyncPoints::GlobalEdge), so that a location's roles
// come in the same order as in one process; an edge whose other end is another rank's knows that
// rank (SyncPoints::other_rank), and the ranks name such edges by their global id. Its groups are
// those of its locations, with all their members. The ranks exchange, in a few bulk rounds, the
// analysis window, the edges with their delayers' ranks, and the partners' exits of the edges and
// groups where an interval starts.
//
//   SyncPoints sp = BuildSyncPoints(trace, waitstates.sync, threads);
//   const LocationSyncPoints& l = sp.locations[loc];
//   for (const SyncRole& r : l.roles) ...
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "analysis/syncpoints/time_map.h"
#include "analysis/waitstates/sync_edges.h"
#include "base/diagnostics.h"
#include "comm/communicator.h"
#include "replay/schedule.h"
#include "trace/partition.h"
#include "trace/trace.h"

namespace cw::analysis {

// The share of one rank of an MPI analysis job: the locations whose events it holds. Empty (no
// communicator): one process, holding every location.
struct RankShare {
  comm::Communicator* comm = nullptr;
  const trace::Partition* partition = nullptr;

  bool distributed() const { return comm != nullptr && partition != nullptr && comm->size() > 1; }
  bool Holds(uint32_t location) const {
    return !distributed() || partition->owner[location] == comm->rank();
  }
  uint32_t OwnerOf(uint32_t location) const {
    return distributed() ? partition->owner[location] : 0;
  }
};

// A location's part in one synchronisation. Roles of the same call are ordered: first those in
// which the location made others wait (they happened when it entered), then its own wait, then
// its membership in a group.
enum class RoleKind : uint8_t { kDelayer = 0, kWaiter = 1, kGroup = 2 };

// Everything the backward passes need about a role is kept in it, so that a location's replay
// reads its own arrays in order instead of jumping through the global edge tables.
struct SyncRole {
  uint32_t activity = trace::kNone;  // index of the call in LocationSyncPoints::calls
  uint32_t id = trace::kNone;        // edge id (kDelayer, kWaiter) or group id (kGroup)
  uint32_t partner = trace::kNone;   // edges: the location at the other end
  // Edges: the role at which the pair's synchronisation interval starts on this location
  // (kNone: at the start of the window), and the ticks of that role's call that precede the
  // interval (they are taken off the call's call path; see SyncPoints::IntervalTime).
  uint32_t start = trace::kNone;
  RoleKind kind = RoleKind::kGroup;
  SyncPattern pattern = SyncPattern::kLateSender;  // edges
  int64_t wait = 0;                                // edges: the wait, ticks
  int64_t cut = 0;
};

struct LocationSyncPoints {
  std::vector<SyncRole> roles;      // in time order
  std::vector<uint32_t> calls;      // Enter events of the calls with roles, ascending
  std::vector<int64_t> call_time;   // per call: when it was entered
  std::vector<int64_t> call_exit;   // per call: when it was left
  std::vector<uint32_t> call_path;  // per call: its call path (kNone outside every region)
  std::vector<uint32_t> call_wait;  // per call: the waiter role that waited there, or kNone
  // Per call, under Scalasca's semantics (SyncEdges::completions): Scalasca's completion of the
  // synchronisation, where an interval that starts at the call begins; -1 (or empty): from the
  // moment the partner left.
  std::vector<int64_t> call_completion;
  TimeMap time;  // boundaries: 0, then call j at j + 1, then the end

  // The Enter event of the call of role `r`.
  uint32_t call_of(const SyncRole& r) const { return calls[r.activity]; }
};

// Where an edge sits on its two locations.
struct EdgeEnds {
  uint32_t waiter_role = trace::kNone;   // index into the waiter's roles
  uint32_t delayer_role = trace::kNone;  // index into the delayer's roles
  int64_t waiter_exit = 0;               // when each side left its call of this edge
  int64_t delayer_exit = 0;
};

struct AnalysisWindow {
  int64_t begin = 0;
  int64_t end = 0;
  // The last process to arrive at MPI_Finalize (or to end), lowest rank on ties: where the
  // critical path ends.
  uint32_t end_location = trace::kNone;
  int64_t length() const { return end - begin; }
};

// The backward replay of the delay analysis: every location visits its edge roles from last to
// first (step s is the (s + 1)-th edge role from the end); a waiter role sends along its edge,
// and the delayer role of the same edge takes that value. Group roles only bound intervals: they
// have no step.
struct BackwardPlan {
  BackwardPlan(uint32_t locations, uint32_t edges) : schedule(locations, edges) {}
  replay::Schedule schedule;
};

struct SyncPoints {
  // The followed edges (ids index `ends` and the roles), their events resolved to the calls that
  // hold them (Enter events; an event outside every region stands for itself).
  std::vector<WaitEdge> edges;
  std::vector<EdgeEnds> ends;
  std::vector<SyncGroup> groups;
  // Per group, its members in location order, their events resolved to calls.
  std::vector<GroupMember> group_members;
  std::vector<int64_t> group_member_exit;  // when each member left its call
  std::vector<uint8_t> group_covers_all;   // per group: every participant is a member (bytes:
                                           // groups are kept in parallel)
  // The exits of the groups that cover all participants once more, participant by participant
  // (entry participant_index * all_groups + all_group_ordinal[group]): the interval starts of a
  // location read its few partners' exits group after group, in this layout from a few cache
  // lines, in group_member_exit from one line per group and partner.
  std::vector<uint32_t> all_group_ordinal;  // per group: its index among those, or kNone
  uint32_t all_groups = 0;
  std::vector<int64_t> all_group_exit;
  std::vector<LocationSyncPoints> locations;  // by location; empty for non-participants
  std::vector<uint32_t> participants;         // ascending
  std::vector<uint32_t> held_participants;    // those this rank holds (one process: all)
  std::vector<bool> is_participant;           // by location
  std::vector<uint32_t> participant_index;    // by location: index in participants, or kNone
  std::vector<uint32_t> init_call;            // by location: its MPI_Init Enter, or kNone
  AnalysisWindow window;
  std::vector<std::vector<EventCompletion>> completions;  // SyncEdges::completions, until used
  // Waits not followed (edges between non-participants, a second wait in one call), by pattern.
  int64_t unfollowed_wait[kSyncPatternCount] = {};
  Diagnostics diagnostics;

  // The time per call path of `location` in the synchronisation interval of its edge role
  // `role` (from the start of the interval to the Enter of the role's call), added to `out`.
  void IntervalTime(uint32_t location, uint32_t role, TimeVector& out) const {
    const LocationSyncPoints& l = locations[location];
    const SyncRole& r = l.roles[role];
    l.time.Sum(StartBoundary(location, r.start), r.activity + 1, out);
    TakeCut(l, r, out);
  }
  // The two steps of IntervalTime, for callers that reuse the first for roles that share the
  // start: the time-map boundary where the interval starts, and taking off the part of the start
  // call that precedes the interval.
  uint32_t StartBoundary(uint32_t location, uint32_t start_role) const {
    return start_role == trace::kNone ? 0 : locations[location].roles[start_role].activity + 1;
  }
  static void TakeCut(const LocationSyncPoints& l, const SyncRole& r, TimeVector& time);
  // The call path the cut of `r` applies to (kNone if none).
  static uint32_t CutPath(const LocationSyncPoints& l, const SyncRole& r) {
    return r.start == trace::kNone || r.cut == 0 ? trace::kNone
                                                 : l.call_path[l.roles[r.start].activity];
  }
  // The member index of `location` in group `group`, or kNone.
  uint32_t GroupMemberOf(uint32_t group, uint32_t location) const;

  const trace::Trace* source = nullptr;    // the trace it was built from
  std::unique_ptr<BackwardPlan> backward;  // the schedule of the backward passes

  // Distributed: the rank's share; per edge its id in the whole trace (ascending) and the rank of
  // its other end (kNone: both ends are on this rank).
  RankShare share;
  std::vector<uint64_t> global_edge;  // empty in one process
  std::vector<uint32_t> other_rank;   // empty in one process
  uint64_t GlobalEdge(uint32_t edge) const {
    return global_edge.empty() ? edge : global_edge[edge];
  }
  // The edge whose id in the whole trace is `global` (it must have an end on this rank).
  uint32_t LocalEdge(uint64_t global) const;
  bool Crosses(uint32_t edge) const {
    return !other_rank.empty() && other_rank[edge] != trace::kNone;
  }
};

inline constexpr DiagnosticKind kUnfollowedWait{
    "delay.unfollowed_wait", Severity::kInfo,
    "wait state between locations that do not stand for a process (threads, GPU streams), or a "
    "second wait in one call: counted as a wait state, not followed by delay and critical-path "
    "analysis"};

// Takes the edges and groups out of `sync` (they move into the result); `init_call` and
// `finalize_call` stay. Distributed, every rank of the job calls it with its share.
SyncPoints BuildSyncPoints(const trace::Trace& trace, SyncEdges&& sync, unsigned threads,
                           const RankShare& share = {});

}  // namespace cw::analysis
