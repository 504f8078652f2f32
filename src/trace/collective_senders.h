// Which processes send a member of a v-collective data: causeway's tracer gives the
// MpiCollectiveEnd record of each MPI_Alltoallv, MPI_Alltoallw and MPI_Allgatherv, and the
// NonBlockingCollectiveRequest record of each MPI_Ialltoallv, MPI_Ialltoallw and MPI_Iallgatherv,
// the attribute "causeway::senders", a group (OTF2's COMM_GROUP: world ranks) of the processes
// whose receive count at that member is not zero. A trace without it (Score-P's) says nothing of
// the senders: with zero counts allowed, the members of such an operation need not wait for each
// other.
//
//   const uint32_t group = CollectiveSenders(trace.defs, trace.location(loc), end_event);
//   if (group != kNone) for (uint64_t world_rank : trace.defs.groups[group].members) ...
#pragma once

#include <cstdint>
#include <string_view>

#include "trace/definitions.h"
#include "trace/location_events.h"

namespace cw::trace {

inline constexpr std::string_view kSendersAttribute = "causeway::senders";
// OTF2_TYPE_GROUP: the attribute's value is a group reference.
inline constexpr uint8_t kGroupAttributeType = 15;

// The group named by the senders attribute of event `event` of `events`, kNone if the event has
// none or it names no defined group.
uint32_t CollectiveSenders(const Definitions& defs, const LocationEvents& events, uint32_t event);

}  // namespace cw::trace
