// What cause analysis (cause_analysis.h) knows of calls beyond the location it analyses: the
// members of collective instances, the one-sided transfers to a target and the calls of
// delayers. In one process the trace holds every location's events; a rank of an MPI analysis
// job asks the ranks that hold the others' (every rank calls the exchanges).
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "analysis/advice/cause_analysis.h"
#include "base/flat_hash_map.h"
#include "match/sync_graph.h"
#include "trace/trace.h"

namespace cw::analysis::advice_internal {

// The Enter of the call holding `event` (the event itself if it is an Enter or outside calls).
uint32_t CallOf(const trace::LocationEvents& ev, uint32_t event);

// A one-sided transfer record, indexed by its target: when, from where, and the call path of
// the call that issued it (the origin's rank resolves it, so that the target's need not hold the
// origin's events).
struct Transfer {
  uint64_t time;
  uint32_t origin;
  uint32_t event;
  uint32_t callpath;
  uint32_t target;
};

// The one-sided transfers of the locations this rank holds, to other locations.
std::vector<Transfer> HeldTransfers(const trace::Trace& trace);
// Every transfer to a location that one of this rank's locations transfers to, from whichever
// rank holds its origin: a transfer is slowed by the others to its target (LocationCauses), and
// the rank that holds it must see them. One process holds them all already.
std::vector<Transfer> TransfersToSharedTargets(std::vector<Transfer> held, const CauseInput& in);
// Per target location, the transfers to it, by time.
std::vector<std::vector<Transfer>> ByTarget(uint32_t locations, std::vector<Transfer> all);

// The call holding an event: its call path and when it was entered.
struct CallFacts {
  uint32_t callpath = trace::kNone;
  uint64_t enter = 0;
};

// The calls holding events of any location: this rank's directly, the others' once learnt from
// the ranks that hold them (for collective members and the delayers of wait edges).
class OtherCalls {
 public:
  explicit OtherCalls(const trace::Trace& trace) : trace_(trace) {}
  std::optional<CallFacts> Find(uint32_t location, uint32_t event) const;
  // Asks the owners of the (location, event) pairs in `wanted`.
  void Learn(const std::vector<std::pair<uint32_t, uint32_t>>& wanted, const CauseInput& in);

 private:
  const trace::Trace& trace_;
  FlatHashMap<uint64_t, CallFacts> learnt_;  // by location << 32 | event
};

// The collective members: by member index, its instance and its call's call path; per
// location, the (call Enter, member index) of its members in bottleneck call paths, ascending.
struct MemberIndex {
  std::vector<uint32_t> instance;
  std::vector<uint32_t> callpath;
  // What classifying a wait reads of the other members of an instance, packed (a
  // CollectiveMember is a cache line) and, within each instance's range of the graph's members,
  // sorted by entry: a member looks only at those that entered while it was inside its call, not
  // at all of them (with P members, P^2 reads per instance otherwise).
  struct Arrival {
    uint64_t entered = 0;
    uint32_t location = trace::kNone;
    uint32_t rank = trace::kNone;
    uint32_t member = trace::kNone;  // its position among the instance's members
    // The order of an instance's arrivals: by entry, then by position.
    static bool ByEntry(const Arrival& a, const Arrival& b) {
      return a.entered != b.entered ? a.entered < b.entered : a.member < b.member;
    }
  };
  std::vector<Arrival> arrivals;
  // By member index: its place among its instance's arrivals.
  std::vector<uint32_t> position;
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> bottlenecks;

  // A rank of an MPI analysis job: the whole member lists of the instances of its bottleneck
  // members, by instance, from the ranks that built them.
  FlatHashMap<uint32_t, uint32_t> whole_of;
  std::vector<std::vector<match::CollectiveMember>> whole;

  const std::vector<match::CollectiveMember>* Whole(uint32_t of) const {
    const uint32_t* i = whole_of.Find(of);
    return i == nullptr ? nullptr : &whole[*i];
  }
};

// Each collective member's instance, its members sorted by entry, and for each location its
// members that are calls of a bottleneck call path (`finding_of`, by call path: kNone for none).
MemberIndex IndexMembers(const CauseInput& in, const std::vector<uint32_t>& finding_of);

// Fills `members.whole` (every rank of the job calls it): asks the rank that built each instance
// of this rank's bottleneck members (on a communicator; window instances are listed whole) for
// its members.
void LearnWholeInstances(const CauseInput& in, MemberIndex& members);

// An MPI analysis job: the members of this rank's bottleneck collectives, their calls, and the
// calls of the delayers of its wait edges, from the ranks that hold them (`members.whole`,
// `members.callpath` and `other_calls` completed).
void LearnOtherRanksCalls(const CauseInput& in, MemberIndex& members, OtherCalls& other_calls);

}  // namespace cw::analysis::advice_internal
