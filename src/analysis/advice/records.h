// What the advice passes read of single records and of the definitions, in one place: the bytes
// a record moves (as instance statistics and baselines count them), the location a transfer
// goes to, whether a record is a one-sided transfer, and the number of processes.
#pragma once

#include <cstdint>

#include "trace/event_kind.h"
#include "trace/trace.h"

namespace cw::analysis {

// Bytes record `i` moves: a message's size, a collective's or one-sided record's sent plus
// received bytes; 0 for other records.
// Inline: the walks over every event ask it per record.
inline uint64_t RecordBytes(const trace::LocationEvents& ev, uint32_t i) {
  switch (trace::PayloadFamilyOf(ev.kind(i))) {
    case trace::PayloadFamily::kP2p:
      return ev.p2p(i).bytes;
    case trace::PayloadFamily::kCollective:
      return ev.collective(i).sent + ev.collective(i).received;
    case trace::PayloadFamily::kRma:
      return ev.rma(i).sent + ev.rma(i).received;
    default:
      return 0;
  }
}

// The location that rank `rank` of communicator `comm` is to `location`, or kNone. Inline: the
// walk over every event asks it per send.
inline uint32_t RankLocation(const trace::Definitions& defs, uint32_t comm, uint32_t rank,
                             uint32_t location) {
  if (comm >= defs.comms.size() || !defs.comms[comm].defined) return trace::kNone;
  return defs.comms[comm].LocationOfRank(rank, location);
}

// The location that send or one-sided record `i` of `location` goes to, or kNone.
uint32_t TransferTarget(const trace::Definitions& defs, const trace::LocationEvents& ev, uint32_t i,
                        uint32_t location);

inline bool IsOneSidedTransfer(trace::EventKind k) {
  return k == trace::EventKind::kRmaPut || k == trace::EventKind::kRmaGet ||
         k == trace::EventKind::kRmaAtomic;
}

// MPI processes (location groups with a rank); at least 1.
uint32_t ProcessCount(const trace::Definitions& defs);

}  // namespace cw::analysis
