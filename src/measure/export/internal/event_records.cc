#include "measure/export/internal/event_records.h"

namespace cw::measure::internal {
namespace {

// The senders of a v-collective (`senders`: their group's local id + 1, 0 if none) as the
// attribute of the record that follows (trace/collective_senders.h).
void AddSenders(uint32_t senders, const RankContext& rank, otf2_writer::EventWriter& out) {
  if (senders != 0 && rank.Group(senders - 1) != kNoDefinition)
    out.AddGroupAttribute(rank.attributes.senders, rank.Group(senders - 1));
}

}  // namespace

Written WriteMpiRecord(const RawEvent& e, uint64_t t, uint32_t region, const RankContext& rank,
                       otf2_writer::EventWriter& out, std::vector<uint32_t>& open) {
  switch (e.kind) {
    case RawKind::kEnter:
      out.Enter(t, region);
      open.push_back(region);
      return Written::kEvent;
    case RawKind::kProbeFound:
      // Attributes of the probe's Leave, the next record.
      out.AddUint64Attribute(rank.attributes.probe_comm, rank.Comm(e.a));
      out.AddUint64Attribute(rank.attributes.probe_source, e.b);
      out.AddUint64Attribute(rank.attributes.probe_tag, e.c);
      out.AddUint64Attribute(rank.attributes.message_handle, e.y);
      return Written::kAttributes;
    case RawKind::kLeave:
      if (e.y > 1) out.AddUint64Attribute(rank.attributes.calls, e.y);
      out.Leave(t, region);
      if (!open.empty()) open.pop_back();
      return Written::kEvent;
    case RawKind::kSend:
      out.MpiSend(t, e.b, rank.Comm(e.a), e.c, e.x);
      return Written::kEvent;
    case RawKind::kIsend:
      out.MpiIsend(t, e.b, rank.Comm(e.a), e.c, e.x, e.y);
      return Written::kEvent;
    case RawKind::kIsendComplete:
      out.MpiIsendComplete(t, e.y);
      return Written::kEvent;
    case RawKind::kIrecvRequest:
      if (e.c != 0) out.AddUint64Attribute(rank.attributes.message_handle, e.c);  // MPI_Imrecv
      out.MpiIrecvRequest(t, e.y);
      return Written::kEvent;
    case RawKind::kRecv:
      if (e.y != 0) out.AddUint64Attribute(rank.attributes.message_handle, e.y);  // MPI_Mrecv
      out.MpiRecv(t, e.b, rank.Comm(e.a), e.c, e.x);
      return Written::kEvent;
    case RawKind::kIrecv:
      out.MpiIrecv(t, e.b, rank.Comm(e.a), e.c, e.x, e.y);
      return Written::kEvent;
    case RawKind::kRequestTest:
      out.MpiRequestTest(t, e.y);
      return Written::kEvent;
    case RawKind::kRequestCancelled:
      out.MpiRequestCancelled(t, e.y);
      return Written::kEvent;
    case RawKind::kCollectiveBegin:
      out.MpiCollectiveBegin(t);
      return Written::kEvent;
    case RawKind::kCollectiveEnd:
      AddSenders(e.c, rank, out);
      out.MpiCollectiveEnd(t, static_cast<OTF2_CollectiveOp>(e.op), rank.Comm(e.a), e.b, e.x, e.y);
      return Written::kEvent;
    case RawKind::kNonBlockingCollectiveRequest:
      AddSenders(e.c, rank, out);
      out.NonBlockingCollectiveRequest(t, e.y);
      return Written::kEvent;
    case RawKind::kNonBlockingCollectiveComplete:
      out.NonBlockingCollectiveComplete(t, static_cast<OTF2_CollectiveOp>(e.op), rank.Comm(e.a),
                                        e.b, e.x, e.y, e.c);
      return Written::kEvent;
    default:
      return Written::kUnknown;
  }
}

Written WriteOtherRecord(const RawEvent& e, uint64_t t, const RankContext& rank,
                         otf2_writer::EventWriter& out) {
  const uint32_t remote = e.b == kNoRank ? OTF2_UNDEFINED_UINT32 : e.b;
  switch (e.kind) {
    case RawKind::kRmaWinCreate:
      out.RmaWinCreate(t, rank.Window(e.a));
      return Written::kEvent;
    case RawKind::kRmaWinDestroy:
      out.RmaWinDestroy(t, rank.Window(e.a));
      return Written::kEvent;
    case RawKind::kRmaCollectiveBegin:
      out.RmaCollectiveBegin(t);
      return Written::kEvent;
    case RawKind::kRmaCollectiveEnd:
      out.RmaCollectiveEnd(t, static_cast<OTF2_CollectiveOp>(e.op),
                           static_cast<OTF2_RmaSyncLevel>(e.c), rank.Window(e.a), remote, e.x, e.y);
      return Written::kEvent;
    case RawKind::kRmaGroupSync:
      out.RmaGroupSync(t, static_cast<OTF2_RmaSyncLevel>(e.c), rank.Window(e.a), rank.Group(e.b));
      return Written::kEvent;
    case RawKind::kRmaRequestLock:
      out.RmaRequestLock(t, rank.Window(e.a), remote, e.y, static_cast<OTF2_LockType>(e.op));
      return Written::kEvent;
    case RawKind::kRmaAcquireLock:
      out.RmaAcquireLock(t, rank.Window(e.a), remote, e.y, static_cast<OTF2_LockType>(e.op));
      return Written::kEvent;
    case RawKind::kRmaReleaseLock:
      out.RmaReleaseLock(t, rank.Window(e.a), remote, e.y);
      return Written::kEvent;
    case RawKind::kRmaSync:
      out.RmaSync(t, rank.Window(e.a), remote, static_cast<OTF2_RmaSyncType>(e.op));
      return Written::kEvent;
    case RawKind::kRmaPut:
      out.RmaPut(t, rank.Window(e.a), remote, e.x, e.y);
      return Written::kEvent;
    case RawKind::kRmaGet:
      out.RmaGet(t, rank.Window(e.a), remote, e.x, e.y);
      return Written::kEvent;
    case RawKind::kRmaAtomic:
      out.RmaAtomic(t, rank.Window(e.a), remote, static_cast<OTF2_RmaAtomicType>(e.op), e.x, e.c,
                    e.y);
      return Written::kEvent;
    case RawKind::kRmaOpCompleteBlocking:
      out.RmaOpCompleteBlocking(t, rank.Window(e.a), e.y);
      return Written::kEvent;
    case RawKind::kRmaTryLock:
      out.RmaTryLock(t, rank.Window(e.a), remote, e.y, static_cast<OTF2_LockType>(e.op));
      return Written::kEvent;
    case RawKind::kRmaWaitChange:
      out.RmaWaitChange(t, rank.Window(e.a));
      return Written::kEvent;
    case RawKind::kMeasurementOnOff:
      out.MeasurementOnOff(t, e.a != 0);
      return Written::kEvent;
    case RawKind::kIoCreateHandle:
      out.IoCreateHandle(t, rank.File(e.a), static_cast<OTF2_IoAccessMode>(e.b),
                         static_cast<OTF2_IoCreationFlag>(e.x),
                         static_cast<OTF2_IoStatusFlag>(e.c));
      return Written::kEvent;
    case RawKind::kIoDestroyHandle:
      out.IoDestroyHandle(t, rank.File(e.a));
      return Written::kEvent;
    case RawKind::kIoOperationBegin:
      out.IoOperationBegin(t, rank.File(e.a), static_cast<OTF2_IoOperationMode>(e.c),
                           static_cast<OTF2_IoOperationFlag>(e.b), e.x, e.y);
      return Written::kEvent;
    case RawKind::kIoOperationIssued:
      out.IoOperationIssued(t, rank.File(e.a), e.y);
      return Written::kEvent;
    case RawKind::kIoOperationComplete:
      out.IoOperationComplete(t, rank.File(e.a), e.x, e.y);
      return Written::kEvent;
    default:
      return Written::kUnknown;
  }
}

bool NamesOnlyDefined(const RawEvent& e, uint32_t region, const RankContext& rank) {
  const bool is_region = e.kind == RawKind::kEnter || e.kind == RawKind::kLeave;
  if (is_region && region == kUndefinedRegion) return false;
  const bool is_rma = e.kind >= RawKind::kRmaWinCreate && e.kind <= RawKind::kRmaWaitChange &&
                      e.kind != RawKind::kRmaCollectiveBegin;
  if (is_rma && (rank.Window(e.a) == kNoDefinition ||
                 (e.kind == RawKind::kRmaGroupSync && rank.Group(e.b) == kNoDefinition))) {
    return false;
  }
  const bool is_io = e.kind >= RawKind::kIoCreateHandle && e.kind <= RawKind::kIoOperationComplete;
  return !(is_io && rank.File(e.a) == kNoIoHandle);
}

}  // namespace cw::measure::internal
