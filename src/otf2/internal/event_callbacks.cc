#include "otf2/internal/event_callbacks.h"

#include "trace/polling.h"

#include <string>
#include <vector>

#include "otf2/event_reader.h"
#include "otf2/internal/callback_support.h"
#include "otf2/internal/calling_context_frames.h"
#include "otf2/internal/reader_support.h"
#include "trace/call_sites.h"

namespace cw::otf2::internal {
namespace {

using trace::EventKind;
using trace::kNone;

constexpr uint32_t kProgressBatch = 1u << 16;

// No single message, collective contribution or one-sided transfer moves 2^48 bytes (256 TiB);
// a larger count is a damaged record, and summing it would wrap the byte totals (a message of
// 2^64-1 bytes among four of 1 KiB summed to 4095 bytes). It is counted as 0 and reported.
constexpr uint64_t kMostBytes = uint64_t{1} << 48;

uint64_t CheckedBytes(EventContext& ctx, uint64_t bytes) {
  if (bytes < kMostBytes) [[likely]]
    return bytes;
  ctx.diagnostics.Report(kImplausibleByteCount, "event " +
                                                    std::to_string(ctx.builder.recorded_events()) +
                                                    ", " + std::to_string(bytes) + " bytes");
  return 0;
}

}  // namespace

// Bookkeeping after each record: attributes, progress.
OTF2_CallbackCode Done(EventContext& ctx, OTF2_AttributeList* attributes) {
  if (attributes != nullptr) {
    uint32_t n = OTF2_AttributeList_GetNumberOfElements(attributes);
    for (uint32_t i = 0; i < n; ++i) {
      OTF2_AttributeRef ref;
      OTF2_Type type;
      OTF2_AttributeValue value;
      if (OTF2_AttributeList_GetAttributeByIndex(attributes, i, &ref, &type, &value) ==
          OTF2_SUCCESS) {
        ctx.builder.AddAttribute(ref, type, value.uint64);
        if (ref == ctx.calls_attribute) ctx.builder.RepeatLastCall(value.uint64);
      }
    }
  }
  if (ctx.progress != nullptr && ++ctx.unreported_progress == kProgressBatch) {
    ctx.progress->fetch_add(kProgressBatch, std::memory_order_relaxed);
    ctx.unreported_progress = 0;
  }
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode Generic(void* user, OTF2_AttributeList* attributes, OTF2_TimeStamp time,
                          EventKind kind, uint64_t a, uint64_t b, uint32_t c, uint32_t d) {
  EventContext& ctx = Ctx(user);
  ctx.builder.Generic(time, kind, trace::GenericPayload{a, b, c, d});
  return Done(ctx, attributes);
}

uint32_t CheckedRegion(EventContext& ctx, uint32_t region) {
  const std::vector<uint8_t>& defined = *ctx.defined_regions;
  if (region < defined.size() && defined[region]) [[likely]]
    return region;
  ctx.diagnostics.Report(kUndefinedRegion, "region " + std::to_string(region));
  return ctx.undefined_region;
}

namespace {

uint32_t AttributeNamed(const trace::Definitions& defs, std::string_view name) {
  for (uint32_t a = 0; a < defs.attributes.size(); ++a) {
    if (defs.attributes[a].defined && defs.str(defs.attributes[a].name) == name) return a;
  }
  return trace::kNone;
}

}  // namespace

uint32_t CallsAttribute(const trace::Definitions& defs) {
  return AttributeNamed(defs, trace::kCallsAttribute);
}

uint32_t CallSiteAttribute(const trace::Definitions& defs) {
  return AttributeNamed(defs, trace::kCallSiteAttribute);
}

namespace {

OTF2_CallbackCode OnUnknown(OTF2_LocationRef, OTF2_TimeStamp, uint64_t, void* user,
                            OTF2_AttributeList*) {
  Ctx(user).diagnostics.Report(kUnknownEvent);
  return OTF2_CALLBACK_SUCCESS;
}

OTF2_CallbackCode OnEnter(CW_EVT_ARGS, OTF2_RegionRef region) {
  EventContext& ctx = Ctx(user);
  ctx.builder.Enter(time, CheckedRegion(ctx, region));
  return Done(ctx, attributes);
}

OTF2_CallbackCode OnLeave(CW_EVT_ARGS, OTF2_RegionRef region) {
  EventContext& ctx = Ctx(user);
  ctx.builder.Leave(time, CheckedRegion(ctx, region));
  return Done(ctx, attributes);
}

OTF2_CallbackCode OnMeasurementOnOff(CW_EVT_ARGS, OTF2_MeasurementMode mode) {
  EventContext& ctx = Ctx(user);
  ctx.builder.MeasurementOnOff(time, mode == OTF2_MEASUREMENT_ON);
  return Done(ctx, attributes);
}

OTF2_CallbackCode OnBufferFlush(CW_EVT_ARGS, OTF2_TimeStamp stop) {
  ++Ctx(user).buffer_flushes;
  return Generic(user, attributes, time, EventKind::kBufferFlush, stop, 0, kNone, 0);
}

OTF2_CallbackCode OnProgramBegin(CW_EVT_ARGS, OTF2_StringRef name, uint32_t count,
                                 const OTF2_StringRef* args) {
  EventContext& ctx = Ctx(user);
  ctx.builder.ProgramBegin(time, name, args, count);
  return Done(ctx, attributes);
}

OTF2_CallbackCode OnProgramEnd(CW_EVT_ARGS, int64_t status) {
  EventContext& ctx = Ctx(user);
  ctx.builder.ProgramEnd(time, status);
  return Done(ctx, attributes);
}

OTF2_CallbackCode OnMetric(CW_EVT_ARGS, OTF2_MetricRef metric, uint8_t count,
                           const OTF2_Type* types, const OTF2_MetricValue* values) {
  EventContext& ctx = Ctx(user);
  std::vector<uint64_t> raw(count);
  for (uint8_t i = 0; i < count; ++i) raw[i] = values[i].unsigned_int;
  ctx.builder.Metric(time, metric, types, raw.data(), count);
  return Done(ctx, attributes);
}

OTF2_CallbackCode OnParameterString(CW_EVT_ARGS, OTF2_ParameterRef parameter,
                                    OTF2_StringRef string) {
  return Generic(user, attributes, time, EventKind::kParameterString, 0, 0, parameter, string);
}

OTF2_CallbackCode OnParameterInt(CW_EVT_ARGS, OTF2_ParameterRef parameter, int64_t value) {
  return Generic(user, attributes, time, EventKind::kParameterInt, static_cast<uint64_t>(value), 0,
                 parameter, 0);
}

OTF2_CallbackCode OnParameterUnsignedInt(CW_EVT_ARGS, OTF2_ParameterRef parameter, uint64_t value) {
  return Generic(user, attributes, time, EventKind::kParameterUnsignedInt, value, 0, parameter, 0);
}

OTF2_CallbackCode P2p(void* user, OTF2_AttributeList* attributes, OTF2_TimeStamp time,
                      EventKind kind, uint32_t peer, OTF2_CommRef comm, uint32_t tag,
                      uint64_t bytes, uint64_t request) {
  EventContext& ctx = Ctx(user);
  trace::P2pPayload payload;
  payload.bytes = CheckedBytes(ctx, bytes);
  payload.comm = comm;
  payload.peer = peer;
  payload.tag = tag;
  ctx.builder.P2p(time, kind, payload, request);
  return Done(ctx, attributes);
}

OTF2_CallbackCode OnMpiSend(CW_EVT_ARGS, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                            uint64_t bytes) {
  return P2p(user, attributes, time, EventKind::kMpiSend, receiver, comm, tag, bytes,
             trace::kNoRequest);
}

OTF2_CallbackCode OnMpiIsend(CW_EVT_ARGS, uint32_t receiver, OTF2_CommRef comm, uint32_t tag,
                             uint64_t bytes, uint64_t request) {
  return P2p(user, attributes, time, EventKind::kMpiIsend, receiver, comm, tag, bytes, request);
}

OTF2_CallbackCode OnMpiRecv(CW_EVT_ARGS, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                            uint64_t bytes) {
  return P2p(user, attributes, time, EventKind::kMpiRecv, sender, comm, tag, bytes,
             trace::kNoRequest);
}

OTF2_CallbackCode OnMpiIrecv(CW_EVT_ARGS, uint32_t sender, OTF2_CommRef comm, uint32_t tag,
                             uint64_t bytes, uint64_t request) {
  return P2p(user, attributes, time, EventKind::kMpiIrecv, sender, comm, tag, bytes, request);
}

OTF2_CallbackCode Request(void* user, OTF2_AttributeList* attributes, OTF2_TimeStamp time,
                          EventKind kind, uint64_t request) {
  EventContext& ctx = Ctx(user);
  ctx.builder.Request(time, kind, request);
  return Done(ctx, attributes);
}

OTF2_CallbackCode OnMpiIsendComplete(CW_EVT_ARGS, uint64_t request) {
  return Request(user, attributes, time, EventKind::kMpiIsendComplete, request);
}
OTF2_CallbackCode OnMpiIrecvRequest(CW_EVT_ARGS, uint64_t request) {
  return Request(user, attributes, time, EventKind::kMpiIrecvRequest, request);
}
OTF2_CallbackCode OnMpiRequestTest(CW_EVT_ARGS, uint64_t request) {
  return Request(user, attributes, time, EventKind::kMpiRequestTest, request);
}
OTF2_CallbackCode OnMpiRequestCancelled(CW_EVT_ARGS, uint64_t request) {
  return Request(user, attributes, time, EventKind::kMpiRequestCancelled, request);
}
OTF2_CallbackCode OnNbcRequest(CW_EVT_ARGS, uint64_t request) {
  return Request(user, attributes, time, EventKind::kNonBlockingCollectiveRequest, request);
}

OTF2_CallbackCode NoPayload(void* user, OTF2_AttributeList* attributes, OTF2_TimeStamp time,
                            EventKind kind) {
  EventContext& ctx = Ctx(user);
  ctx.builder.NoPayload(time, kind);
  return Done(ctx, attributes);
}

OTF2_CallbackCode OnMpiCollectiveBegin(CW_EVT_ARGS) {
  return NoPayload(user, attributes, time, EventKind::kMpiCollectiveBegin);
}
OTF2_CallbackCode OnRmaCollectiveBegin(CW_EVT_ARGS) {
  return NoPayload(user, attributes, time, EventKind::kRmaCollectiveBegin);
}

OTF2_CallbackCode Collective(void* user, OTF2_AttributeList* attributes, OTF2_TimeStamp time,
                             EventKind kind, const trace::CollectivePayload& payload,
                             uint64_t request = trace::kNoRequest) {
  EventContext& ctx = Ctx(user);
  trace::CollectivePayload checked = payload;
  checked.sent = CheckedBytes(ctx, payload.sent);
  checked.received = CheckedBytes(ctx, payload.received);
  ctx.builder.Collective(time, kind, checked, request);
  return Done(ctx, attributes);
}

OTF2_CallbackCode OnMpiCollectiveEnd(CW_EVT_ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm,
                                     uint32_t root, uint64_t sent, uint64_t received) {
  trace::CollectivePayload p;
  p.op = static_cast<trace::CollectiveOp>(op);
  p.comm_or_window = comm;
  p.root = root;
  p.sent = sent;
  p.received = received;
  return Collective(user, attributes, time, EventKind::kMpiCollectiveEnd, p);
}

OTF2_CallbackCode OnNbcComplete(CW_EVT_ARGS, OTF2_CollectiveOp op, OTF2_CommRef comm, uint32_t root,
                                uint64_t sent, uint64_t received, uint64_t request) {
  trace::CollectivePayload p;
  p.op = static_cast<trace::CollectiveOp>(op);
  p.comm_or_window = comm;
  p.root = root;
  p.sent = sent;
  p.received = received;
  return Collective(user, attributes, time, EventKind::kNonBlockingCollectiveComplete, p, request);
}

OTF2_CallbackCode OnRmaCollectiveEnd(CW_EVT_ARGS, OTF2_CollectiveOp op, OTF2_RmaSyncLevel level,
                                     OTF2_RmaWinRef win, uint32_t root, uint64_t sent,
                                     uint64_t received) {
  trace::CollectivePayload p;
  p.op = static_cast<trace::CollectiveOp>(op);
  p.comm_or_window = win;
  p.root = root;
  p.sent = sent;
  p.received = received;
  p.sync_level = static_cast<uint8_t>(level);
  return Collective(user, attributes, time, EventKind::kRmaCollectiveEnd, p);
}

OTF2_CallbackCode OnCommCreate(CW_EVT_ARGS, OTF2_CommRef comm) {
  return Generic(user, attributes, time, EventKind::kCommCreate, 0, 0, comm, 0);
}
OTF2_CallbackCode OnCommDestroy(CW_EVT_ARGS, OTF2_CommRef comm) {
  return Generic(user, attributes, time, EventKind::kCommDestroy, 0, 0, comm, 0);
}

OTF2_CallbackCode Rma(void* user, OTF2_AttributeList* attributes, OTF2_TimeStamp time,
                      EventKind kind, uint32_t window, uint32_t remote, uint64_t sent,
                      uint64_t received, uint64_t id, uint32_t detail) {
  EventContext& ctx = Ctx(user);
  ctx.builder.Rma(time, kind,
                  trace::RmaPayload{CheckedBytes(ctx, sent), CheckedBytes(ctx, received), id,
                                    window, remote, detail});
  return Done(ctx, attributes);
}

OTF2_CallbackCode OnRmaWinCreate(CW_EVT_ARGS, OTF2_RmaWinRef win) {
  return Rma(user, attributes, time, EventKind::kRmaWinCreate, win, kNone, 0, 0, 0, 0);
}
OTF2_CallbackCode OnRmaWinDestroy(CW_EVT_ARGS, OTF2_RmaWinRef win) {
  return Rma(user, attributes, time, EventKind::kRmaWinDestroy, win, kNone, 0, 0, 0, 0);
}
OTF2_CallbackCode OnRmaGroupSync(CW_EVT_ARGS, OTF2_RmaSyncLevel level, OTF2_RmaWinRef win,
                                 OTF2_GroupRef group) {
  return Rma(user, attributes, time, EventKind::kRmaGroupSync, win, group, 0, 0, 0, level);
}
OTF2_CallbackCode OnRmaRequestLock(CW_EVT_ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t lock,
                                   OTF2_LockType type) {
  return Rma(user, attributes, time, EventKind::kRmaRequestLock, win, remote, 0, 0, lock, type);
}
OTF2_CallbackCode OnRmaAcquireLock(CW_EVT_ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t lock,
                                   OTF2_LockType type) {
  return Rma(user, attributes, time, EventKind::kRmaAcquireLock, win, remote, 0, 0, lock, type);
}
OTF2_CallbackCode OnRmaTryLock(CW_EVT_ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t lock,
                               OTF2_LockType type) {
  return Rma(user, attributes, time, EventKind::kRmaTryLock, win, remote, 0, 0, lock, type);
}
OTF2_CallbackCode OnRmaReleaseLock(CW_EVT_ARGS, OTF2_RmaWinRef win, uint32_t remote,
                                   uint64_t lock) {
  return Rma(user, attributes, time, EventKind::kRmaReleaseLock, win, remote, 0, 0, lock, 0);
}
OTF2_CallbackCode OnRmaSync(CW_EVT_ARGS, OTF2_RmaWinRef win, uint32_t remote,
                            OTF2_RmaSyncType type) {
  return Rma(user, attributes, time, EventKind::kRmaSync, win, remote, 0, 0, 0, type);
}
OTF2_CallbackCode OnRmaWaitChange(CW_EVT_ARGS, OTF2_RmaWinRef win) {
  return Rma(user, attributes, time, EventKind::kRmaWaitChange, win, kNone, 0, 0, 0, 0);
}
OTF2_CallbackCode OnRmaPut(CW_EVT_ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes,
                           uint64_t matching) {
  return Rma(user, attributes, time, EventKind::kRmaPut, win, remote, bytes, 0, matching, 0);
}
OTF2_CallbackCode OnRmaGet(CW_EVT_ARGS, OTF2_RmaWinRef win, uint32_t remote, uint64_t bytes,
                           uint64_t matching) {
  return Rma(user, attributes, time, EventKind::kRmaGet, win, remote, 0, bytes, matching, 0);
}
OTF2_CallbackCode OnRmaAtomic(CW_EVT_ARGS, OTF2_RmaWinRef win, uint32_t remote,
                              OTF2_RmaAtomicType type, uint64_t sent, uint64_t received,
                              uint64_t matching) {
  return Rma(user, attributes, time, EventKind::kRmaAtomic, win, remote, sent, received, matching,
             type);
}
OTF2_CallbackCode OnRmaOpCompleteBlocking(CW_EVT_ARGS, OTF2_RmaWinRef win, uint64_t matching) {
  return Rma(user, attributes, time, EventKind::kRmaOpCompleteBlocking, win, kNone, 0, 0, matching,
             0);
}
OTF2_CallbackCode OnRmaOpCompleteNonBlocking(CW_EVT_ARGS, OTF2_RmaWinRef win, uint64_t matching) {
  return Rma(user, attributes, time, EventKind::kRmaOpCompleteNonBlocking, win, kNone, 0, 0,
             matching, 0);
}
OTF2_CallbackCode OnRmaOpTest(CW_EVT_ARGS, OTF2_RmaWinRef win, uint64_t matching) {
  return Rma(user, attributes, time, EventKind::kRmaOpTest, win, kNone, 0, 0, matching, 0);
}
OTF2_CallbackCode OnRmaOpCompleteRemote(CW_EVT_ARGS, OTF2_RmaWinRef win, uint64_t matching) {
  return Rma(user, attributes, time, EventKind::kRmaOpCompleteRemote, win, kNone, 0, 0, matching,
             0);
}

OTF2_CallbackCode OnCallingContextEnter(CW_EVT_ARGS, OTF2_CallingContextRef context,
                                        uint32_t unwind) {
  EventContext& ctx = Ctx(user);
  ctx.builder.CountRecord();
  ctx.frames->MoveTo(ctx, time, context, unwind);
  return Done(ctx, attributes);
}

OTF2_CallbackCode OnCallingContextLeave(CW_EVT_ARGS, OTF2_CallingContextRef context) {
  EventContext& ctx = Ctx(user);
  ctx.builder.CountRecord();
  ctx.frames->Leave(ctx, time, context);
  return Done(ctx, attributes);
}

// The sample stays a record of its own (causeway info counts them) after the frames it moves.
OTF2_CallbackCode OnCallingContextSample(CW_EVT_ARGS, OTF2_CallingContextRef context,
                                         uint32_t unwind, OTF2_InterruptGeneratorRef generator) {
  EventContext& ctx = Ctx(user);
  ctx.frames->MoveTo(ctx, time, context, unwind);
  return Generic(user, attributes, time, EventKind::kCallingContextSample, generator, 0, context,
                 unwind);
}

}  // namespace

OTF2_EvtReaderCallbacks* NewEventCallbacks() {
  OTF2_EvtReaderCallbacks* cb = OTF2_EvtReaderCallbacks_New();
#define CW_SET(Name) OTF2_EvtReaderCallbacks_Set##Name##Callback(cb, TimeChecked<On##Name>::Call)
  CW_SET(Unknown);
  CW_SET(BufferFlush);
  CW_SET(MeasurementOnOff);
  CW_SET(Enter);
  CW_SET(Leave);
  CW_SET(MpiSend);
  CW_SET(MpiIsend);
  CW_SET(MpiIsendComplete);
  CW_SET(MpiIrecvRequest);
  CW_SET(MpiRecv);
  CW_SET(MpiIrecv);
  CW_SET(MpiRequestTest);
  CW_SET(MpiRequestCancelled);
  CW_SET(MpiCollectiveBegin);
  CW_SET(MpiCollectiveEnd);
  CW_SET(Metric);
  CW_SET(ParameterString);
  CW_SET(ParameterInt);
  CW_SET(ParameterUnsignedInt);
  CW_SET(RmaWinCreate);
  CW_SET(RmaWinDestroy);
  CW_SET(RmaCollectiveBegin);
  CW_SET(RmaCollectiveEnd);
  CW_SET(RmaGroupSync);
  CW_SET(RmaRequestLock);
  CW_SET(RmaAcquireLock);
  CW_SET(RmaTryLock);
  CW_SET(RmaReleaseLock);
  CW_SET(RmaSync);
  CW_SET(RmaWaitChange);
  CW_SET(RmaPut);
  CW_SET(RmaGet);
  CW_SET(RmaAtomic);
  CW_SET(RmaOpCompleteBlocking);
  CW_SET(RmaOpCompleteNonBlocking);
  CW_SET(RmaOpTest);
  CW_SET(RmaOpCompleteRemote);
  CW_SET(CallingContextEnter);
  CW_SET(CallingContextLeave);
  CW_SET(CallingContextSample);
  CW_SET(ProgramBegin);
  CW_SET(ProgramEnd);
#undef CW_SET
  SetThreadCallbacks(cb);
  SetIoCallbacks(cb);
  // Named otherwise in OTF2 than here, so set one by one, behind the same time check.
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveRequestCallback(cb,
                                                                  TimeChecked<OnNbcRequest>::Call);
  OTF2_EvtReaderCallbacks_SetNonBlockingCollectiveCompleteCallback(
      cb, TimeChecked<OnNbcComplete>::Call);
  OTF2_EvtReaderCallbacks_SetCommCreateCallback(cb, TimeChecked<OnCommCreate>::Call);
  OTF2_EvtReaderCallbacks_SetCommDestroyCallback(cb, TimeChecked<OnCommDestroy>::Call);
  return cb;
}

}  // namespace cw::otf2::internal
