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
// location group. Edges between other locations (threads that call MPI, GPU streams) are not
// followed; their waits count as wait states, not as synchronisations.
//
// The analysis window is where all processes run the parallel program: from the last process's
// arrival at MPI_Init (its first event if it has none) to the last process's arrival at
// MPI_Finalize (its last event if none). Before it, processes wait for the launch of the others
// (outside what a trace can explain); after it, they shut down. The critical path spans exactly
// the window, and the time maps count only time inside it.
//
// Synchronisation intervals (seed 000 §4.2.3): the interval of a wait between waiter p and
// delayer q starts at the previous synchronisation of the pair: the latest earlier call at which
// p and q had an edge in either direction, or took part in the same group (a barrier, an N x N
// operation, MPI_Init). It begins when the first of the two left that call: each side's time
// includes the rest of its own call after that moment (its completion, as Scalasca counts it),
// so that time both spent transferring the same message cancels out, while a side that left
// later shows the difference. The interval ends at the Enter of the call of the current wait.
// Measured that way, the wait is at most the delayer's excess time plus its own waits in the
// interval, so the delay costs of a wait always add up to the wait.
//
//   SyncPoints sp = BuildSyncPoints(trace, waitstates.sync, threads);
//   const LocationSyncPoints& l = sp.locations[loc];
//   for (const SyncRole& r : l.roles) ...
#pragma once

#include <cstdint>
#include <vector>

#include "analysis/syncpoints/time_map.h"
#include "analysis/waitstates/sync_edges.h"
#include "base/diagnostics.h"
#include "replay/schedule.h"
#include "trace/trace.h"

namespace cw::analysis {

// A location's part in one synchronisation. Roles of the same call are ordered: first those in
// which the location made others wait (they happened when it entered), then its own wait, then
// its membership in a group.
enum class RoleKind : uint8_t { kDelayer = 0, kWaiter = 1, kGroup = 2 };

struct SyncRole {
  uint32_t call;      // Enter event of the call
  uint32_t activity;  // index of the call in LocationSyncPoints::calls
  RoleKind kind;
  uint32_t id;  // edge id (kDelayer, kWaiter) or group id (kGroup)
};

struct LocationSyncPoints {
  std::vector<SyncRole> roles;      // in time order
  std::vector<uint32_t> calls;      // Enter events of the calls with roles, ascending
  std::vector<int64_t> call_time;   // per call: when it was entered
  std::vector<int64_t> call_exit;   // per call: when it was left
  std::vector<uint32_t> call_wait;  // per call: the edge waited for there, or kNone
  std::vector<uint32_t> call_role;  // per call: index of its first role
  TimeMap time;                     // boundaries: 0, then call j at j + 1, then the end
};

// Where an edge sits on its two locations, and where its interval starts on each.
struct EdgeEnds {
  uint32_t waiter_role = trace::kNone;   // index into the waiter's roles
  uint32_t delayer_role = trace::kNone;  // index into the delayer's roles
  // Role index of the previous synchronisation of the pair on each side, kNone for the start
  // of the window.
  uint32_t waiter_start = trace::kNone;
  uint32_t delayer_start = trace::kNone;
  int64_t waiter_exit = 0;  // when each side left its call of this edge
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

struct SyncPoints {
  std::vector<WaitEdge> edges;  // the followed edges (ids index `ends` and the roles)
  std::vector<EdgeEnds> ends;
  std::vector<SyncGroup> groups;
  std::vector<GroupMember> group_members;  // events resolved to calls
  std::vector<int64_t> group_member_exit;  // when each member left its call
  // Per group, its member indices sorted by location: [group_index_offsets[g], ...[g + 1]).
  std::vector<uint32_t> group_by_location;
  std::vector<uint32_t> group_index_offsets;
  std::vector<LocationSyncPoints> locations;  // by location; empty for non-participants
  std::vector<uint32_t> participants;         // ascending
  std::vector<bool> is_participant;           // by location
  AnalysisWindow window;
  // Waits not followed (edges between non-participants, a second wait in one call), by pattern.
  int64_t unfollowed_wait[kSyncPatternCount] = {};
  Diagnostics diagnostics;

  // The time per call path of `location` in its synchronisation interval with `partner` that
  // starts at role `start_role` (kNone: the start of the window) and ends at the Enter of call
  // `end_activity`, added to `out`.
  void IntervalTime(uint32_t location, uint32_t start_role, uint32_t partner, uint32_t end_activity,
                    TimeVector& out) const {
    locations[location].time.Sum(StartBoundary(location, start_role), end_activity + 1, out);
    CutIntervalStart(location, start_role, partner, end_activity, out);
  }
  // The two steps of IntervalTime, for callers that reuse the first for several partners: the
  // time-map boundary where the interval starts, and removing the part of the start call before
  // the pair's synchronisation ended.
  uint32_t StartBoundary(uint32_t location, uint32_t start_role) const {
    return start_role == trace::kNone ? 0 : locations[location].roles[start_role].activity + 1;
  }
  void CutIntervalStart(uint32_t location, uint32_t start_role, uint32_t partner,
                        uint32_t end_activity, TimeVector& time) const;
  // The member index of `location` in group `group`, or kNone.
  uint32_t GroupMemberOf(uint32_t group, uint32_t location) const;

  const trace::Trace* source = nullptr;  // the trace it was built from
};

inline constexpr DiagnosticKind kUnfollowedWait{
    "delay.unfollowed_wait", Severity::kInfo,
    "wait state between locations that do not stand for a process (threads, GPU streams), or a "
    "second wait in one call: counted as a wait state, not followed by delay and critical-path "
    "analysis"};

SyncPoints BuildSyncPoints(const trace::Trace& trace, const SyncEdges& sync, unsigned threads);

// The backward replay both root-cause analyses run: every location visits its waiter and
// delayer roles from last to first; a waiter role sends along its edge, and the delayer role of
// the same edge takes that value. (Group roles only bound intervals and need no step.)
struct BackwardPlan {
  explicit BackwardPlan(const SyncPoints& sp);
  replay::Schedule schedule;
  std::vector<std::vector<uint32_t>> step_role;  // per location and step: the role index
};

}  // namespace cw::analysis
